import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import { escapeMrkdwn } from '../../src/core/slack/text/escape-mrkdwn.js';
import type { ObservedMessage } from '../support/fake-slack/index.js';
import { ALICE, BOB, elementsOf } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import {
  answerFile,
  at,
  click,
  current,
  E2E_MODE,
  elementById,
  healthyRelayPerTest,
  mrkdwnTexts,
  postBatch,
  pressSubmit,
  qaFiles,
  shownLabel,
  thread,
  waitForAnswered,
  yesNoWithMarkdown,
} from './relay-steps.js';

const RUN = 'run-tap';

type Button = { text: { type: string; text: string }; value: string; action_id: string };

/** Team controls (claim, hand off) sit on every open batch, one-tap or not. */
const TEAM_CONTROLS: readonly string[] = [ACTION_KINDS.claim, ACTION_KINDS.handOff];

/** The answer controls of a message: everything but the team controls. */
const answerControls = (blocks: ObservedMessage['blocks']) =>
  elementsOf(blocks).filter((e) => !TEAM_CONTROLS.includes(e.actionId));

/** The answer buttons of a one-tap message, as label/value pairs. */
function tapButtons(message: ObservedMessage): [string, string][] {
  const found = answerControls(message.blocks);
  assert.ok(
    found.every((e) => e.actionId.startsWith(`${actionId(ACTION_KINDS.oneTap, 0)}:`)),
    `only one-tap buttons: ${found.map((e) => e.actionId).join(', ')}`,
  );
  return found.map((e) => {
    const button = e.element as unknown as Button;
    assert.equal(e.type, 'button');
    return [button.text.text, button.value];
  });
}

