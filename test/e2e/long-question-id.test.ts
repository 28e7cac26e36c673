// Free-write modal with a long question id: modalMetadata leaves an id too long for
// private_metadata out (the index stands in), but the submission handler required the id, so
// such an answer could never be saved.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BLOCK_KIT_LIMITS } from '../../src/core/slack/block-kit-limits.js';
import { CALLBACK_IDS, FREE_WRITE_INPUT } from '../../src/core/slack/ids.js';
import { ALICE } from '../support/relay-harness.js';
import { waitFor } from '../support/temp-dir.js';
import {
  answerFile,
  answerYesNo,
  click,
  healthyRelayPerTest,
  MODES,
  postBatch,
  submit,
  waitForAnswered,
} from './relay-session.js';

const RUN = 'run-long-id';
const LONG_ID = `q-${'x'.repeat(2988)}`;

for (const mode of MODES) {
  describe(`a question id too long for modal metadata (${mode} mode)`, () => {
    const h = healthyRelayPerTest(mode);

    test('free-write modal with a ~2990-character question id saves the answer', async () => {
      const batch = {
        seq: 1,
        questions: [
          { id: LONG_ID, type: 'free-write', prompt: 'Release notes?' },
          { id: 'ship', type: 'yes-no', prompt: 'Ship it?' },
        ],
      };
      const { ts } = await postBatch(h, RUN, batch);
      await click(h, ts, 'o7.free-write:0');
      const modal = await waitFor(
        () => h.slack.views(ALICE).find((v) => v.callback_id === CALLBACK_IDS.freeWrite),
        'the free-write modal',
      );
      const metadata = JSON.parse(String(modal.private_metadata)) as Record<string, unknown>;
      assert.equal(
        metadata.questionId,
        undefined,
        'the id does not fit, so only the index is kept',
      );
      assert.equal(metadata.questionIndex, 0);
      assert.ok(String(modal.private_metadata).length <= BLOCK_KIT_LIMITS.privateMetadata);

      const result = await h.slack.submitView({
        viewId: String(modal.id),
        user: ALICE,
        values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: 'All fixed.' } },
      });
      assert.equal(result.acked, true);
      assert.deepEqual(h.slack.views(ALICE), [], 'the modal closed without an error');
      await answerYesNo(h, ts, 1, true);
      await submit(h, ts);
      await waitForAnswered(h, ts);
      const answers = (await answerFile(h.runDir(RUN))) as {
        answers: { id: string; answer: unknown }[];
      };
      const saved = answers.answers.find((a) => a.id === LONG_ID);
      assert.equal(saved?.answer, 'All fixed.');
      assert.deepEqual(h.slack.ephemerals(ALICE), []);
    });
  });
}
