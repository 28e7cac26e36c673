// Clicks on a batch that is already answered, on every kind of element the relay renders:
// nothing changes, and the person is told privately why.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import type { FakeSlack } from '../support/fake-slack/index.js';
import {
  ALICE,
  CHANNEL,
  type FoundElement,
  findElement,
  visibleText,
} from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import {
  answerEveryControl,
  at,
  batchElements,
  E2E_MODE,
  EVERY_CONTROL_BATCH,
  expectBatchOneAnswerKept,
  expectedAnswerFile,
  holdMessageUpdates,
  nextEphemeral,
  pressSubmit,
  publishRun,
  readAnswerFile,
  relayPerTest,
  waitForAnswerFile,
  waitForBatchMessage,
  waitForClosed,
} from './relay-steps.js';

const ONE_TAP = { seq: 2, questions: [{ id: 'deploy', type: 'yes-no', prompt: 'Deploy now?' }] };

/** Acts on one element the way a person would: picks for selects, a press for buttons. */
async function actOn(slack: FakeSlack, e: FoundElement & { ts: string }): Promise<void> {
  const target = at(e.ts, e);
  switch (e.type) {
    case 'button':
      await slack.clickButton(target);
      return;
    case 'radio_buttons':
    case 'static_select':
      await slack.selectOption({ ...target, value: '0' });
      return;
    case 'checkboxes':
    case 'multi_static_select':
      await slack.selectOptions({ ...target, values: ['0'] });
      return;
    case 'external_select': {
      const offered = await slack.suggest({ ...target, value: '' });
      await slack.selectOption({ ...target, value: String(offered.options[0]?.value) });
      return;
    }
    case 'multi_external_select': {
      const offered = await slack.suggest({ ...target, value: '' });
      await slack.selectOptions({ ...target, values: [String(offered.options[0]?.value)] });
      return;
    }
    default:
      throw new Error(`no way to act on a ${e.type}`);
  }
}

const mode = E2E_MODE;
describe(`clicks on an answered batch (${mode} mode)`, () => {
  const h = relayPerTest();

  test('every element kind, and one-tap buttons: nothing changes and an ephemeral says it is answered', async () => {
    const run = h.runDir('run-kinds');
    await publishRun(run, {
      'q-out-001.json': EVERY_CONTROL_BATCH,
      'q-out-002.json': ONE_TAP,
    });
    const top = await waitForBatchMessage(h.slack, 'run-kinds', 1);
    const batch = await waitFor(() => {
      const [m] = h.slack.messages(CHANNEL);
      return m && m.replies.length === 2 && m;
    }, 'the batch continued in two thread replies');
    const [textReply, lastReply] = batch.replies.map((r) => r.ts) as [string, string];
    const kinds = batchElements(h.slack, batch).map((e) => e.type);
    for (const kind of [
      'radio_buttons',
      'checkboxes',
      'static_select',
      'multi_static_select',
      'external_select',
      'multi_external_select',
      'button',
    ]) {
      assert.ok(kinds.includes(kind), `the batch has a ${kind}`);
    }
    const actionKinds = batchElements(h.slack, batch).map((e) => e.actionId.split(':')[0]);
    for (const kind of [
      ACTION_KINDS.showPreview,
      ACTION_KINDS.showOptions,
      ACTION_KINDS.freeWrite,
      ACTION_KINDS.submit,
    ]) {
      assert.ok(actionKinds.includes(kind), `the batch has ${kind}`);
    }

    const expected = await answerEveryControl(
      h.slack,
      top.ts,
      { text: textReply, last: lastReply },
      'Line one\nline <two> & more',
    );

    const hold = holdMessageUpdates(h.slack);
    await pressSubmit(h.slack, lastReply);
    assert.equal(await waitForAnswerFile(run, 1), expected);
    await hold.waitRefused();

    // Slack has not taken the final edit yet: people still see every control of batch 1,
    // the team controls (I'm on it, Hand off) included.
    const stale = batchElements(h.slack, batch);
    assert.equal(stale.length, 15);
    let seen = h.slack.ephemerals(ALICE).length;
    for (const element of stale) {
      await actOn(h.slack, element);
      const notice = await nextEphemeral(h.slack, ALICE, seen++);
      assert.match(
        notice.text,
        /already answered; nothing was changed/,
        `${element.actionId} (${element.type})`,
      );
    }
    assert.deepEqual(h.slack.views(ALICE), [], 'no modal opens on an answered batch');
    await expectBatchOneAnswerKept(run, expected);

    await hold.release();
    const final = await waitForClosed(h.slack, top.ts, 'batch 1 final');
    for (const reply of [textReply, lastReply]) {
      await waitForClosed(h.slack, reply, `reply ${reply} final`);
    }
    const shown = visibleText(final);
    assert.match(shown, new RegExp(`Answered by <@${ALICE}>`));
    assert.match(shown, />b\n/, 'the answers given, not the later clicks');
    assert.match(shown, />Colour 5/);

    // Batch 2 is one yes-no question: a tap answers it; taps after that are refused.
    const tap = await waitForBatchMessage(h.slack, 'run-kinds', 2);
    const yes = findElement(tap.blocks, actionId(ACTION_KINDS.oneTap, 0, 'yes'));
    const no = findElement(tap.blocks, actionId(ACTION_KINDS.oneTap, 0, 'no'));
    const holdTap = holdMessageUpdates(h.slack);
    await h.slack.clickButton(at(tap.ts, yes));
    const oneTapAnswers = expectedAnswerFile(ONE_TAP, { deploy: true });
    assert.equal(await waitForAnswerFile(run, 2), oneTapAnswers);
    await holdTap.waitRefused();
    for (const button of [no, yes]) {
      await h.slack.clickButton(at(tap.ts, button));
      const notice = await nextEphemeral(h.slack, ALICE, seen++);
      assert.match(notice.text, /already answered; nothing was changed/);
    }
    assert.equal(await readAnswerFile(run, 2), oneTapAnswers);
    await holdTap.release();
    const tapped = await waitForClosed(h.slack, tap.ts, 'batch 2 final');
    assert.match(visibleText(tapped), /\*Answer:\*\n>Yes/);
    assert.deepEqual(h.slack.failures, []);
  });
});
