import { baseNameOf } from './file-seq.js';
import { parseQaFileName } from './qa-file-names.js';

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
}

const FIX_QUESTION_FILE = 'Fix the file and save it again; the relay re-reads it.';
const FIX_ANSWER_FILE =
  'Fix the file so it follows the Q&A file protocol and answers the questions in its q-out file.';

/**
 * Multi-line text for people: `<file>: <n> problem(s)`, one `  - at <path>: <message>` line
 * per problem, then how to fix it. Tests pin this text; change it deliberately.
 */
export function formatProtocolError(error: ProtocolError): string {
  const count = error.problems.length;
  const lines = [`${error.file}: ${count} ${count === 1 ? 'problem' : 'problems'}`];
  for (const problem of error.problems) {
    lines.push(`  - at ${problem.path === '' ? '(whole file)' : problem.path}: ${problem.message}`);
  }
  lines.push(
    parseQaFileName(baseNameOf(error.file))?.kind === 'answer'
      ? FIX_ANSWER_FILE
      : FIX_QUESTION_FILE,
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
