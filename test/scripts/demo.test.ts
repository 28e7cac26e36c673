import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { QUESTION_RULE } from '../../scripts/demo/message-text.js';
import { collectOutput } from '../support/child-output.js';
import { REPO } from '../support/project-paths.js';
import { makeTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

/** Runs `body` with a fresh temp folder for the demo's own, removed afterwards whatever happens. */
async function inDemoTemp(body: (tmp: string) => Promise<void>): Promise<void> {
  const { dir, cleanup } = await makeTempDir('o7-demo-test-');
  try {
    await body(dir);
  } finally {
    await cleanup();
  }
}

/**
 * `npm run demo` as a person runs it, in its own process group (as a terminal would put it,
 * so Ctrl-C reaches npm and the demo alike), with its temp folders made in `tmp`.
 */
function runDemo(tmp: string, args: string[] = []) {
  const child = spawn('npm', ['run', '--silent', 'demo', ...(args.length ? ['--', ...args] : [])], {
    cwd: REPO,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = collectOutput(child);
  // npm ends itself by the same signal when its script was interrupted, which a shell reports
  // as 128 + the signal's number, like the demo's own exit code
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code, signal) => resolve(signal === 'SIGINT' ? 130 : code)),
  );
  return {
    ...output,
    exited,
    /** Ctrl-C: SIGINT to the whole process group. */
    interrupt: () => process.kill(-(child.pid as number), 'SIGINT'),
  };
}

/**
 * What is in the test's temp folder, but for tsx's compile cache (`tsx-<uid>`), which tsx
 * keeps there on purpose for the next run.
 */
const leftovers = async (tmp: string) =>
  (await readdir(tmp)).filter((name) => !/^tsx-\d+$/.test(name));

/** The lines printed after the first one starting with `start`. */
function section(out: string, start: string): string[] {
  const lines = out.split('\n');
  const from = lines.findIndex((line) => line.startsWith(start));
  assert.ok(from >= 0, `the output has "${start}"`);
  return lines.slice(from + 1);
}

describe('npm run demo', () => {
  test('posts the example batch, answers it through the stand-in, prints the answer file, leaves nothing behind', () =>
    inDemoTemp(async (tmp) => {
      const demo = runDemo(tmp);
      assert.equal(await demo.exited, 0, `exit 0 (stderr: ${demo.err()})`);
      const out = demo.out();
      assert.equal(demo.err(), '', 'no warnings or errors');

      const posted = section(out, 'The relay posted this');
      const shown = posted.slice(
        0,
        posted.findIndex((line) => line.startsWith('alice answers')),
      );
      for (const line of [
        'Run release-plan · batch 1',
        '1. Which format should the weekly report be written in?',
        '( ) Markdown',
        'Weekly report (draft)',
        '• 42 builds, 3 failed',
        '2. Which platforms should the release pipeline build?',
        '[ ] Android',
        'commit --> test --+--> web',
        '3. Anything the agent should know before it starts?',
        '[ Write answer ]',
        '4. Start the release pipeline when the plan is done?',
        '[ Yes ]  [ No ]',
      ]) {
        assert.ok(
          shown.some((shownLine) => shownLine.trim() === line),
          `the posted message shows "${line}"`,
        );
      }
      // question 2's preview is set off from question 1's options
      const trimmed = shown.map((line) => line.trim());
      const between = trimmed.slice(trimmed.indexOf('( ) HTML'), trimmed.indexOf('```'));
      assert.ok(between.includes(QUESTION_RULE), between.join('\n'));
      assert.doesNotMatch(shown.join('\n'), /\*\d+\.\*|\*\*/, 'no mrkdwn or Markdown marks');
      assert.match(out, /^ {7}\(•\) CSV$/m, 'the pick shows on the message');
      assert.match(out, /^ {7}\[ ✓ Yes \] {2}\[ No \]$/m);

      // the answer file, as printed, is the example answer file byte for byte
      const printed = section(out, 'The relay wrote');
      const end = printed.findIndex((line, i) => i > 0 && line === '');
      const answerText = `${printed
        .slice(1, end)
        .map((line) => line.slice(4))
        .join('\n')}\n`;
      const expected = await readFile(
        path.join(REPO, 'examples', 'release-plan', 'qa', 'q-answers-001.json'),
        'utf8',
      );
      assert.equal(answerText, expected);
      const answers = (JSON.parse(answerText) as { answers: { answer: unknown }[] }).answers;
      assert.deepEqual(
        answers.map((a) => a.answer),
        [
          'CSV',
          ['web', 'Android'],
          "Keep last week's report until the new one has been checked.",
          true,
        ],
      );
      // the final message: who answered and when, in this machine's time zone
      const final = section(out, 'The message now reads:');
      assert.ok(
        final.some((line) =>
          /^ {4}Answered by @alice (today|yesterday) at \d{1,2}:\d\d [AP]M$/.test(line),
        ),
        final.join('\n'),
      );
      // the Block Kit Builder link, one long line, comes last
      const lines = out.trimEnd().split('\n');
      assert.equal(
        lines.at(-1),
        'Done: the relay and the stand-in are stopped, the temp folder is removed.',
      );
      assert.match(lines.at(-3) ?? '', /^https:\/\/app\.slack\.com\/block-kit-builder\/#%7B/);
      assert.match(lines.at(-4) ?? '', /Block Kit Builder/);
      assert.doesNotMatch(out, /xox[a-z]-|xapp-/, 'no token is printed');
      assert.deepEqual(await leftovers(tmp), [], 'no temp folder left behind');
    }));

  test('Ctrl-C in the middle stops the relay and the stand-in and removes the temp folder', () =>
    inDemoTemp(async (tmp) => {
      // a long pause before each click holds the demo at a known point: the batch is posted
      const demo = runDemo(tmp, ['--pause', '10m']);
      await waitFor(() => demo.out().includes('click by click'), 'the batch posted');
      assert.equal((await leftovers(tmp)).length, 1, 'the demo is using its temp folder');
      demo.interrupt();
      assert.equal(await demo.exited, 130, `exit 130 (stderr: ${demo.err()})`);
      assert.match(demo.err(), /SIGINT: stopping/);
      assert.match(demo.err(), /Stopped; the temp folder is removed/);
      assert.doesNotMatch(demo.out(), /The relay wrote/);
      assert.deepEqual(await leftovers(tmp), [], 'no temp folder left behind');
    }));

  test('a bad option exits 2 with the usage', () =>
    inDemoTemp(async (tmp) => {
      const demo = runDemo(tmp, ['--pause', 'soon']);
      assert.equal(await demo.exited, 2);
      assert.match(demo.err(), /--pause expects a duration, .*found "soon"/);
      assert.match(demo.err(), /Usage: npm run demo/);
      assert.deepEqual(await leftovers(tmp), []);
    }));
});
