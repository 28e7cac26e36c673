// Question ids that are special on plain objects (`__proto__`, `constructor`, `toString`,
// `hasOwnProperty`): a draft for `__proto__` used to be dropped (assigning it replaces an
// object's prototype), so Submit never wrote the answer file. Every record keyed by question
// id now has no prototype; such a batch is answered like any other, across a restart too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  answerFile,
  choose,
  E2E_MODE,
  healthyRelayPerTest,
  postBatch,
  pressSubmit,
  pressYesNo,
  waitForAnswered,
  waitForSelection,
  writeFreeText,
} from '../e2e/relay-steps.js';

const RUN = 'run-special-ids';
const QUESTIONS = [
  { id: '__proto__', type: 'choose-many', prompt: 'Which targets?', options: ['web', 'ios'] },
  {
    id: 'constructor',
    type: 'choose-one',
    prompt: 'Which constructor?',
    options: ['new', 'factory'],
  },
  { id: 'toString', type: 'free-write', prompt: 'How should it print?' },
  { id: 'hasOwnProperty', type: 'yes-no', prompt: 'Own it?' },
] as const;

const mode = E2E_MODE;
describe(`question ids that plain objects treat specially (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('are drafted, kept across a restart, and answered exactly', async () => {
    const { ts } = await postBatch(h, RUN, { seq: 1, questions: [...QUESTIONS] });
    await choose(h.slack, ts, 0, ['0', '1']);
    await h.restart();
    await waitForSelection(h.slack, ts, 0, ['0', '1']);
    await choose(h.slack, ts, 1, ['1']);
    await writeFreeText(h.slack, ts, 2, '[object Object] is not it');
    await pressYesNo(h.slack, ts, 3, false);
    await pressSubmit(h.slack, ts);
    await waitForAnswered(h.slack, ts);

    assert.deepEqual(await answerFile(h.runDir(RUN)), {
      seq: 1,
      answers: [
        { ...QUESTIONS[0], options: ['web', 'ios'], answer: ['web', 'ios'] },
        { ...QUESTIONS[1], options: ['new', 'factory'], answer: 'factory' },
        { ...QUESTIONS[2], answer: '[object Object] is not it' },
        { ...QUESTIONS[3], answer: false },
      ],
      questions: QUESTIONS,
    });
  });
});
