import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseAnswerFile } from '../core/protocol/answers/parse-answer-file.js';
import {
  formatProtocolError,
  type ProtocolError,
  refusedFile,
} from '../core/protocol/protocol-error.js';
import { lookAlikeFix, PROTOCOL_NAMES_RULE } from '../core/protocol/questions/look-alike-names.js';
import { parseQuestionFile } from '../core/protocol/questions/parse-question-file.js';
import type { QuestionBatch } from '../core/protocol/questions/question.js';
import {
  parseQaFileName,
  QA_DIR,
  type QaFileName,
  qaDirOf,
  questionFileName,
} from '../core/protocol/run-folder.js';
import { readProtocolFile } from '../fs/read-protocol-file.js';

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

/** A protocol file to check, or a name that only looks like one (`q-out-0001.json`). */
type QaFile = { path: string; name: QaFileName } | { path: string; lookAlike: string };

const seqOf = (file: QaFile) => ('name' in file ? file.name.seq : Number.POSITIVE_INFINITY);

async function protocolFilesIn(folder: string): Promise<QaFile[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const files = entries.flatMap((entry): QaFile[] => {
    if (entry.isDirectory()) return [];
    const path = join(folder, entry.name);
    const name = parseQaFileName(entry.name);
    if (name) return [{ name, path }];
    const fix = lookAlikeFix(entry.name);
    return fix === undefined ? [] : [{ path, lookAlike: fix }];
  });
  return files.sort(
    (a, b) =>
      seqOf(a) - seqOf(b) ||
      ('name' in a && 'name' in b ? bySeqThenQuestionFirst(a.name, b.name) : 0) ||
      a.path.localeCompare(b.path),
  );
}

/** What `check` says of a look-alike name: the same fix the relay posts in Slack. */
const lookAlikeLine = (path: string, fix: string) =>
  `${path}: not a Q&A file name, so the relay ignores it: ${fix}. ${PROTOCOL_NAMES_RULE}.`;

const mayBeFolder = (entry: Dirent): boolean => entry.isDirectory() || entry.isSymbolicLink();

/** The folder itself, its `qa/`, and `<sub>/qa/` of each subfolder: a qa, run or runs folder. */
async function qaFoldersUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const candidates = [
    qaDirOf(folder),
    ...entries
      .filter((entry) => mayBeFolder(entry) && entry.name !== QA_DIR)
      .map((entry) => entry.name)
      .sort()
      .map((name) => qaDirOf(join(folder, name))),
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

const cannotRead = (path: string, reason: string): { error: ProtocolError } => {
  const message = `cannot read the file (${reason}); check that it exists and is readable`;
  return { error: { file: path, problems: [{ path: '', message }] } };
};

/**
 * The file's text through the relay's own guarded reader, so `check` refuses exactly what
 * the relay refuses (a FIFO, a symlink, a hard link, a file past 4 MiB) and never hangs.
 */
async function readText(path: string): Promise<{ text: string } | { error: ProtocolError }> {
  try {
    const found = await readProtocolFile(path);
    if (found.kind === 'missing') return cannotRead(path, 'it is gone');
    if (found.kind === 'refused') return { error: refusedFile(path, found.reason) };
    return { text: found.bytes.toString('utf8') };
  } catch (caught) {
    return cannotRead(path, caught instanceof Error ? caught.message : String(caught));
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
  const check = async (file: QaFile): Promise<void> => {
    const { path } = file;
    if (seen.has(resolve(path))) return;
    seen.add(resolve(path));
    if ('lookAlike' in file) {
      invalid += 1;
      io.err(lookAlikeLine(path, file.lookAlike));
      return;
    }
    const error = await problemsOf(path, file.name);
    if (error === undefined) {
      valid += 1;
      io.out(`ok  ${path}`);
      return;
    }
    invalid += 1;
    for (const line of formatProtocolError(error, 'check').split('\n')) io.err(line);
  };

  for (const path of paths) {
    const kind = await kindOf(path);
    if (kind === 'missing') {
      missing = true;
      io.err(`${path}: no such file or folder; ${WHAT_TO_PASS}`);
    } else if (kind === 'file') {
      const name = parseQaFileName(basename(path));
      const fix = lookAlikeFix(basename(path));
      if (name) await check({ path, name });
      else if (fix !== undefined) await check({ path, lookAlike: fix });
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
