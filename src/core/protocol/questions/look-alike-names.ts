import { formatCount } from '../qa-limits.js';
import { answerFileName, parseQaFileName, questionFileName } from '../run-folder.js';

/**
 * Names a person or agent could mean as a protocol file: a q, out or answer(s), a number and
 * `.json`, in any case and with `-`, `_` or nothing between. Hidden names (temp files, ours
 * and editors') never count.
 */
const LOOK_ALIKE = /^q[-_]?(out|answers?)[-_]?(\d+)\.json$/i;

/** What the protocol's names are, for messages about names that are not. */
export const PROTOCOL_NAMES_RULE =
  'Q&A files are named q-out-NNN.json and q-answers-NNN.json, in lower case, NNN being the batch number written with three digits (more only without a leading zero), from 001';

/**
 * Whether `name` is a protocol file or looks like one; the watcher reports both, so that the
 * look-alikes can be pointed out instead of ignored without a word.
 */
export const looksLikeQaFileName = (name: string): boolean => LOOK_ALIKE.test(name);

/**
 * What to do about a name that looks like a protocol file but is not one, e.g. for
 * `q-out-0001.json`: `if it is batch 1, rename it to q-out-001.json`. `undefined` for
 * protocol names and for names that look nothing like them.
 */
export function lookAlikeFix(name: string): string | undefined {
  if (parseQaFileName(name) !== undefined) return undefined;
  const match = LOOK_ALIKE.exec(name);
  if (!match) return undefined;
  const answer = (match[1] as string).toLowerCase() !== 'out';
  const seq = Number(match[2]);
  if (!Number.isSafeInteger(seq)) {
    return `its number is past ${formatCount(Number.MAX_SAFE_INTEGER)}, the largest batch number that can be counted exactly`;
  }
  if (seq === 0) return 'batch numbers start at 001';
  return `if it is batch ${seq}, rename it to ${answer ? answerFileName(seq) : questionFileName(seq)}`;
}
