// Any q-out could say `"source": "agent-open-questions"` and get envelope behaviour: a Cancel
// button that ends the batch with a cancel record and never an answer file, so the agent that
// wrote it waits for ever. Only batches the relay wrote itself (`ask`'s folders in
// RELAY_STATE_DIR/asks) are envelope batches; anywhere else the claim changes nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { envelopeToBatch } from '../../src/core/envelope/envelope-to-batch.js';
import { findEnvelope } from '../../src/core/envelope/find-envelope.js';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { jsonBlock, rateLimitQuestion, reposQuestion } from '../core/envelope/envelope-samples.js';
import {
  answerFile,
  choose,
  current,
  E2E_MODE,
  healthyRelayPerTest,
  postBatch,
  pressSubmit,
  waitForAnswered,
} from '../e2e/relay-steps.js';
import { elementsOf } from '../support/relay-harness.js';

const RUN = 'run-claims-envelope';

/** Exactly what `ask` would write for two envelope questions. */
function envelopeFile() {
  const scan = findEnvelope(jsonBlock({ openQuestions: [rateLimitQuestion, reposQuestion] }));
  assert.ok(scan.kind === 'envelope');
  return envelopeToBatch(scan.envelope);
}

const mode = E2E_MODE;
describe(`a q-out in a run folder claiming the envelope source (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('is shown and answered as an ordinary batch: no Cancel, an answer file', async () => {
    const batch = envelopeFile();
    const { ts } = await postBatch(h, RUN, batch);
    const actions = elementsOf(current(h.slack, ts).blocks).map((e) => e.actionId);
    assert.equal(actions.includes(ACTION_KINDS.cancel), false, 'no Cancel button');
    assert.equal(
      actions.some((id) => id.startsWith(ACTION_KINDS.followUp)),
      false,
    );

    // "Other…" would ask for typed text in an envelope batch; here it is just an option
    const other = (batch.questions[1]?.options.length ?? 0) - 1;
    await choose(h.slack, ts, 0, ['0']);
    await choose(h.slack, ts, 1, [String(other)]);
    await pressSubmit(h.slack, ts);
    await waitForAnswered(h.slack, ts);
    const written = (await answerFile(h.runDir(RUN))) as Record<string, unknown>;
    assert.deepEqual(Object.keys(written), ['seq', 'answers', 'questions']);
    assert.deepEqual(written.questions, batch.questions, 'every field echoed as written');
  });
});
