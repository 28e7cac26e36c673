import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Harness } from '../support/relay-harness.js';
import {
  batchOfMany,
  E2E_MODE,
  postBatch,
  pressYesNo,
  relayStarter,
  thread,
} from './relay-steps.js';

const RUN = 'run-long';

/** 40 yes/no questions: too many blocks for one message, so the batch spans a thread. */
const LONG_BATCH = batchOfMany(40, 'yes-no', (n) => `Step ${n} looks right?`);

const mode = E2E_MODE;
describe(`a batch spanning several messages (${mode} mode)`, () => {
  let h: Harness;
  const startRelay = relayStarter();

  test('one answer edits only the message that shows it, not every message of the batch', async () => {
    h = await startRelay();
    const posted = await postBatch(h, RUN, LONG_BATCH);
    const messages = await (async () => {
      for (;;) {
        const all = thread(h.slack, posted.ts);
        if (all.length > 1) return all;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    assert.ok(messages.length >= 2, 'the batch spans a thread');
    const updates = () => h.slack.calls.filter((c) => c.method === 'chat.update');
    const before = updates().length;
    await pressYesNo(h.slack, posted.ts, 0, true);
    const edits = updates().slice(before);
    assert.equal(edits.length, 1, `one edit, not ${edits.length}`);
    assert.equal(edits[0]?.args.ts, posted.ts, 'the message holding question 1');
    assert.deepEqual(h.slack.failures, []);
  });
});
