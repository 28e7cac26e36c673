import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';

/**
 * One temp folder for a test file, made before its tests and removed after them; call it at
 * the top of the file. What it returns makes a fresh folder inside it at each call.
 */
export function tempRootForFile(prefix: string): (name?: string) => Promise<string> {
  let root: string | undefined;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), prefix));
  });
  after(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });
  return (name = 'dir-') => {
    if (!root) throw new Error('tempRootForFile: a folder was asked for before the tests began');
    return mkdtemp(path.join(root, name));
  };
}
