import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ErrorCode } from '../../src/errors.js';
import { createFolderGuard, FolderRefusedError } from '../../src/fs/folder-guard.js';

describe('the folder guard', () => {
  let dir: string;
  let runs: string;
  let outside: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'folder-guard-'));
    runs = path.join(dir, 'runs');
    outside = path.join(dir, 'outside');
    await mkdir(path.join(runs, 'ok', 'qa'), { recursive: true });
    await mkdir(path.join(outside, 'qa'), { recursive: true });
    await mkdir(path.join(runs, 'qa-link'));
    await symlink(path.join(outside, 'qa'), path.join(runs, 'qa-link', 'qa'));
    await symlink(outside, path.join(runs, 'run-link'));
    await symlink('..', path.join(runs, 'up'));
    await mkdir(path.join(runs, 'inner', 'ok', 'qa'), { recursive: true });
    // a watched path that is itself a link (a "current" link to the real runs folder)
    await symlink(runs, path.join(dir, 'current'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const link = (to: string) =>
    `is a symbolic link to ${to}; the relay follows no link below a watched folder`;

  it('passes real folders, and what is not there yet', async () => {
    const guard = createFolderGuard([runs]);
    for (const folder of ['ok/qa', 'ok', '.', 'qa', 'missing/qa', 'ok/qa/deeper']) {
      assert.equal(await guard.refusal(path.join(runs, folder)), undefined, folder);
    }
  });

  it('refuses a qa/ link, a run folder link and a link to `..`, naming the link', async () => {
    const guard = createFolderGuard([runs]);
    const cases: [string, string, string][] = [
      ['qa-link/qa', 'qa-link/qa', path.join(outside, 'qa')],
      ['run-link/qa', 'run-link', outside],
      ['up/qa', 'up', '..'],
    ];
    for (const [folder, linked, to] of cases) {
      assert.deepEqual(
        await guard.refusal(path.join(runs, folder)),
        { folder: path.join(runs, linked), reason: link(to) },
        folder,
      );
    }
  });

  it('refuses a folder outside every root, `..` in its path or not', async () => {
    const guard = createFolderGuard([runs]);
    for (const folder of [path.join(runs, '..', 'outside', 'qa'), outside, '/tmp']) {
      assert.deepEqual(await guard.refusal(folder), {
        folder: path.resolve(folder),
        reason: 'is not inside any watched folder (RELAY_WATCH)',
      });
    }
  });

  it('trusts the roots themselves, links and all, and uses the deepest root', async () => {
    const viaLink = createFolderGuard([path.join(dir, 'current')]);
    assert.equal(await viaLink.refusal(path.join(dir, 'current', 'ok', 'qa')), undefined);
    assert.ok(await viaLink.refusal(path.join(dir, 'current', 'run-link', 'qa')));
    const nested = createFolderGuard([runs, path.join(runs, 'inner')]);
    assert.equal(await nested.refusal(path.join(runs, 'inner', 'ok', 'qa')), undefined);
  });

  it('refuses a write through a link before anything is written', async () => {
    const guard = createFolderGuard([runs]);
    const file = path.join(runs, 'qa-link', 'qa', 'q-answers-001.json');
    await assert.rejects(guard.assertWritable(file), (error: unknown) => {
      assert.ok(error instanceof FolderRefusedError);
      assert.equal(error.code, ErrorCode.FileWriteFailed);
      assert.equal(error.folder, path.join(runs, 'qa-link', 'qa'));
      assert.equal(
        error.message,
        `Not writing ${file}: ${path.join(runs, 'qa-link', 'qa')} ${link(path.join(outside, 'qa'))}. Make it a real folder inside the watched folder, or watch the folder it points to instead.`,
      );
      return true;
    });
    assert.deepEqual(await readdir(path.join(outside, 'qa')), []);
    await guard.assertWritable(path.join(runs, 'ok', 'qa', 'q-answers-001.json'));
  });
});
