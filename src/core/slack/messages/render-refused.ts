import { escapeMrkdwn } from '../text/escape-mrkdwn.js';
import { truncatePlain, truncatePlainStart } from '../text/text-cut.js';

/** What people are told when Slack will not show a batch. */
export interface RefusedView {
  runName: string;
  seq: number;
  /** absolute path of the batch's `q-out-NNN.json` */
  questionFile: string;
  /** Slack's error code */
  code: string;
  /** what to do about it */
  fix: string;
}

/**
 * A short plain-text notice, posted where the batch would have been: which batch, what Slack
 * said, and how the agent can still get its answers. Plain text only, so that Slack, which
 * just refused blocks, has nothing left to refuse.
 */
export function renderRefusedNotice(view: RefusedView): string {
  const file = truncatePlainStart(view.questionFile, 400);
  return escapeMrkdwn(
    `⚠️ Run ${truncatePlain(view.runName, 80)}, batch ${view.seq}, could not be shown here: Slack refused it (${view.code}). ${truncatePlain(view.fix, 400)}. The agent is still waiting for its answers: answer it in o7's terminal, or change ${file} and the relay tries again.`,
  );
}
