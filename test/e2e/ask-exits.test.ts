import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pino } from 'pino';
import { findEnvelope } from '../../src/core/envelope/find-envelope.js';
import { acquireStateDirLock, LOCK_FILE_NAME } from '../../src/store/state-dir-lock.js';
import { jsonBlock, rateLimitQuestion } from '../core/envelope/envelope-samples.js';
import { spawnRelay } from '../support/spawn-relay.js';
import { makeTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { askDir, exitCodeOf, spawnAsk } from './ask-process.js';
import { qaFiles } from './relay-steps.js';

const MALFORMED = [
  'Two questions for you.',
  '```json\n{"openQuestions": [{"question": "Which?", "header": "Pick", "options": [{"description": "no label"}]}]}\n```',
].join('\n\n');

const VALID = jsonBlock({ openQuestions: [rateLimitQuestion] });

/** The pid of a process that has exited: a relay that crashed and left its lock behind. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('ask without a relay, or with nothing to ask', () => {
  let root: string;
  let stateDir: string;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir('o7-ask-'));
    stateDir = path.join(root, 'state');
  });
  afterEach(async () => {
    await cleanup();
  });

  test('a message without an envelope exits 3 and says there is nothing to ask', async () => {
    const ask = spawnAsk(stateDir, root, `All done.\n\n${jsonBlock({ summary: 'ok' })}`);
    assert.equal(await exitCodeOf(ask), 3);
    assert.equal(ask.stdout(), '');
    assert.match(ask.stderr(), /^No open questions: /);
  });

  test('a malformed envelope exits 4 with exactly the correction message on stderr', async () => {
    const file = path.join(root, 'final-message.md');
    await writeFile(file, MALFORMED);
    const ask = spawnRelay(['ask', file], { env: { RELAY_STATE_DIR: stateDir }, cwd: root });
    assert.equal(await exitCodeOf(ask), 4);
    const scan = findEnvelope(MALFORMED);
    assert.ok(scan.kind === 'malformed');
    assert.equal(ask.stderr(), `${scan.error}\n`);
    assert.equal(ask.stdout(), '');
    await assert.rejects(readdir(stateDir), /ENOENT/, 'nothing was handed over');
  });

  test('on the second attempt a malformed envelope is recorded, never over an earlier record', async () => {
    const args = ['--second-attempt', '--plan', '2026-05-01-rate-limits', '--phase', 'design'];
    const first = spawnAsk(stateDir, root, MALFORMED, args);
    assert.equal(await exitCodeOf(first), 8, first.stderr());
    const relative = path.join('docs', 'plans', '2026-05-01-rate-limits', 'dispatch-failure.md');
    assert.equal(first.stdout(), `${relative}\n`);
    assert.match(first.stderr(), /phase "design" is halted/);
    const record = await readFile(path.join(root, relative), 'utf8');
    assert.match(record, /^---\nphase: design\nstatus: parse-failed\nfailed_at: \S+\n---\n/);
    assert.ok(record.includes('no label'), 'the raw message is kept');
    const scan = findEnvelope(MALFORMED);
    assert.ok(scan.kind === 'malformed' && record.includes(scan.error), 'the parse error is kept');

    const second = spawnAsk(stateDir, root, MALFORMED, args);
    assert.equal(await exitCodeOf(second), 8, second.stderr());
    const numbered = path.join(path.dirname(relative), 'dispatch-failure-2.md');
    assert.equal(second.stdout(), `${numbered}\n`);
    assert.equal(await readFile(path.join(root, relative), 'utf8'), record, 'first record kept');
  });

  test('with no relay running it exits 7, says how to start one, and hands nothing over', async () => {
    const ask = spawnAsk(stateDir, root, VALID);
    assert.equal(await exitCodeOf(ask), 7);
    assert.match(ask.stderr(), new RegExp(`No relay is running for ${stateDir}\\.`));
    assert.match(ask.stderr(), /npm start/);
    assert.match(ask.stderr(), /half the clicks/);
    await assert.rejects(readdir(path.join(stateDir, 'asks')), /ENOENT/);

    // A lock left by a relay that crashed does not count as a running relay.
    await mkdir(stateDir, { recursive: true });
    await writeFile(path.join(stateDir, LOCK_FILE_NAME), `${await deadPid()}\n`);
    const again = spawnAsk(stateDir, root, VALID);
    assert.equal(await exitCodeOf(again), 7);
  });

  test('SIGTERM while waiting withdraws the questions and exits 5', async (t) => {
    // This process holds the lock as a relay does, which is all `ask` checks before handing over.
    await mkdir(stateDir, { recursive: true });
    const lock = await acquireStateDirLock(stateDir, pino({ level: 'silent' }));
    t.after(() => lock.release());
    const ask = spawnAsk(stateDir, root, VALID);
    const dir = await askDir(stateDir);
    await waitFor(async () => (await qaFiles(dir)).includes('q-out-001.json'), 'the q-out file');
    await waitFor(() => ask.stderr().includes('waiting for an answer'), 'ask waiting');
    ask.child.kill('SIGTERM');
    assert.equal(await exitCodeOf(ask), 5);
    assert.match(ask.stderr(), /Stopped by SIGTERM; the questions were withdrawn from Slack\./);
    assert.deepEqual(await qaFiles(dir), []);
  });

  test('bad arguments and unreadable files are usage errors (exit 2)', async () => {
    const cases: [string[], RegExp][] = [
      [['--timeout', 'soon'], /--timeout expects a duration/],
      [['--plan', 'x'], /--plan and --phase go with --second-attempt/],
      [['--second-attempt', '--plan', '../x', '--phase', 'design'], /--plan expected a plan id/],
      [[path.join(root, 'missing.md')], /could not read the agent's message/],
    ];
    for (const [args, message] of cases) {
      const ask = spawnAsk(stateDir, root, VALID, args);
      assert.equal(await exitCodeOf(ask), 2, args.join(' '));
      assert.match(ask.stderr(), message);
    }
  });
});
