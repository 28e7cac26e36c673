import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A fresh temp folder; remove it with `cleanup`. */
export async function makeTempDir(prefix = 'o7-relay-'): Promise<{
  dir: string;
  cleanup: () => Promise<void>;
}> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Writes a protocol file into `<runDir>/qa/` as a temp file (`.<name><tempSuffix>`) renamed
 * into place, the way agents and other tools publish them; returns its path.
 */
export async function writeQaFile(
  runDir: string,
  name: string,
  text: string,
  tempSuffix = '.tmp',
): Promise<string> {
  const qa = path.join(runDir, 'qa');
  await mkdir(qa, { recursive: true });
  const temp = path.join(qa, `.${name}${tempSuffix}`);
  await writeFile(temp, text);
  await rename(temp, path.join(qa, name));
  return path.join(qa, name);
}

/** Writes a q-out file into `<runDir>/qa/` the way agents do: a temp file renamed into place. */
export function writeQuestionFile(runDir: string, seq: number, content: unknown): Promise<string> {
  const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2);
  return writeQaFile(runDir, `q-out-${String(seq).padStart(3, '0')}.json`, text);
}

/** A small valid batch with one question of each type. */
export function sampleBatch(seq: number, extra: Record<string, unknown> = {}) {
  return {
    seq,
    questions: [
      { id: 'format', type: 'choose-one', prompt: 'Output format?', options: ['JSON', 'CSV'] },
      {
        id: 'targets',
        type: 'choose-many',
        prompt: 'Targets?',
        options: ['web', 'ios', 'android'],
      },
      { id: 'notes', type: 'free-write', prompt: 'Anything else?' },
      { id: 'go', type: 'yes-no', prompt: 'Proceed?' },
    ],
    ...extra,
  };
}
