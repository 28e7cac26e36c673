import { baseNameOf } from './file-seq.js';
import { parseQaFileName } from './run-folder.js';

/** One thing wrong in a protocol file, at a JSON path such as `questions[1].options[2]`. */
export interface ProtocolProblem {
  /** JSON path of the offending value; `''` for the whole file. */
  path: string;
  /** What was expected and what was found, with the found value quoted. */
  message: string;
}

/** Why a `q-out-NNN.json` or `q-answers-NNN.json` file was refused: every problem found. */
export interface ProtocolError {
  file: string;
  problems: ProtocolProblem[];
  /** problems found beyond those listed (see `protocolError`) */
  omitted?: number;
}

/** How many problems of one file are kept; a file with thousands would bury the first. */
export const MOST_PROBLEMS = 50;

/** A file's error with at most `MOST_PROBLEMS` problems; how many more there were is counted. */
export function protocolError(file: string, problems: ProtocolProblem[]): ProtocolError {
  if (problems.length <= MOST_PROBLEMS) return { file, problems };
  return {
    file,
    problems: problems.slice(0, MOST_PROBLEMS),
    omitted: problems.length - MOST_PROBLEMS,
  };
}

/**
 * Why a protocol file is not read at all (a FIFO, a link, too large, not readable), as an
 * error people can act on. Nothing of the file's content is in it.
 */
export function refusedFile(file: string, reason: string): ProtocolError {
  return { file, problems: [{ path: '', message: `the relay will not read it: ${reason}` }] };
}

/** Who read the file and reports it: the running relay, or a command run on the file. */
export type ProtocolFileReader = 'relay' | 'check' | 'preview';

/** The last line for a q-out file: what to do, and what happens then. */
const FIX_QUESTION_FILE: Record<ProtocolFileReader, string> = {
  relay: 'Fix the file and save it again; the relay re-reads it.',
  check: 'Fix the file, then check it again.',
  preview: 'Fix the file, then preview it again.',
};
const FIX_ANSWER_FILE =
  'Fix the file so it follows the Q&A file protocol and answers the questions in its q-out file.';

/**
 * Multi-line text for people: `<file>: <n> problem(s)`, one `  - at <path>: <message>` line
 * per problem, then how to fix it, which depends on who read the file (`reader`). Tests pin
 * this text; change it deliberately.
 */
export function formatProtocolError(
  error: ProtocolError,
  reader: ProtocolFileReader = 'relay',
): string {
  const omitted = error.omitted ?? 0;
  const count = error.problems.length + omitted;
  const lines = [`${error.file}: ${count} ${count === 1 ? 'problem' : 'problems'}`];
  for (const problem of error.problems) {
    lines.push(`  - at ${problem.path === '' ? '(whole file)' : problem.path}: ${problem.message}`);
  }
  if (omitted > 0) lines.push(`  - and ${omitted} more, not listed`);
  lines.push(
    parseQaFileName(baseNameOf(error.file))?.kind === 'answer'
      ? FIX_ANSWER_FILE
      : FIX_QUESTION_FILE[reader],
  );
  return lines.join('\n');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Spells a path of keys and indices the way a reader finds it: `questions[1].preview.type`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && IDENTIFIER.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text;
}
