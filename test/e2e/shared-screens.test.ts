import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { ALICE, BOB, CHANNEL, type Harness } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import {
  answerFile,
  at,
  controlOf,
  directCopy,
  E2E_MODE,
  handOffBatch,
  healthyRelayPerTest,
  postBatch,
  pressSubmit,
} from './relay-steps.js';

// Two questions, so the batch is not answered by one tap.
const BATCH = {
  seq: 1,
  questions: [
    { id: 'format', type: 'choose-one', prompt: 'Export format?', options: ['json', 'csv', 'xml'] },
    { id: 'ship', type: 'choose-many', prompt: 'Ship to?', options: ['web', 'android', 'ios'] },
  ],
};

/** The answers written for batch 1 of `run`, as [question id, answer] pairs. */
async function answersOf(h: Harness, run: string): Promise<[string, unknown][]> {
  const written = (await answerFile(h.runDir(run))) as {
    answers: { id: string; answer: unknown }[];
  };
  return written.answers.map((a) => [a.id, a.answer]);
}

type Where = { channel: string; ts: string };

/** What `user`'s Slack client shows as question `index`'s choice in a message now. */
function shownChoice(h: Harness, where: Where, user: string, index: number) {
  const blocks = h.slack.message(where.channel, where.ts)?.blocks ?? [];
  const control = controlOf(blocks, index);
  const value = h.slack.shownValues({ ...where, user })[control.blockId]?.[control.actionId];
  const one = value?.selected_option as { value: string } | null | undefined;
  const many = value?.selected_options as { value: string }[] | undefined;
  return one ? [one.value] : (many ?? []).map((o) => o.value);
}

/** `user` picks option `value` of question `index` in a message, as their client sends it. */
async function pick(h: Harness, where: Where, user: string, index: number, values: string[]) {
  const control = controlOf(h.slack.message(where.channel, where.ts)?.blocks ?? [], index);
  const ref = { ...at(where.ts, control, user), channel: where.channel };
  const result = control.actionId.startsWith(ACTION_KINDS.chooseMany)
    ? await h.slack.selectOptions({ ...ref, values })
    : await h.slack.selectOption({ ...ref, value: values[0] as string });
  assert.equal(result.acked, true);
}

/** Waits until every listed person's screen shows `values` for question `index`. */
const everyoneSees = (
  h: Harness,
  screens: { where: Where; user: string }[],
  index: number,
  values: string[],
) =>
  waitFor(
    () =>
      screens.every(
        ({ where, user }) =>
          JSON.stringify(shownChoice(h, where, user, index)) === JSON.stringify(values),
      ),
    `every screen showing [${values.join(', ')}] for question ${index + 1}`,
  );

const mode = E2E_MODE;
describe(`every screen shows the latest choice (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('two people on one channel message: the later pick is on both screens and in the answer file', async () => {
    const posted = await postBatch(h, 'run-two-people', BATCH);
    const message = { channel: CHANNEL, ts: posted.ts };
    await pick(h, message, ALICE, 0, ['0']); // json
    await pick(h, message, ALICE, 1, ['0']); // web
    await everyoneSees(h, [{ where: message, user: ALICE }], 1, ['0']);

    await pick(h, message, BOB, 0, ['1']); // csv
    const screens = [
      { where: message, user: ALICE },
      { where: message, user: BOB },
    ];
    await everyoneSees(h, screens, 0, ['1']);

    await pressSubmit(h.slack, posted.ts);
    assert.deepEqual(await answersOf(h, 'run-two-people'), [
      ['format', 'csv'],
      ['ship', ['web']],
    ]);
  });

  test('a channel message and its hand-off copy: a pick in the copy reaches the channel screen', async () => {
    const posted = await postBatch(h, 'run-copy', BATCH);
    const message = { channel: CHANNEL, ts: posted.ts };
    await pick(h, message, ALICE, 0, ['0']); // json
    await pick(h, message, ALICE, 1, ['0', '2']); // web, ios
    await handOffBatch(h.slack, { ...message, from: ALICE, to: BOB });
    const copy = await directCopy(h.slack, BOB);
    await everyoneSees(h, [{ where: copy, user: BOB }], 0, ['0']);

    await pick(h, copy, BOB, 0, ['2']); // xml
    await pick(h, copy, BOB, 1, ['1']); // android only
    const screens = [
      { where: message, user: ALICE },
      { where: copy, user: BOB },
    ];
    await everyoneSees(h, screens, 0, ['2']);
    await everyoneSees(h, screens, 1, ['1']);

    await pressSubmit(h.slack, posted.ts);
    assert.deepEqual(await answersOf(h, 'run-copy'), [
      ['format', 'xml'],
      ['ship', ['android']],
    ]);
  });
});
