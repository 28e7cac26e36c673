import assert from 'node:assert/strict';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pino } from 'pino';
import { askFolder, deliverBatch, newAskId } from '../../src/ask/ask-folder.js';
import { findRunningRelay } from '../../src/ask/find-running-relay.js';
import { writeDispatchFailure } from '../../src/ask/write-dispatch-failure.js';
import { envelopeToBatch } from '../../src/core/envelope/envelope-to-batch.js';
import { findEnvelope } from '../../src/core/envelope/find-envelope.js';
import { acquireStateDirLock } from '../../src/store/state-dir-lock.js';
import { jsonBlock, rateLimitQuestion } from '../core/envelope/envelope-samples.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('ask folders, relay lock and failure records', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir('o7-ask-fs-'));
  });
  afterEach(async () => {
    await cleanup();
  });

  test('ask ids sort by time', () => {
    const early = newAskId(new Date('2026-05-01T09:59:59.999Z'), 'ffffffff');
    const late = newAskId(new Date('2026-05-01T10:00:00.000Z'), '00000000');
    assert.equal(early, '20260501T095959999Z-ffffffff');
    assert.ok(early < late);
  });

  test('the batch is handed over as asks/<id>/qa/q-out-001.json, no temp file left', async () => {
    const scan = findEnvelope(jsonBlock({ openQuestions: [rateLimitQuestion] }));
    assert.ok(scan.kind === 'envelope');
    const folder = askFolder(root, 'ask-1');
    assert.equal(folder.dir, path.join(root, 'asks', 'ask-1'));
    const text = await deliverBatch(folder, envelopeToBatch(scan.envelope));
    assert.equal(await readFile(folder.questionFile, 'utf8'), text);
    assert.deepEqual(await readdir(path.join(folder.dir, 'qa')), ['q-out-001.json']);
    assert.equal(JSON.parse(text).source, 'agent-open-questions');
  });

  test("the folder and file take asks/'s group and permissions, whatever the umask", async () => {
    const scan = findEnvelope(jsonBlock({ openQuestions: [rateLimitQuestion] }));
    assert.ok(scan.kind === 'envelope');
    // as a service's asks/ is (group-writable, setgid), and an asker who shares nothing
    await mkdir(path.join(root, 'asks'));
    await chmod(path.join(root, 'asks'), 0o2770);
    const folder = askFolder(root, 'ask-1');
    const before = process.umask(0o077);
    try {
      await deliverBatch(folder, envelopeToBatch(scan.envelope));
    } finally {
      process.umask(before);
    }
    const modeOf = async (file: string) => (await stat(file)).mode & 0o7777;
    assert.equal(await modeOf(folder.dir), 0o2770);
    assert.equal(await modeOf(path.join(folder.dir, 'qa')), 0o2770);
    assert.equal(await modeOf(folder.questionFile), 0o660, 'no execute or setgid bit on the file');
  });

  test('a relay counts as running only while the pid in its lock is a relay holding it', async () => {
    assert.equal(await findRunningRelay(path.join(root, 'none')), undefined);
    const lock = await acquireStateDirLock(root, pino({ level: 'silent' }));
    assert.equal(await findRunningRelay(root), process.pid);
    await lock.release();
    assert.equal(await findRunningRelay(root), undefined);
    // our pid, but no lock of ours: left by an earlier process with the same pid
    await writeFile(path.join(root, 'relay.lock'), `${process.pid}\n`);
    assert.equal(await findRunningRelay(root), undefined);
    if (process.platform === 'linux') {
      // alive, but no relay: nothing would be signalled
      await writeFile(path.join(root, 'relay.lock'), '1\n');
      assert.equal(await findRunningRelay(root), undefined);
    }
    await writeFile(path.join(root, 'relay.lock'), 'garbage');
    assert.equal(await findRunningRelay(root), undefined);
  });

  test('failure records never overwrite each other', async () => {
    const record = { relativePath: 'docs/plans/p-1/dispatch-failure.md', content: 'first' };
    assert.equal(
      await writeDispatchFailure(root, record),
      path.join('docs/plans/p-1/dispatch-failure.md'),
    );
    assert.equal(
      await writeDispatchFailure(root, { ...record, content: 'second' }),
      path.join('docs/plans/p-1/dispatch-failure-2.md'),
    );
    const dir = path.join(root, 'docs/plans/p-1');
    assert.equal(await readFile(path.join(dir, 'dispatch-failure.md'), 'utf8'), 'first');
    assert.equal(await readFile(path.join(dir, 'dispatch-failure-2.md'), 'utf8'), 'second');
    assert.deepEqual((await readdir(dir)).sort(), ['dispatch-failure-2.md', 'dispatch-failure.md']);
  });
});
