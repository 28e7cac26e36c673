import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseAnswerFile } from '../core/protocol/parse-answer-file.js';
import { parseQuestionFile } from '../core/protocol/parse-question-file.js';
import { formatProtocolError, type ProtocolError } from '../core/protocol/protocol-error.js';
import {
  parseQaFileName,
  type QaFileName,
  questionFileName,
} from '../core/protocol/qa-file-names.js';
import type { QuestionBatch } from '../core/protocol/question.js';

type Io = { out: (line: string) => void; err: (line: string) => void };

const EXPECTED_NAMES = 'q-out-NNN.json or q-answers-NNN.json (e.g. q-out-001.json)';
const WHAT_TO_PASS = `pass a ${EXPECTED_NAMES} file, a qa/ folder, a run folder or a runs folder`;

async function kindOf(path: string): Promise<'file' | 'folder' | 'missing'> {
  try {
    return (await stat(path)).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}

const bySeqThenQuestionFirst = (a: QaFileName, b: QaFileName): number =>
  a.seq - b.seq || (a.kind === b.kind ? 0 : a.kind === 'question' ? -1 : 1);

type QaFile = { path: string; name: QaFileName };

async function protocolFilesIn(folder: string): Promise<QaFile[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const files = entries.flatMap((entry) => {
    const name = parseQaFileName(entry.name);
    return name && !entry.isDirectory() ? [{ name, path: join(folder, entry.name) }] : [];
  });
  return files.sort((a, b) => bySeqThenQuestionFirst(a.name, b.name));
}

const mayBeFolder = (entry: Dirent): boolean => entry.isDirectory() || entry.isSymbolicLink();

/** The folder itself, its `qa/`, and `<sub>/qa/` of each subfolder: a qa, run or runs folder. */
async function qaFoldersUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const candidates = [
    join(folder, 'qa'),
    ...entries
      .filter((entry) => mayBeFolder(entry) && entry.name !== 'qa')
      .map((entry) => entry.name)
      .sort()
      .map((name) => join(folder, name, 'qa')),
  ];
  const found = [folder];
  for (const candidate of candidates) {
    if ((await kindOf(candidate)) === 'folder') found.push(candidate);
  }
  return found;
}

async function filesUnder(folder: string): Promise<QaFile[] | { error: string }> {
  try {
    return (await Promise.all((await qaFoldersUnder(folder)).map(protocolFilesIn))).flat();
  } catch (caught) {
    return { error: caught instanceof Error ? caught.message : String(caught) };
  }
}

async function readText(path: string): Promise<{ text: string } | { error: ProtocolError }> {
  try {
    return { text: await readFile(path, 'utf8') };
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    const message = `cannot read the file (${reason}); check that it exists and is readable`;
    return { error: { file: path, problems: [{ path: '', message }] } };
  }
}

// An answer is checked against its questions only when they parse; a broken q-out file
// gets its own report.
async function siblingBatch(answerPath: string, seq: number): Promise<QuestionBatch | undefined> {
  const path = join(dirname(answerPath), questionFileName(seq));
  if ((await kindOf(path)) !== 'file') return undefined;
  const read = await readText(path);
  if ('error' in read) return undefined;
  const parsed = parseQuestionFile(read.text, path);
  return parsed.ok ? parsed.value : undefined;
}

async function problemsOf(path: string, name: QaFileName): Promise<ProtocolError | undefined> {
  const read = await readText(path);
  if ('error' in read) return read.error;
  const parsed =
    name.kind === 'question'
      ? parseQuestionFile(read.text, path)
      : parseAnswerFile(read.text, path, await siblingBatch(path, name.seq));
  return parsed.ok ? undefined : parsed.error;
}

/**
 * `o7-slack-relay check <path>…`: validates Q&A files, each path a file or a qa, run or runs
 * folder. Prints `ok  <path>` per valid file and every problem of the others.
 * Returns 0 when all are valid, 1 when any is not or there were none to check, 2 when a path
 * does not exist.
 */
export async function runCheck(paths: string[], io: Io): Promise<number> {
  let missing = false;
  let valid = 0;
  let invalid = 0;
  const seen = new Set<string>();
  const check = async ({ path, name }: QaFile): Promise<void> => {
    if (seen.has(resolve(path))) return;
    seen.add(resolve(path));
    const error = await problemsOf(path, name);
    if (error === undefined) {
      valid += 1;
      io.out(`ok  ${path}`);
      return;
    }
    invalid += 1;
    for (const line of formatProtocolError(error).split('\n')) io.err(line);
  };

  for (const path of paths) {
    const kind = await kindOf(path);
    if (kind === 'missing') {
      missing = true;
      io.err(`${path}: no such file or folder; ${WHAT_TO_PASS}`);
    } else if (kind === 'file') {
      const name = parseQaFileName(basename(path));
      if (name) await check({ path, name });
      else {
        invalid += 1;
        io.err(`${path}: not a Q&A protocol file; expected a name like ${EXPECTED_NAMES}`);
      }
    } else {
      const files = await filesUnder(path);
      if ('error' in files) {
        invalid += 1;
        io.err(`${path}: cannot list the folder (${files.error}); check its permissions`);
        continue;
      }
      if (files.length === 0) {
        io.out(`${path}: no Q&A files in it, in its qa/ folder or in <subfolder>/qa/`);
      }
      for (const file of files) await check(file);
    }
  }
  if (valid + invalid > 0) {
    const total = valid + invalid;
    io.out(
      `checked ${total} ${total === 1 ? 'file' : 'files'}: ${valid} ok, ${invalid} with problems`,
    );
  }
  if (missing) return 2;
  if (valid + invalid === 0) {
    io.err(`found no Q&A files to check; ${WHAT_TO_PASS}`);
    return 1;
  }
  return invalid > 0 ? 1 : 0;
}
