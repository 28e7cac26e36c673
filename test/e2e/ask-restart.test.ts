import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { jsonBlock, rateLimitQuestion, reposQuestion } from '../core/envelope/envelope-samples.js';
import { BOB } from '../support/relay-harness.js';
import { type RelayProcess, relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';
import { exitCodeOf, spawnAsk } from './ask-process.js';
import { askMessage, choose, click, saveFollowUp, waitForText } from './relay-steps.js';

describe('ask across a relay crash', () => {
  const fx = relayProcessPerTest('o7-ask-restart-', () => ask?.kill());
  let ask: RelayProcess | undefined;

  const stateDir = () => path.join(fx.root, 'state');

  const start = () => {
    fx.relay = spawnRelayFor(fx.slack, fx.root);
    return fx.relay;
  };

  test('follow-up text typed before a SIGKILL is kept and reaches the agent', async () => {
    let proc = start();
    await proc.waitForLog('relay ready');
    const message = jsonBlock({ openQuestions: [reposQuestion, rateLimitQuestion] });
    ask = spawnAsk(stateDir(), fx.root, message);
    const posted = await askMessage(fx.slack);
    await choose(fx.slack, posted.ts, 0, [1]); // Multi-repo
    await saveFollowUp(fx.slack, 'web: /abs/web');
    await waitForText(fx.slack, posted.ts, 'web: /abs/web');
    await choose(fx.slack, posted.ts, 1, [1]);
    await proc.kill('SIGKILL');

    const runFiles = await readdir(path.join(stateDir(), 'runs'));
    const stored = await Promise.all(
      runFiles.map((name) => readFile(path.join(stateDir(), 'runs', name), 'utf8')),
    );
    assert.ok(
      stored.some((text) => text.includes('"followUps"') && text.includes('web: /abs/web')),
      'the text is in the relay state on disk',
    );

    proc = start();
    await proc.waitForLog('relay ready');
    // Bob's Slack client holds no selections: everything comes from the relay's state.
    await click(fx.slack, posted.ts, ACTION_KINDS.submit, BOB);
    assert.equal(await exitCodeOf(ask), 0, ask.stderr());
    assert.equal(
      ask.stdout(),
      [
        'Repos: Multi-repo',
        '  Follow-up: web: /abs/web',
        'Rate limit: Sliding window per IP',
        '',
      ].join('\n'),
    );
    const posts = fx.slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.response.ok === true,
    );
    assert.equal(posts.length, 1, 'the batch was not posted again');
    assert.deepEqual(fx.slack.failures, []);
  });
});
