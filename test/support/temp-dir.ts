import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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

/** Writes a q-out file into `<runDir>/qa/` the way agents do: a temp file renamed into place. */
export async function writeQuestionFile(
  runDir: string,
  seq: number,
  content: unknown,
): Promise<string> {
  const qa = path.join(runDir, 'qa');
  await mkdir(qa, { recursive: true });
  const name = `q-out-${String(seq).padStart(3, '0')}.json`;
  const temp = path.join(qa, `.${name}.tmp`);
  await writeFile(temp, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  const { rename } = await import('node:fs/promises');
  await rename(temp, path.join(qa, name));
  return path.join(qa, name);
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