const mode = E2E_MODE;
describe(`one-tap batches (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('a single yes-no question is answered by one tap on No, with no Submit button', async () => {
    const batch = { seq: 1, questions: [{ id: 'go', type: 'yes-no', prompt: 'Deploy now?' }] };
    const posted = await postBatch(h, RUN, batch);
    assert.equal(posted.text, `Run ${RUN}, batch 1: Deploy now?`);
    assert.deepEqual(tapButtons(posted), [
      ['Yes', 'yes'],
      ['No', 'no'],
    ]);
    assert.ok(mrkdwnTexts(posted.blocks).includes('*1.* Deploy now?'));

    await click(h.slack, posted.ts, actionId(ACTION_KINDS.oneTap, 0, 'no'));
    assert.deepEqual(await answerFile(h.runDir(RUN)), {
      seq: 1,
      answers: [{ id: 'go', type: 'yes-no', prompt: 'Deploy now?', answer: false }],
      questions: batch.questions,
    });
    const final = await waitForAnswered(h.slack, posted.ts);
    assert.deepEqual(elementsOf(final.blocks), []);
    assert.ok(mrkdwnTexts(final.blocks).includes('*Answer:*\n>No'));
    assert.equal(final.text, `Answered: Run ${RUN}, batch 1: Deploy now?`);
    assert.deepEqual(h.slack.ephemerals(ALICE), []);
  });

  test('a single choose-one question of up to 5 options is answered by tapping an option', async () => {
    const options = ['small', 'medium', 'large', 'x-large', 'Fits & <!here>'];
    const batch = {
      seq: 1,
      questions: [{ id: 'size', type: 'choose-one', prompt: 'Instance size?', options }],
    };
    const posted = await postBatch(h, RUN, batch);
    assert.deepEqual(
      tapButtons(posted),
      options.map((text, i) => [text, String(i)]),
    );
    assert.equal(answerControls(posted.blocks).length, 5, 'no Submit button');

    await click(h.slack, posted.ts, actionId(ACTION_KINDS.oneTap, 0, 4));
    assert.deepEqual(await answerFile(h.runDir(RUN)), {
      seq: 1,
      answers: [
        {
          id: 'size',
          type: 'choose-one',
          prompt: 'Instance size?',
          options,
          answer: 'Fits & <!here>',
        },
      ],
      questions: batch.questions,
    });
    const final = await waitForAnswered(h.slack, posted.ts);
    assert.ok(
      mrkdwnTexts(final.blocks).includes(`*Answer:*\n>${escapeMrkdwn(options[4] as string)}`),
    );
    assert.deepEqual(await qaFiles(h.runDir(RUN)), ['q-answers-001.json', 'q-out-001.json']);
  });

  test('a one-tap question keeps its preview above the buttons', async () => {
    const content = '```\nrm -rf build/\n```';
    const batch = yesNoWithMarkdown('clean', 'Run this?', content);
    const posted = await postBatch(h, RUN, batch);
    const types = posted.blocks.map((b) => b.type);
    // the last actions block holds the team controls
    assert.deepEqual(types, ['header', 'context', 'markdown', 'section', 'actions', 'actions']);
    assert.equal(posted.blocks[2]?.text, content);
    await click(h.slack, posted.ts, actionId(ACTION_KINDS.oneTap, 0, 'yes'));
    assert.deepEqual(await answerFile(h.runDir(RUN)), {
      seq: 1,
      answers: [{ id: 'clean', type: 'yes-no', prompt: 'Run this?', answer: true }],
      questions: batch.questions,
    });
  });

  test('two people tapping at once write one answer file; the later tap is told it was too late', async () => {
    const batch = { seq: 1, questions: [{ id: 'go', type: 'yes-no', prompt: 'Deploy now?' }] };
    const posted = await postBatch(h, RUN, batch);
    const yes = elementById(posted.blocks, actionId(ACTION_KINDS.oneTap, 0, 'yes'));
    const no = elementById(posted.blocks, actionId(ACTION_KINDS.oneTap, 0, 'no'));
    // Both people see the buttons before either tap reaches the relay.
    const [first, second] = await Promise.all([
      h.slack.clickButton(at(posted.ts, yes, ALICE)),
      h.slack.clickButton(at(posted.ts, no, BOB)),
    ]);
    assert.equal(first.acked, true);
    assert.equal(second.acked, true);

    const written = (await answerFile(h.runDir(RUN))) as { answers: { answer: boolean }[] };
    const winner = written.answers[0]?.answer === true ? ALICE : BOB;
    const loser = winner === ALICE ? BOB : ALICE;
    const notice = await waitFor(() => h.slack.ephemerals(loser)[0], 'the late tap notice');
    assert.equal(notice.text, 'This batch is already answered; nothing was changed.');
    assert.deepEqual(h.slack.ephemerals(winner), []);
    assert.deepEqual(await qaFiles(h.runDir(RUN)), ['q-answers-001.json', 'q-out-001.json']);

    const final = await waitFor(() => {
      const m = current(h.slack, posted.ts);
      return elementsOf(m.blocks).length === 0 ? m : undefined;
    }, 'the answered message');
    assert.ok(mrkdwnTexts(final.blocks).some((t) => t.startsWith(`Answered by <@${winner}>`)));
  });

  test('six options, or an option too long for a button, fall back to a control and Submit', async () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'];
    const long = ['keep', `replace it with ${'a much longer description '.repeat(3)}`];
    const batch = {
      seq: 1,
      questions: [{ id: 'six', type: 'choose-one', prompt: 'Six?', options: six }],
    };
    const posted = await postBatch(h, RUN, batch);
    assert.deepEqual(
      answerControls(posted.blocks).map((e) => [e.actionId, e.type]),
      [
        [actionId(ACTION_KINDS.choose, 0), 'radio_buttons'],
        [ACTION_KINDS.submit, 'button'],
      ],
    );
    await h.slack.selectOption({
      ...at(posted.ts, elementById(posted.blocks, actionId(ACTION_KINDS.choose, 0))),
      value: '5',
    });
    await waitFor(
      () =>
        (
          elementById(current(h.slack, posted.ts).blocks, actionId(ACTION_KINDS.choose, 0)).element
            .initial_option as { value: string } | undefined
        )?.value === '5',
      'the pick shown',
    );
    await pressSubmit(h.slack, posted.ts);
    assert.deepEqual(await answerFile(h.runDir(RUN)), {
      seq: 1,
      answers: [{ id: 'six', type: 'choose-one', prompt: 'Six?', options: six, answer: 'f' }],
      questions: batch.questions,
    });

    const second = {
      seq: 2,
      questions: [{ id: 'long', type: 'choose-one', prompt: 'Long?', options: long }],
    };
    const next = await postBatch(h, RUN, second);
    const radio = elementById(next.blocks, actionId(ACTION_KINDS.choose, 0));
    assert.equal(radio.type, 'radio_buttons');
    assert.deepEqual(
      (radio.element.options as { text: { text: string } }[]).map((o) => o.text.text),
      long.map(shownLabel),
    );
    assert.ok(elementsOf(next.blocks).some((e) => e.actionId === ACTION_KINDS.submit));
    assert.equal(thread(h.slack, next.ts).length, 1);
  });
});
