// What the relay asked of Slack, and Slack misbehaving: calls held, failed, or failed right
// after another.
import type { FakeSlack } from '../../support/fake-slack/index.js';
import type { WebApiCall } from '../../support/fake-slack/types.js';
import { CHANNEL } from '../../support/relay-harness.js';
import { waitFor } from '../../support/wait.js';

/** The relay's calls of `method` to the channel that Slack answered with `ok: true`. */
export function okCalls(slack: FakeSlack, method: string) {
  return slack.calls.filter(
    (c) => c.method === method && c.args.channel === CHANNEL && c.status === 200 && c.response.ok,
  );
}

/** The relay's calls of `method` to the channel that failed (HTTP error or `ok: false`). */
export function failedCalls(slack: FakeSlack, method: string) {
  return slack.calls.filter(
    (c) =>
      c.method === method && c.args.channel === CHANNEL && !(c.status === 200 && c.response.ok),
  );
}

/**
 * Makes every call of `method` fail with `error` until `release()`. Holding `chat.update` is
 * how a click on an outdated message is made: while Slack takes no edits, people keep seeing
 * (and clicking) the controls they have, and the stand-in only lets a user click what a
 * message shows.
 */
export function holdCalls(slack: FakeSlack, method: string, error = 'internal_error') {
  const refusedSoFar = () =>
    slack.calls.filter(
      (c) => c.method === method && c.args.channel === CHANNEL && c.response.error === error,
    ).length;
  const before = refusedSoFar();
  slack.failNext(method, { error }, 1000);
  return {
    /** Waits until the relay has tried (and failed) `count` times. */
    waitRefused: (count = 1) =>
      waitFor(
        () => refusedSoFar() - before >= count,
        `${count} refused ${method} call(s) from the relay`,
      ),
    /** Drops the failures still queued so the relay's next try goes through. */
    release: () => slack.clearFailures(method),
  };
}

/** Holds `chat.update` (see {@link holdCalls}). */
export const holdMessageUpdates = (slack: FakeSlack) => holdCalls(slack, 'chat.update');

/**
 * Runs `action` once, right after the stand-in answers the first call that `matches`. The
 * stand-in records a call as it answers it, so a `failNext` made here hits the very next call
 * of that method: the only way to fail the second of two calls the relay makes back to back.
 */
export function afterCall(
  slack: FakeSlack,
  matches: (call: WebApiCall) => boolean,
  action: () => void,
): void {
  const calls = slack.calls as WebApiCall[];
  const push = calls.push;
  calls.push = (...items: WebApiCall[]) => {
    const count = push.apply(calls, items);
    if (items.some(matches)) {
      calls.push = push;
      action();
    }
    return count;
  };
}
