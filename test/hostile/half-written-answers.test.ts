// Another answer provider that writes q-answers-NNN.json in place, bit by bit, instead of
// renaming a finished file into place: the relay read it half-written once and showed "—" for
// every answer, for good. It now reads such a file again until it parses, like a question
// file being written, and then shows its answers; a file that stops changing without ever
// parsing is given up on with the reason, in Slack and the log.
import assert from 'node:assert/strict';
import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  E2E_MODE,
  expectedAnswerFile,
  formatBatch,
  hasNoControls,
  publishRun,
  relayPerTest,
  waitForBatchMessage,
  waitForClosed,
  waitForMessage,
} from '../e2e/relay-steps.js';
import { channelMessages, visibleText } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';

const NOT_WHOLE_YET = "another provider's answer file is not whole yet; reading it again";
const GAVE_UP =
  "another provider's answer file does not follow the protocol; its answers are not shown";

const mode = E2E_MODE;
describe(`an answer file another provider writes in place (${mode} mode)`, () => {
  const h = relayPerTest({ healthy: true, captureLog: 'debug' });
  const warnings = () => h.logged.filter((l) => Number(l.level) >= 40);

  test('is shown with its answers once it is whole', { timeout: 60_000 }, async () => {
    const run = h.runDir('run-slow-writer');
    await publishRun(run, { 'q-out-001.json': formatBatch(1) });
    const message = await waitForBatchMessage(h.slack, 'run-slow-writer', 1);
    const text = expectedAnswerFile(formatBatch(1), { format: 'CSV', go: false });
    const file = path.join(run, 'qa', 'q-answers-001.json');
    const half = Math.floor(text.length / 2);
    await writeFile(file, text.slice(0, half));
    // the relay read the file before it was whole, and waits a second for it to change
    await waitFor(
      () => h.logged.find((l) => l.msg === NOT_WHOLE_YET && l.file === file),
      'the relay seeing the half-written file',
      20_000,
    );
    await appendFile(file, text.slice(half));

    const final = await waitForMessage(
      h.slack,
      message.ts,
      (m) => hasNoControls(m) && visibleText(m).includes('*Answer:*\n>CSV'),
      'the batch answered elsewhere, with its answers',
    );
    const shown = visibleText(final);
    assert.match(shown, /Answered in another tool · /);
    assert.match(shown, /\*Answer:\*\n>No/);
    assert.equal(shown.includes('—'), false, 'no answer is left blank');
    assert.deepEqual(warnings(), [], 'nothing to warn about');
  });

  test('that never parses is given up on with the reason, in Slack and the log', {
    timeout: 60_000,
  }, async () => {
    const run = h.runDir('run-bad-writer');
    await publishRun(run, { 'q-out-001.json': formatBatch(1) });
    const message = await waitForBatchMessage(h.slack, 'run-bad-writer', 1);
    const file = path.join(run, 'qa', 'q-answers-001.json');
    await writeFile(file, '{"seq": 1, "answers": [');

    const notice = await waitFor(
      () =>
        channelMessages(h.slack).find((m) =>
          m.text.startsWith('Run run-bad-writer, batch 1 was answered'),
        ),
      'the notice',
      20_000,
    );
    assert.ok(
      visibleText(notice).includes(
        `${file}: 1 problem\n  - at (whole file): invalid JSON at line 1, column 24: expected a JSON value, found the end of the file`,
      ),
      visibleText(notice),
    );
    await waitForClosed(h.slack, message.ts, 'the batch closed');
    const warned = warnings().filter((l) => l.msg === GAVE_UP);
    assert.equal(warned.length, 1);
    assert.equal(warned[0]?.file, file);
  });
});
