import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS, FREE_WRITE_INPUT } from '../../src/core/slack/controls/ids.js';
import { ALICE } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import {
  click,
  E2E_MODE,
  expectAnswerFile,
  healthyRelayPerTest,
  mrkdwnTexts,
  nextEphemeral,
  postBatch,
  pressSubmit,
  qaFiles,
  thread,
} from './relay-steps.js';

const NOTES = { id: 'notes', type: 'free-write', prompt: 'Anything the agent should know?' };
const RISKS = { id: 'risks', type: 'free-write', prompt: 'Any risks to flag?' };

const mode = E2E_MODE;
describe(`a free-write question left empty (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  /** Opens question `qi`'s form and saves it with `text`, or with the input left empty. */
  async function saveForm(ts: string, qi: number, text?: string): Promise<void> {
    const before = h.slack.views(ALICE).length;
    await click(h.slack, ts, `${ACTION_KINDS.freeWrite}:${qi}`);
    const modal = await waitFor(() => h.slack.views(ALICE)[before], 'the free-write modal');
    const values: Record<string, Record<string, unknown>> = text === undefined
      ? {}
      : { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: text } };
    const result = await h.slack.submitView({ viewId: String(modal.id), user: ALICE, values });
    assert.equal(result.acked, true);
  }

  const shownEmpty = (ts: string, count: number) =>
    waitFor(() => {
      const texts = thread(h.slack, ts).flatMap((m) => mrkdwnTexts(m.blocks));
      const empty = texts.filter((t) => t.startsWith('*Your answer so far:*\n>(left empty)'));
      return empty.length === count;
    }, `${count} question(s) shown as left empty`);

  test('is an answer once its form is saved empty (or with only blanks); never opened, it holds Submit back', async () => {
    const batch = { seq: 1, questions: [NOTES, RISKS] };
    const run = h.runDir('run-empty');
    const { ts } = await postBatch(h, 'run-empty', batch);

    await saveForm(ts, 0);
    await shownEmpty(ts, 1);
    await pressSubmit(h.slack, ts);
    const told = await nextEphemeral(h.slack, ALICE, 0);
    assert.match(String(told.text), /Question 2 \("Any risks to flag\?"\) still needs an answer\./);
    assert.deepEqual(await qaFiles(run), ['q-out-001.json']);

    await saveForm(ts, 1, ' \n\t ');
    await shownEmpty(ts, 2);
    await pressSubmit(h.slack, ts);
    await expectAnswerFile(run, batch, { notes: '', risks: '' });
    await waitFor(() => {
      const texts = thread(h.slack, ts).flatMap((m) => mrkdwnTexts(m.blocks));
      return texts.filter((t) => t === '*Answer:*\n>(left empty)').length === 2;
    }, 'the answered message showing both answers as left empty');
  });
});
