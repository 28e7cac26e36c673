import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { FakeSlack } from '../support/fake-slack/index.js';
import { CHANNEL } from '../support/relay-harness.js';
import { relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

/** More runs than the queue syncs at once, so some are still waiting for a turn at SIGTERM. */
const RUNS = 12;

/** Generous for a slow machine; a relay that waits out the Slack client's retries takes longer. */
const EXIT_WITHIN_MS = 20_000;

const attempts = (slack: FakeSlack) =>
  slack.calls.filter((c) => c.method === 'chat.postMessage').length;

describe('a relay stopped with SIGTERM while Slack is down', () => {
  const fx = relayProcessPerTest('o7-stop-outage-');

  const start = () => {
    fx.relay = spawnRelayFor(fx.slack, fx.root, { logLevel: 'info' });
    return fx.relay;
  };

  test('exits promptly, says which runs it left, and posts each of them once at the next start', async () => {
    fx.slack.failNext('chat.postMessage', { status: 503 }, 100_000);
    for (let i = 0; i < RUNS; i += 1) {
      await writeQuestionFile(path.join(fx.root, 'runs', `run-${i}`), 1, sampleBatch(1));
    }
    const first = start();
    await first.waitForLog('relay ready');
    // every sync slot is inside the Slack client's retries of a 503
    await waitFor(() => attempts(fx.slack) >= 8 || undefined, 'posts under way');

    first.child.kill('SIGTERM');
    const exit = await waitFor(
      () => (first.child.exitCode === null ? undefined : first.exited),
      'the relay to exit after SIGTERM',
      EXIT_WITHIN_MS,
    );
    assert.deepEqual(await exit, { code: 0, signal: null });
    const left = first.logs.find((l) =>
      String(l.msg).startsWith('stopping while these runs still wait on Slack'),
    );
    assert.ok(left, `no log of the runs left behind; logs: ${first.stdout().slice(-2000)}`);
    const runs = left.runs as string[];
    assert.ok(runs.length >= 1 && runs.length <= RUNS, `runs left: ${runs.length}`);
    for (const run of runs) assert.match(run, /run-\d+$/);
    assert.ok(first.logs.some((l) => l.msg === 'stopped'));
    assert.equal(fx.slack.messages(CHANNEL).length, 0);

    fx.slack.clearFailures('chat.postMessage');
    const second = start();
    await second.waitForLog('relay ready');
    await waitFor(
      () => fx.slack.messages(CHANNEL).length >= RUNS || undefined,
      `${RUNS} batches posted after the restart`,
    );
    const texts = fx.slack.messages(CHANNEL).map((m) => m.text ?? '');
    for (let i = 0; i < RUNS; i += 1) {
      assert.equal(
        texts.filter((t) => t.includes(`run-${i},`) || t.includes(`run-${i} `)).length,
        1,
        `run-${i} posted once: ${texts.join(' | ')}`,
      );
    }
  });
});
