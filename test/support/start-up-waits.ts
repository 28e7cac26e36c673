// What a relay process logs while it waits at start for Slack or Redis to be reachable: one
// warning, the tries at debug, one line once it is through.
import assert from 'node:assert/strict';
import { LEVEL } from './log-capture.js';
import type { RelayProcess } from './spawn-relay.js';
import { waitFor } from './wait.js';

type WaitedFor = 'Slack' | 'Redis';

const said = (relay: RelayProcess, start: string) =>
  relay.logs.filter((l) => String(l.msg).startsWith(start));

/**
 * Waits until `relay` has retried reaching `what` `tries` times after its first try, and checks
 * it is still waiting: not ready, not exited, one warning, the retries at debug. Returns the
 * warning and the retries, for what each wait says in them.
 */
export async function expectWaitingFor(relay: RelayProcess, what: WaitedFor, tries: number) {
  await waitFor(
    () => said(relay, `${what} still cannot be reached`).length >= tries || undefined,
    `${tries} failed tries after the first (stderr: ${relay.stderr().slice(-500)})`,
  );
  assert.equal(relay.child.exitCode, null, 'still waiting, not exited');
  const [warning, ...more] = said(relay, `${what} cannot be reached`);
  assert.deepEqual(more, [], 'one warning for the wait');
  assert.equal(warning?.level, LEVEL.warn);
  const retries = said(relay, `${what} still cannot be reached`);
  for (const retry of retries) assert.equal(retry.level, LEVEL.debug);
  assert.ok(!relay.logs.some((l) => l.msg === 'relay ready'));
  return { warning, retries };
}

/** Checks that `relay`, now through, said once at info that `what` can be reached after `waitedMs` or more. */
export function expectReachedAfter(relay: RelayProcess, what: WaitedFor, waitedMs: number): void {
  const through = said(relay, `${what} can be reached now`);
  assert.equal(through.length, 1);
  assert.equal(through[0]?.level, LEVEL.info);
  assert.ok(Number(through[0]?.waitedMs) >= waitedMs, `waitedMs: ${through[0]?.waitedMs}`);
  assert.equal(said(relay, `${what} cannot be reached`).length, 1, 'still one warning');
}
