// File names the protocol does not define but that look like it (`q-out-0001.json`,
// `q-out-000.json`, a number past 2^53, upper case) were ignored without a word, and the agent
// that wrote one waited for ever. The relay now names them in one log warning and one Slack
// notice per run, says what each should be called, and does not repeat itself: not at the
// next event, not after a restart. A name that goes away and comes back is told again.
import assert from 'node:assert/strict';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCheck } from '../../src/cli/check-command.js';
import { PROTOCOL_NAMES_RULE } from '../../src/core/protocol/questions/look-alike-names.js';
import { E2E_MODE, postBatch, relayPerTest } from '../e2e/relay-steps.js';
import { channelMessages, type Harness } from '../support/relay-harness.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const RUN = 'run-odd-names';
const ODD: [string, string][] = [
  ['q-out-0001.json', 'if it is batch 1, rename it to q-out-001.json'],
  ['q-out-000.json', 'batch numbers start at 001'],
  ['Q-OUT-002.json', 'if it is batch 2, rename it to q-out-002.json'],
  [
    'q-out-99999999999999999999.json',
    'its number is past 9,007,199,254,740,991, the largest batch number that can be counted exactly',
  ],
];

/** The notices posted about a run, as their full text. */
const noticesOf = (h: Harness, run: string) =>
  channelMessages(h.slack)
    .filter((m) => m.text.startsWith(`Run ${run}: `))
    .map((m) => m.blocks.map((b) => (b as { text?: { text?: string } }).text?.text).join(''));

function noticeText(h: Harness, run: string, files: [string, string][]) {
  const qa = path.join(h.runDir(run), 'qa');
  const many = files.length > 1;
  return [
    `Run ${run}: ${many ? `${files.length} files` : '1 file'} in ${qa} ${many ? 'look' : 'looks'} like Q&amp;A files but ${many ? 'are' : 'is'} not, so the relay ignores ${many ? 'them' : 'it'} and an agent waiting for an answer would wait for ever.`,
    ...files.map(([name, fix]) => `• ${name}: ${fix}.`),
    `${PROTOCOL_NAMES_RULE.replace('&', '&amp;')}.`,
  ].join('\n');
}

const mode = E2E_MODE;
describe(`file names that look like Q&A files but are not (${mode} mode)`, () => {
  const h = relayPerTest({ healthy: true, captureLog: 'warn' });
  const warnings = () =>
    h.logged.filter((l) => l.msg === 'files in qa/ look like Q&A files but are not; ignoring them');

  test('get one warning and one notice per run, kept across a restart', {
    timeout: 60_000,
  }, async () => {
    const run = h.runDir(RUN);
    const qa = path.join(run, 'qa');
    await postBatch(h, RUN, sampleBatch(1));
    for (const [name] of ODD) await writeFile(path.join(qa, name), '{}');
    await waitFor(() => noticesOf(h, RUN).length > 0, 'the notice');
    // more events in the run (a new batch file, the odd files touched) say nothing more
    for (const [name] of ODD) await writeFile(path.join(qa, name), '{"seq": 1}');
    await writeQuestionFile(run, 2, sampleBatch(2));
    await h.restart();
    await postBatch(h, 'run-other', sampleBatch(1)); // the restarted relay is at work
    await writeQuestionFile(run, 3, sampleBatch(3));
    const sorted = [...ODD].sort(([a], [b]) => a.localeCompare(b));
    assert.deepEqual(noticesOf(h, RUN), [noticeText(h, RUN, sorted)]);
    assert.equal(warnings().length, 1);
    assert.deepEqual(
      warnings()[0]?.files,
      sorted.map(([name, fix]) => ({ name, fix })),
    );

    // check says the same about each of them
    const err: string[] = [];
    assert.equal(await runCheck([run], { out: () => undefined, err: (l) => err.push(l) }), 1);
    for (const [name, fix] of ODD) {
      const line = `${path.join(qa, name)}: not a Q&A file name, so the relay ignores it: ${fix}. ${PROTOCOL_NAMES_RULE}.`;
      assert.ok(err.includes(line), err.join('\n'));
    }

    // a new one is told on its own; one that went away and came back is told again
    await rename(path.join(qa, 'q-out-0001.json'), path.join(qa, 'x.txt'));
    await writeFile(path.join(qa, 'q-answers-0002.json'), '{}');
    await waitFor(() => noticesOf(h, RUN).length === 2, 'the second notice');
    const second = [['q-answers-0002.json', 'if it is batch 2, rename it to q-answers-002.json']];
    assert.equal(noticesOf(h, RUN)[1], noticeText(h, RUN, second as [string, string][]));
    await rename(path.join(qa, 'x.txt'), path.join(qa, 'q-out-0001.json'));
    await waitFor(() => noticesOf(h, RUN).length === 3, 'the notice of the name that came back');
    assert.equal(noticesOf(h, RUN)[2], noticeText(h, RUN, [ODD[0] as [string, string]]));
  });
});
