import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ACTION_KINDS, FREE_WRITE_INPUT } from '../../src/core/slack/controls/ids.js';
import type { FakeSlack } from '../support/fake-slack/index.js';
import { BOB, CHANNEL, elementsOf, findElement } from '../support/relay-harness.js';
import { relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { answerFile, at } from './relay-steps.js';

/** Successful chat.postMessage calls, i.e. messages people would see appear. */
const posts = (slack: FakeSlack) =>
  slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' && (c.response as { ok?: boolean } | undefined)?.ok === true,
  ).length;

describe('a relay process killed with SIGKILL and started again', () => {
  const fx = relayProcessPerTest('o7-restart-');

  const start = () => {
    fx.relay = spawnRelayFor(fx.slack, fx.root);
    return fx.relay;
  };

  test('posts nothing twice, keeps partial answers, and picks up batches written while down', async () => {
    const run = path.join(fx.root, 'runs', 'run-a');
    await writeQuestionFile(run, 1, sampleBatch(1));
    let proc = start();
    await proc.waitForLog('relay ready');
    const message = await waitFor(() => fx.slack.messages(CHANNEL)[0], 'batch posted');
    const ts = message.ts;
    const blocks = () => fx.slack.message(CHANNEL, ts)?.blocks ?? [];

    // Alice makes two choices; both are stored before the message is updated.
    const choose = findElement(blocks(), ACTION_KINDS.choose);
    await fx.slack.selectOption({ ...at(ts, choose), value: '1' });
    const yes = elementsOf(blocks()).find(
      (e) => e.actionId.startsWith(ACTION_KINDS.yesNo) && e.element.value === 'no',
    );
    assert.ok(yes);
    await fx.slack.clickButton(at(ts, yes));
    await waitFor(
      () => fx.slack.calls.filter((c) => c.method === 'chat.update').length >= 2,
      'both choices shown',
    );
    await proc.kill('SIGKILL');

    // While it is down: a second run asks its first batch.
    const other = path.join(fx.root, 'runs', 'run-b');
    await writeQuestionFile(other, 1, sampleBatch(1));

    proc = start();
    await proc.waitForLog('relay ready');
    await waitFor(() => fx.slack.messages(CHANNEL).length === 2, 'batch of run-b posted');
    assert.equal(posts(fx.slack), 2, 'run-a was not posted again');

    // Bob (whose Slack client holds no selections) finishes run-a: Alice's choices come from the store.
    const many = findElement(blocks(), ACTION_KINDS.chooseMany);
    await fx.slack.selectOptions({ ...at(ts, many, BOB), values: ['1'] });
    // (an update count would not do: a restart may re-send what a kill left unrecorded)
    await waitFor(() => {
      const chosen = findElement(blocks(), ACTION_KINDS.chooseMany).element.initial_options;
      return Array.isArray(chosen) && chosen.length === 1;
    }, 'choice shown');
    await proc.kill('SIGKILL');

    proc = start();
    await proc.waitForLog('relay ready');
    const write = findElement(blocks(), ACTION_KINDS.freeWrite);
    await fx.slack.clickButton(at(ts, write, BOB));
    const modal = await waitFor(() => fx.slack.views(BOB)[0], 'free-write modal');
    await fx.slack.submitView({
      viewId: String(modal.id),
      user: BOB,
      values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: 'after two crashes' } },
    });
    await waitFor(() => JSON.stringify(blocks()).includes('after two crashes'), 'text shown');
    const submit = findElement(blocks(), ACTION_KINDS.submit);
    await fx.slack.clickButton(at(ts, submit, BOB));

    const answers = await answerFile(run);
    assert.deepEqual(
      (answers.answers as { answer: unknown }[]).map((a) => a.answer),
      ['CSV', ['ios'], 'after two crashes', false],
    );
    await waitFor(() => elementsOf(blocks()).length === 0, 'final message');

    // One more crash after answering: nothing is re-posted or re-written on the next start.
    await proc.kill('SIGKILL');
    const before = await readFile(path.join(run, 'qa', 'q-answers-001.json'), 'utf8');
    proc = start();
    await proc.waitForLog('relay ready');
    await writeQuestionFile(run, 2, sampleBatch(2));
    await waitFor(() => fx.slack.messages(CHANNEL).length === 3, 'batch 2 posted');
    assert.equal(posts(fx.slack), 3);
    assert.equal(await readFile(path.join(run, 'qa', 'q-answers-001.json'), 'utf8'), before);
    assert.deepEqual(fx.slack.failures, []);
  });
});
