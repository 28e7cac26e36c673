import type { KnownBlock, ModalView } from '@slack/types';
import { actionId, CALLBACK_IDS, DIGEST_CONTROLS, digestBlockId } from '../slack/controls/ids.js';
import {
  actionsBlock,
  button,
  mrkdwnContext,
  mrkdwnSection,
  plainText,
} from '../slack/layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../slack/layout/block-kit-limits.js';
import type { DigestItem } from './digest-item.js';
import { DIGEST_LINES_SHOWN, digestLineText, lineButtons } from './render-digest.js';

/** Block id of the pages form's Previous / Next buttons. */
export const DIGEST_PAGE_NAV_BLOCK = 'o7.digest.pages';

/** What the pages form's sealed metadata says: whose digest it pages, and which page it shows. */
export interface DigestPagesTarget {
  channel: string;
  page: number;
}

/** How many pages `count` lines take. */
export const pageCount = (count: number): number =>
  Math.max(1, Math.ceil(count / DIGEST_LINES_SHOWN));

/**
 * One page of a channel's digest in a form: the same lines as the message, oldest first,
 * {@link DIGEST_LINES_SHOWN} a page, each with its batch's buttons (or Undo), and Previous /
 * Next. A page past the end shows the last one.
 */
export function renderDigestPage(
  items: readonly DigestItem[],
  target: DigestPagesTarget,
): ModalView {
  const pages = pageCount(items.length);
  const page = Math.min(Math.max(0, target.page), pages - 1);
  const from = page * DIGEST_LINES_SHOWN;
  const shown = items.slice(from, from + DIGEST_LINES_SHOWN);
  const blocks: KnownBlock[] = [
    mrkdwnContext(
      items.length === 0
        ? 'Nothing is waiting for a quick answer now.'
        : `Lines ${from + 1}–${from + shown.length} of ${items.length}, oldest first · page ${page + 1} of ${pages}`,
    ),
  ];
  shown.forEach((item, line) => {
    blocks.push(mrkdwnSection(digestLineText(item)));
    blocks.push(
      actionsBlock(digestBlockId(item.key, item.revision), lineButtons(item, from + line)),
    );
  });
  const nav = [
    ...(page > 0
      ? [
          button('‹ Previous', actionId(DIGEST_CONTROLS.page, 'previous'), {
            value: String(page - 1),
          }),
        ]
      : []),
    ...(page < pages - 1
      ? [button('Next ›', actionId(DIGEST_CONTROLS.page, 'next'), { value: String(page + 1) })]
      : []),
  ];
  if (nav.length > 0) blocks.push(actionsBlock(DIGEST_PAGE_NAV_BLOCK, nav));
  return {
    type: 'modal',
    callback_id: CALLBACK_IDS.digestPages,
    title: plainText(`Waiting (${items.length})`, BLOCK_KIT_LIMITS.viewTitle),
    close: plainText('Close', BLOCK_KIT_LIMITS.viewClose),
    private_metadata: JSON.stringify({ channel: target.channel, page }),
    blocks,
  };
}

/** Reads the pages form's metadata (once its seal is checked); undefined if it is not one. */
export function parseDigestPagesTarget(text: string | undefined): DigestPagesTarget | undefined {
  try {
    const value: unknown = JSON.parse(text ?? '');
    const { channel, page } = (value ?? {}) as Record<string, unknown>;
    return typeof channel === 'string' && Number.isInteger(page) && (page as number) >= 0
      ? { channel, page: page as number }
      : undefined;
  } catch {
    return undefined;
  }
}
