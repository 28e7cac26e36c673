import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createAuditLog, readAuditLog } from '../../src/audit/audit-log.js';
import type { AuditEntry } from '../../src/core/audit/audit-entry.js';
import { runCli } from '../cli/run-cli.js';
import { quietLog } from '../support/log-capture.js';
import { makeTempDir } from '../support/temp-dir.js';

const entry = (n: number, changes: Partial<AuditEntry> = {}): AuditEntry => ({
  at: new Date(Date.now() - (10 - n) * 60_000).toISOString(),
  decision: 'answered',
  run: `/runs/run-${n}`,
  seq: 1,
  key: `k${n}.1`,
  answers: { go: n % 2 === 0 },
  by: n % 2 === 0 ? 'U0ALICE01' : 'U0BOB0001',
  how: 'message',
  relay: 'laptop',
  ...changes,
});

describe('the audit log and `o7-slack-relay audit`', () => {
  test('appended in order, rotated past its size, read back whole with the rotated files', async () => {
    const { dir, cleanup } = await makeTempDir('o7-audit-');
    try {
      const file = path.join(dir, 'audit.jsonl');
      const log = createAuditLog(file, quietLog(), 600);
      for (let n = 1; n <= 8; n += 1) log.append(entry(n));
      await log.flushed();
      const { entries, unreadable } = await readAuditLog(file);
      assert.deepEqual(
        entries.map((e) => e.key),
        ['k1.1', 'k2.1', 'k3.1', 'k4.1', 'k5.1', 'k6.1', 'k7.1', 'k8.1'],
      );
      assert.deepEqual(unreadable, []);
    } finally {
      await cleanup();
    }
  });

  test('the command prints what --user, --run and --since ask for, as lines or JSON, and names bad lines', async () => {
    const { dir, cleanup } = await makeTempDir('o7-audit-');
    try {
      const state = path.join(dir, 'state');
      await mkdir(state);
      const lines = [
        entry(1),
        entry(2, { how: 'approve-all' }),
        entry(3, { at: '2020-01-01T00:00:00.000Z' }),
        entry(4, { how: 'digest', name: 'alice\u001b[2J' }),
      ].map((e) => JSON.stringify(e));
      await writeFile(path.join(state, 'audit.jsonl'), `${lines.join('\n')}\nnot json\n`);
      const env = { RELAY_STATE_DIR: state };
      const alice = await runCli(['audit', '--user', 'U0ALICE01'], env, dir);
      assert.equal(alice.code, 0, alice.err);
      const shown = alice.out.trim().split('\n');
      assert.equal(shown.length, 2);
      assert.match(
        shown[0] ?? '',
        /answered {2}run-2 #1 by U0ALICE01 via approve-all {2}go="Yes" {2}\(laptop\)$/,
      );
      assert.match(
        shown[1] ?? '',
        /run-4 #1 by alice\[2J \(U0ALICE01\) via digest/,
        'the display name, without its control characters',
      );
      assert.match(alice.err, /1 lines are not audit entries and were left out: .*audit\.jsonl:5/);
      const recent = await runCli(['audit', '--since', '1h', '--json'], env, dir);
      assert.deepEqual(
        recent.out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).key),
        ['k1.1', 'k2.1', 'k4.1'],
      );
      const run = await runCli(['audit', '--run', 'run-3'], env, dir);
      assert.match(run.out, /^2020-01-01T00:00:00.000Z {2}answered {2}run-3 #1 by U0BOB0001/);
      const wrong = await runCli(['audit', '--since', 'soon'], env, dir);
      assert.equal(wrong.code, 2);
      assert.match(wrong.err, /--since/);
    } finally {
      await cleanup();
    }
  });
});
