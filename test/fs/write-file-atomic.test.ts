import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FileWriteError } from '../../src/fs/file-write-error.js';
import { writeFileAtomic } from '../../src/fs/write-file-atomic.js';
import { tempRootForFile } from '../support/temp-root.js';

const freshDir = tempRootForFile('write-file-atomic-');

describe('writeFileAtomic', () => {
  it('creates and then replaces a file, leaving no temp file', async () => {
    const dir = await freshDir('ok-');
    const path = join(dir, 'state.json');
    await writeFileAtomic(path, '{"v":1}');
    assert.equal(await readFile(path, 'utf8'), '{"v":1}');
    await writeFileAtomic(path, '{"v":2}');
    assert.equal(await readFile(path, 'utf8'), '{"v":2}');
    assert.deepEqual(await readdir(dir), ['state.json']);
  });

  it('keeps every concurrent write whole: the file ends as one of them', async () => {
    const dir = await freshDir('many-');
    const path = join(dir, 'state.json');
    const contents = Array.from({ length: 20 }, (_, i) => JSON.stringify({ i }));
    await Promise.all(contents.map((c) => writeFileAtomic(path, c)));
    assert.ok(contents.includes(await readFile(path, 'utf8')));
    assert.deepEqual(await readdir(dir), ['state.json']);
  });

  it('fails with the path and removes its temp file when the rename fails', async () => {
    const dir = await freshDir('fail-');
    const path = join(dir, 'state.json');
    // A non-empty folder under the target name makes the rename fail after the temp file exists.
    await mkdir(join(path, 'inside'), { recursive: true });
    await assert.rejects(writeFileAtomic(path, '{}'), (error: unknown) => {
      assert.ok(error instanceof FileWriteError);
      assert.equal(error.path, path);
      assert.match(error.message, new RegExp(`Writing ${path} failed`));
      assert.ok(error.cause);
      return true;
    });
    assert.deepEqual(await readdir(dir), ['state.json']);
  });
});
