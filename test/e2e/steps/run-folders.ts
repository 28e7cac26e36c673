// What an agent or another tool does in a run folder, and the answer files the relay writes there.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeQaFile } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait.js';

const seqText = (seq: number) => String(seq).padStart(3, '0');
const answerName = (seq: number) => `q-answers-${seqText(seq)}.json`;

/** Every name in a run's `qa/` folder, temp files included, sorted. */
export async function qaNames(runDir: string): Promise<string[]> {
  return (await readdir(path.join(runDir, 'qa'))).sort();
}

/** The protocol files in a run's `qa/` folder (temp files left out), sorted. */
export async function qaFiles(runDir: string): Promise<string[]> {
  return (await qaNames(runDir)).filter((n) => !n.startsWith('.'));
}

/** The bytes of `q-answers-NNN.json`, as text. */
export function readAnswerFile(runDir: string, seq = 1): Promise<string> {
  return readFile(path.join(runDir, 'qa', answerName(seq)), 'utf8');
}

/** Waits until the relay has published `q-answers-NNN.json`; returns its text. */
export function waitForAnswerFile(runDir: string, seq = 1): Promise<string> {
  return waitFor(
    async () => (await qaNames(runDir)).includes(answerName(seq)) && readAnswerFile(runDir, seq),
    `${answerName(seq)} in ${runDir}`,
  );
}

/** Waits for the answer file of `batch` in `runDir` and checks its text against `answers`. */
export async function expectAnswerFile(
  runDir: string,
  batch: { seq: number; questions: readonly Record<string, unknown>[] },
  answers: Record<string, unknown>,
): Promise<void> {
  assert.equal(await waitForAnswerFile(runDir, batch.seq), expectedAnswerFile(batch, answers));
}

/** Checks that clicks on answered batch 1 (of 2) changed no file: its answer `text`, batch 2 open. */
export async function expectBatchOneAnswerKept(runDir: string, text: string, message?: string) {
  assert.equal(await readAnswerFile(runDir, 1), text, message);
  assert.deepEqual(await qaNames(runDir), [
    'q-answers-001.json',
    'q-out-001.json',
    'q-out-002.json',
  ]);
}

/** Waits for `q-answers-NNN.json` of a run and parses it. */
export async function answerFile(runDir: string, seq = 1): Promise<Record<string, unknown>> {
  return JSON.parse(await waitForAnswerFile(runDir, seq));
}

/** Exactly what the relay writes for an answer file (2-space JSON and a final newline). */
function answerFileText(content: unknown): string {
  return `${JSON.stringify(content, null, 2)}\n`;
}

/** The answer file the relay should write: one entry per question, then the questions echoed. */
export function expectedAnswerFile(
  batch: { seq: number; questions: readonly Record<string, unknown>[] },
  answers: Record<string, unknown>,
): string {
  return answerFileText({
    seq: batch.seq,
    answers: batch.questions.map((q) => ({
      id: q.id,
      type: q.type,
      prompt: q.prompt,
      ...('options' in q ? { options: q.options } : {}),
      answer: answers[String(q.id)],
    })),
    questions: batch.questions,
  });
}

/** Publishes a q-answers file the way the terminal UI does: a temp file renamed into place. */
export function writeAnswerFileAsOtherTool(
  runDir: string,
  seq: number,
  content: unknown,
): Promise<string> {
  return writeQaFile(runDir, answerName(seq), answerFileText(content), '.tui-tmp');
}

/**
 * Makes a run folder appear at once with all its files (name → JSON value or raw text): written
 * in a staging folder beside the watched runs folder, then renamed into it, so the relay's first
 * look sees them all.
 */
export async function publishRun(runDir: string, files: Record<string, unknown>): Promise<void> {
  const temp = path.join(path.dirname(path.dirname(runDir)), 'staging', path.basename(runDir));
  await mkdir(path.join(temp, 'qa'), { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2);
    await writeFile(path.join(temp, 'qa', name), text);
  }
  await rename(temp, runDir);
}
