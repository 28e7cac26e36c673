import type { KnownBlock } from '@slack/types';
import type { MalformedView } from '../layout/batch-view.js';
import { mrkdwnSection, plainContext, plainText } from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { escapeMrkdwn } from '../text/escape-mrkdwn.js';
import { showControls } from '../text/show-controls.js';
import { truncatePlain, truncatePlainStart } from '../text/text-cut.js';
import type { SlackMessage } from './render-batch-messages.js';
import { preformatted } from './render-preview.js';

// The error names the file and JSON path; a few thousand characters say all that matters.
const ERROR_SHOWN = 2900;

/**
 * The message shown in place of a q-out file that does not parse: which file, the error
 * (preformatted, so it shows literally) and what happens once the file is fixed.
 */
export function renderMalformedMessage(view: MalformedView): SlackMessage {
  const file = escapeMrkdwn(truncatePlain(view.fileName, 200));
  const error = view.errorText.trim() === '' ? 'No details were given.' : view.errorText;
  const blocks: KnownBlock[] = [
    {
      type: 'header',
      text: plainText(`Run ${view.runName} · batch ${view.seq}`, BLOCK_KIT_LIMITS.headerText),
    },
    plainContext(truncatePlainStart(view.runDir, 500)),
    mrkdwnSection(`:warning: *${file} could not be read*, so its questions cannot be shown yet.`),
    // written out before the cut, so the cut holds for what is sent
    preformatted(truncatePlain(showControls(error), ERROR_SHOWN)),
    plainContext('Once the file is fixed it will be read again and its questions shown here.'),
  ];
  const text = escapeMrkdwn(
    `Run ${view.runName}, batch ${view.seq}: ${truncatePlain(view.fileName, 200)} could not be read`,
  );
  return { text, blocks };
}
