import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ACTION_KINDS, FREE_WRITE_INPUT } from '../../src/core/slack/controls/ids.js';
import {
  ALICE,
  CHANNEL,
  channelMessages,
  elementsOf,
  findElement,
  visibleText,
} from '../support/relay-harness.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { at, E2E_MODE, expectAnswerFile, relayPerTest } from './relay-steps.js';

const mode = E2E_MODE;
describe(`answering a batch end to end (${mode} mode)`, () => {
  const h = relayPerTest();

  test('a mixed batch of every type is answered and submitted', async () => {
    const run = h.runDir('run-mixed');
    const batch = sampleBatch(1);
    await writeQuestionFile(run, 1, batch);
    const posted = await waitFor(() => channelMessages(h.slack)[0], 'batch message');
    assert.match(posted.text, /^Run run-mixed, batch 1: Output format\?/);
    const ts = posted.ts;
    const current = () => h.slack.message(CHANNEL, ts);
    const blocks = () => current()?.blocks ?? [];

    const choose = findElement(blocks(), ACTION_KINDS.choose);
    assert.equal(choose.type, 'radio_buttons');
    const r1 = await h.slack.selectOption({ ...at(ts, choose), value: '1' });
    assert.equal(r1.acked, true);
    const many = findElement(blocks(), ACTION_KINDS.chooseMany);
    assert.equal(many.type, 'checkboxes');
    await h.slack.selectOptions({ ...at(ts, many), values: ['2', '0'] });
    const yes = elementsOf(blocks()).find(
      (e) => e.actionId.startsWith(ACTION_KINDS.yesNo) && e.element.value === 'yes',
    );
    assert.ok(yes);
    await h.slack.clickButton(at(ts, yes));

    const write = findElement(blocks(), ACTION_KINDS.freeWrite);
    await h.slack.clickButton(at(ts, write));
    const modal = await waitFor(() => h.slack.views(ALICE)[0], 'free-write modal');
    await h.slack.submitView({
      viewId: String(modal.id),
      user: ALICE,
      values: {
        [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: 'Ship <b>it</b> & log' },
      },
    });
    await waitFor(
      () => visibleText(current() as never).includes('Ship &lt;b&gt;it&lt;/b&gt; &amp; log'),
      'free text shown',
    );

    const submit = findElement(blocks(), ACTION_KINDS.submit);
    await h.slack.clickButton(at(ts, submit));
    await expectAnswerFile(run, batch, {
      format: 'CSV',
      targets: ['web', 'android'],
      notes: 'Ship <b>it</b> & log',
      go: true,
    });

    const final = await waitFor(() => {
      const m = current();
      return m && elementsOf(m.blocks).length === 0 ? m : undefined;
    }, 'final message without controls');
    const seen = visibleText(final);
    assert.match(seen, new RegExp(`<@${ALICE}>`));
    assert.match(seen, /CSV/);
    assert.match(seen, /web, android|web.*android/s);
    assert.deepEqual(h.slack.failures, []);
  });

  test('submit with an answer missing writes nothing and tells the person which question', async () => {
    const run = h.runDir('run-missing');
    await writeQuestionFile(run, 1, sampleBatch(1));
    const posted = await waitFor(() => channelMessages(h.slack)[0], 'batch message');
    const submit = findElement(posted.blocks, ACTION_KINDS.submit);
    await h.slack.clickButton(at(posted.ts, submit));
    const notice = await waitFor(() => h.slack.ephemerals(ALICE)[0], 'ephemeral notice');
    assert.match(notice.text, /Output format\?/);
    assert.deepEqual(await readdir(path.join(run, 'qa')), ['q-out-001.json']);
  });
});
