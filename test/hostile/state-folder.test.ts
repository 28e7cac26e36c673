// Things in RELAY_STATE_DIR the relay did not put there. A FIFO read with readFile blocks for
// ever, so one among the run files used to hang the start; a lock file that is a folder or a
// dangling symlink ended in a stack trace. Now run files are read like agents' files (moved
// aside when they are not plain files), and a lock in the way stops the start with one line
// that says what is wrong and what to do.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pino } from 'pino';
import { LOCK_FILE_NAME } from '../../src/store/state-dir-lock.js';
import { E2E_MODE, postBatch } from '../e2e/relay-steps.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { startRelayHarness } from '../support/relay-harness.js';
import { spawnRelayFor } from '../support/spawn-relay.js';
import { makeTempDir, sampleBatch } from '../support/temp-dir.js';

const mode = E2E_MODE;
describe(`a FIFO and a symlink to /dev/zero among the state files (${mode} mode)`, () => {
  test('are moved aside and the relay starts and works', { timeout: 60_000 }, async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const h = await startRelayHarness(mode, { log });
    try {
      const runs = path.join(h.config.stateDir, 'runs');
      await h.restart(async () => {
        execFileSync('mkfifo', [path.join(runs, 'fifo.jsonl')]);
        await symlink('/dev/zero', path.join(runs, 'zero.json'));
      });
      const left = (await readdir(runs)).sort();
      assert.equal(left.length, 2);
      assert.match(left[0] as string, /^fifo\.jsonl\.corrupt-/);
      assert.match(left[1] as string, /^zero\.json\.corrupt-/);
      const warned = lines.filter((l) => String(l.msg).startsWith('state file is corrupt'));
      assert.deepEqual(warned.map((l) => [path.basename(String(l.path)), l.problem]).sort(), [
        ['fifo.jsonl', 'not a regular file (a FIFO)'],
        ['zero.json', 'a symbolic link; the relay reads only regular files'],
      ]);
      await postBatch(h, 'run-after', sampleBatch(1));
    } finally {
      await h.stop();
    }
  });
});

describe('a lock file the relay did not make', () => {
  let slack: FakeSlack;
  let root: string;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    slack = await startFakeSlack();
    ({ dir: root, cleanup } = await makeTempDir('o7-lock-'));
    await mkdir(path.join(root, 'runs'), { recursive: true });
    await mkdir(path.join(root, 'state'), { recursive: true });
  });

  afterEach(async () => {
    await slack.close();
    await cleanup();
  });

  const lock = () => path.join(root, 'state', LOCK_FILE_NAME);

  const cases: [string, () => Promise<void>, string][] = [
    ['a folder', () => mkdir(lock()), 'not a regular file (a folder)'],
    [
      'a dangling symlink',
      () => symlink(path.join(root, 'nowhere'), lock()),
      'a symbolic link; the relay reads only regular files',
    ],
    [
      'a FIFO',
      async () => {
        execFileSync('mkfifo', [lock()]);
      },
      'not a regular file (a FIFO)',
    ],
  ];

  test('naming pid 1, alive but no relay, is taken over with one log line', {
    timeout: 60_000,
    skip: process.platform !== 'linux' && !process.env.CI && 'needs /proc',
  }, async () => {
    await writeFile(lock(), '1\n');
    const relay = spawnRelayFor(slack, root, { logLevel: 'info' });
    try {
      await relay.waitForLog('relay ready');
      const pid = relay.child.pid;
      assert.equal(await readFile(lock(), 'utf8'), `${pid}\n`);
      const lines = relay.logs.filter((l) => /lock/.test(String(l.msg)));
      assert.equal(lines.length, 1, JSON.stringify(lines));
      assert.equal(lines[0]?.msg, 'taking over a stale relay lock');
      assert.equal(lines[0]?.stalePid, 1);
      assert.equal(lines[0]?.path, lock());
      assert.match(String(lines[0]?.reason), /^pid 1 (\(.+\) )?is not a relay/);
    } finally {
      await relay.kill();
    }
  });

  for (const [what, make, reason] of cases) {
    test(`stops the start with one clear line when it is ${what}`, {
      timeout: 60_000,
    }, async () => {
      await make();
      const relay = spawnRelayFor(slack, root);
      const { code } = await relay.exited;
      assert.equal(code, 1);
      assert.equal(
        relay.stderr(),
        `${lock()} is in the way of the relay's lock: ${reason}. The lock is a small file the relay creates itself; move this one away (or fix its permissions), then start the relay again.\n`,
      );
    });
  }
});
