import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, rm, symlink, truncate, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type TestContext, test } from 'node:test';
import {
  PROTOCOL_FILE_MAX_BYTES,
  readGuardedFile,
  readProtocolFile,
} from '../../src/fs/read-protocol-file.js';
import { needs, program } from '../support/preconditions.js';

async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'read-protocol-file-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `content` to `name` in `dir`: the file's path. */
async function written(dir: string, name: string, content: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

/** Fails unless reading `file` is refused for `reason`. */
async function assertRefused(file: string, reason: string): Promise<void> {
  assert.deepEqual(await readProtocolFile(file), { kind: 'refused', reason });
}

test('reads a normal file', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'q-out-001.json');
  await writeFile(file, '{"seq":1}');
  const read = await readProtocolFile(file);
  assert.equal(read.kind, 'ok');
  assert.equal(read.kind === 'ok' && read.bytes.toString('utf8'), '{"seq":1}');
});

test('reads a large file and an empty file', async (t) => {
  const dir = await tempDir(t);
  const big = path.join(dir, 'big.json');
  const content = 'x'.repeat(200_000);
  await writeFile(big, content);
  const read = await readProtocolFile(big);
  assert.equal(read.kind === 'ok' && read.bytes.toString('utf8'), content);
  const empty = path.join(dir, 'empty.json');
  await writeFile(empty, '');
  const none = await readProtocolFile(empty);
  assert.equal(none.kind === 'ok' && none.bytes.length, 0);
});

test('reads all of a file that holds more than its size said when opened', async () => {
  // /proc files report size 0 yet have content: the same as a file that grew after fstat
  const read = await readProtocolFile('/proc/self/status');
  assert.equal(read.kind, 'ok');
  const text = read.kind === 'ok' ? read.bytes.toString('utf8') : '';
  assert.match(text, /^Name:/);
  assert.match(text, /\nPid:\s+\d+\n/);
  assert.ok(text.length > 200, `read ${text.length} bytes`);
});

test('a missing file or a missing folder on the way is missing', async (t) => {
  const dir = await tempDir(t);
  assert.deepEqual(await readProtocolFile(path.join(dir, 'nope.json')), { kind: 'missing' });
  assert.deepEqual(await readProtocolFile(path.join(dir, 'no', 'qa', 'q-out-001.json')), {
    kind: 'missing',
  });
  const file = path.join(dir, 'file');
  await writeFile(file, 'x');
  assert.deepEqual(await readProtocolFile(path.join(file, 'q-out-001.json')), { kind: 'missing' });
});

test('agent-controlled FIFO is refused instead of blocking the relay', {
  ...needs(program('mkfifo', 'install coreutils')),
}, async (t) => {
  const dir = await tempDir(t);
  const fifo = path.join(dir, 'q-out-001.json');
  execFileSync('mkfifo', [fifo]);
  await assertRefused(fifo, 'not a regular file (a FIFO)');
});

test('agent-controlled symlink is refused, even to a readable file', async (t) => {
  const dir = await tempDir(t);
  const link = path.join(dir, 'q-out-001.json');
  await symlink(await written(dir, 'target.json', '{}'), link);
  await assertRefused(link, 'a symbolic link; the relay reads only regular files');
  const dangling = path.join(dir, 'q-out-002.json');
  await symlink(path.join(dir, 'gone.json'), dangling);
  assert.equal((await readProtocolFile(dangling)).kind, 'refused');
});

test('agent-controlled folder with a protocol file name is refused', async (t) => {
  const dir = await tempDir(t);
  const folder = path.join(dir, 'q-out-001.json');
  await mkdir(folder);
  await assertRefused(folder, 'not a regular file (a folder)');
});

test('agent-controlled huge file is refused without reading it', async (t) => {
  const dir = await tempDir(t);
  /** A sparse file: `bytes` long on paper, nothing on disk. */
  const sparse = async (name: string, bytes: number) => {
    const file = await written(dir, name, '');
    await truncate(file, bytes);
    return file;
  };
  const gib = 1024 * 1024 * 1024;
  await assertRefused(
    await sparse('q-out-001.json', gib),
    `too large: ${gib} bytes, at most 4 MiB`,
  );
  const read = await readProtocolFile(await sparse('q-out-002.json', PROTOCOL_FILE_MAX_BYTES));
  assert.equal(read.kind === 'ok' && read.bytes.length, PROTOCOL_FILE_MAX_BYTES);
});

test('a protocol file with a second name (a hard link) is refused without reading it', async (t) => {
  const dir = await tempDir(t);
  const secret = await written(dir, 'outside-the-run.txt', 'token=xoxb-not-for-slack');
  const file = path.join(dir, 'q-out-001.json');
  await link(secret, file);
  await assertRefused(
    file,
    'a hard link (2 names share its content); the relay reads only files with one name, so that no file elsewhere can be shown through it',
  );
  await unlink(secret);
  assert.equal((await readProtocolFile(file)).kind, 'ok', 'once it has one name it is read');
});

test('files of our own may have several names, and have their own size limit', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'relay.lock');
  await writeFile(file, '123\n');
  await link(file, path.join(dir, '.relay.lock.tmp'));
  const read = await readGuardedFile(file, { maxBytes: 10, oneLinkOnly: false });
  assert.equal(read.kind === 'ok' && read.bytes.toString(), '123\n');
  await writeFile(file, 'x'.repeat(11));
  assert.deepEqual(await readGuardedFile(file, { maxBytes: 10, oneLinkOnly: false }), {
    kind: 'refused',
    reason: 'too large: 11 bytes, at most 10 bytes',
  });
});
