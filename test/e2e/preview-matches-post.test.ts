import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../cli/run-cli.js';
import { repoFile } from '../support/project-paths.js';
import type { Harness } from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { E2E_MODE, healthyRelayPerTest } from './relay-steps.js';

/** What `o7-slack-relay preview` prints for a file: the messages, as JSON. */
async function preview(file: string, cwd: string): Promise<{ text: string; blocks: unknown[] }[]> {
  const result = await runCli(['preview', file], {}, cwd);
  assert.equal(result.code, 0, result.err);
  return JSON.parse(result.out);
}

/** The messages the relay posted (channel message, then its thread replies), once `count` are. */
function posted(h: Harness, count: number) {
  return waitFor(() => {
    const posts = h.slack.calls.filter((call) => call.method === 'chat.postMessage');
    if (posts.length < count) return undefined;
    return posts.map((call) => ({ text: call.args.text, blocks: call.args.blocks }));
  }, `${count} messages posted`);
}

/** Question `i` of a batch too long for one message, with options and previews. */
const longQuestion = (i: number) => ({
  id: `q${i + 1}`,
  type: i % 2 === 0 ? 'choose-many' : 'free-write',
  prompt: `Question ${i + 1}: what should step ${i + 1} of the migration do? ${'Context. '.repeat(20)}`,
  ...(i % 2 === 0 ? { options: Array.from({ length: 8 }, (_, k) => `choice ${k + 1}`) } : {}),
  preview: { type: 'markdown', content: `**Step ${i + 1}**\n\n${'- a line\n'.repeat(30)}` },
});

const mode = E2E_MODE;
describe(`preview prints what the relay posts (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test("the example batch: the same text and blocks, Submit, I'm on it and Hand off included", async () => {
    const text = await readFile(repoFile('examples/release-plan/qa/q-out-001.json'), 'utf8');
    const file = await writeQuestionFile(h.runDir('run-example'), 1, text);
    const shown = await preview(file, h.root);
    assert.deepEqual(await posted(h, shown.length), shown);
    const buttons = JSON.stringify(shown.at(-1)?.blocks.at(-1));
    for (const label of ['Submit', "I'm on it", 'Hand off']) {
      assert.ok(buttons.includes(`"text":"${label}"`), `${label} in ${buttons}`);
    }
  });

  test('a batch too long for one message: the channel message and every thread reply', async () => {
    const batch = { seq: 1, questions: Array.from({ length: 24 }, (_, i) => longQuestion(i)) };
    const file = await writeQuestionFile(h.runDir('run-long'), 1, batch);
    const shown = await preview(file, h.root);
    assert.ok(shown.length >= 2, `${shown.length} message(s)`);
    assert.deepEqual(await posted(h, shown.length), shown);
  });

  test('a batch after a gap in the run: the note the relay adds', async () => {
    const run = h.runDir('run-gap');
    const file = await writeQuestionFile(run, 3, {
      seq: 3,
      questions: [{ id: 'go', type: 'yes-no', prompt: 'Go on?' }],
    });
    const shown = await preview(path.relative(h.root, file), h.root);
    assert.match(JSON.stringify(shown), /Batch 1, 2 has no question or answer file/);
    assert.deepEqual(await posted(h, shown.length), shown);
  });
});
