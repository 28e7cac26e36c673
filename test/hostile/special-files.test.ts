// Files in a run's qa/ folder that are not what they seem: a FIFO (a plain read blocks for
// ever), a symlink to /dev/zero (never ends), a 50 MB file, and a hard link to a file outside
// the run (O_NOFOLLOW does not see it; its first token used to be quoted into Slack). The
// relay, `check` and `preview` read through one guarded reader, so each is refused with the
// same words everywhere and nothing of the file reaches Slack.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { link, mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCheck } from '../../src/cli/check-command.js';
import { runPreview } from '../../src/cli/preview-command.js';
import { E2E_MODE, headerOf, healthyRelayPerTest } from '../e2e/relay-steps.js';
import { channelMessages, type Harness, visibleText } from '../support/relay-harness.js';
import { sampleBatch } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const SECRET = 'xoxb-0000-token-outside-the-run';

/** Each case: how to put the file in place, and the reason it is refused. */
const CASES: {
  run: string;
  make: (file: string, root: string) => Promise<void>;
  reason: string;
}[] = [
  {
    run: 'run-fifo',
    make: async (file) => {
      execFileSync('mkfifo', [file]);
    },
    reason: 'not a regular file (a FIFO)',
  },
  {
    run: 'run-dev-zero',
    make: (file) => symlink('/dev/zero', file),
    reason: 'a symbolic link; the relay reads only regular files',
  },
  {
    run: 'run-50-mb',
    make: async (file) => {
      await writeFile(file, JSON.stringify(sampleBatch(1)));
      await truncate(file, 50 * 1024 * 1024);
    },
    reason: `too large: ${50 * 1024 * 1024} bytes, at most 4 MiB`,
  },
  {
    run: 'run-hard-link',
    make: async (file, root) => {
      const outside = path.join(root, 'secrets.env');
      await writeFile(outside, `SLACK_BOT_TOKEN=${SECRET}\n`);
      await link(outside, file);
    },
    reason:
      'a hard link (2 names share its content); the relay reads only files with one name, so that no file elsewhere can be shown through it',
  },
];

/** What `check` prints for one file, as one text. */
async function checkOutput(file: string): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await runCheck([file], { out: () => undefined, err: (l) => lines.push(l) });
  return { code, text: lines.join('\n') };
}

/** What `preview` prints on stderr for one file, as one text. */
async function previewOutput(file: string): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await runPreview(file, { out: () => undefined, err: (l) => lines.push(l) });
  return { code, text: lines.join('\n') };
}

const messageOf = (h: Harness, run: string) =>
  waitFor(
    () => channelMessages(h.slack).find((m) => headerOf(m.blocks) === `Run ${run} · batch 1`),
    `the message of ${run}`,
  );

const mode = E2E_MODE;
describe(`files in qa/ that are not plain files (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('are refused with the same reason by the relay, check and preview', {
    timeout: 120_000,
  }, async () => {
    for (const c of CASES) {
      const qa = path.join(h.runDir(c.run), 'qa');
      await mkdir(qa, { recursive: true });
      await c.make(path.join(qa, 'q-out-001.json'), h.root);
    }
    for (const c of CASES) {
      const file = path.join(h.runDir(c.run), 'qa', 'q-out-001.json');
      const problem = [
        `${file}: 1 problem`,
        `  - at (whole file): the relay will not read it: ${c.reason}`,
      ];
      // the same words everywhere; only what to do next is each reader's own
      const endingWith = (fix: string) => [...problem, fix].join('\n');
      const expected = endingWith('Fix the file and save it again; the relay re-reads it.');
      const message = await messageOf(h, c.run);
      assert.equal(message.text, `Run ${c.run}, batch 1: q-out-001.json could not be read`);
      assert.ok(visibleText(message).includes(expected), `${c.run}: ${visibleText(message)}`);
      const checked = { code: 1, text: endingWith('Fix the file, then check it again.') };
      assert.deepEqual(await checkOutput(file), checked, c.run);
      const previewed = { code: 1, text: endingWith('Fix the file, then preview it again.') };
      assert.deepEqual(await previewOutput(file), previewed, c.run);
    }
    const everything = JSON.stringify(h.slack.calls);
    assert.equal(everything.includes(SECRET), false, 'nothing of the linked file reached Slack');
  });
});
