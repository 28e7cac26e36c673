import { parseQaFileName } from '../protocol/run-folder.js';

/** What one `qa/` folder holds, by sequence number. */
export interface QaListing {
  /** seqs that have a `q-out-NNN.json`, ascending */
  questions: number[];
  /** seqs that have a `q-answers-NNN.json` */
  answers: Set<number>;
  /** the names that are not protocol files (temp files, look-alikes, anything else) */
  others: string[];
}

/**
 * Sorts the names found in a `qa/` folder into question and answer seqs and the other names;
 * each name is read once.
 */
export function listQaFiles(names: readonly string[]): QaListing {
  const questions: number[] = [];
  const answers = new Set<number>();
  const others: string[] = [];
  for (const name of names) {
    const parsed = parseQaFileName(name);
    if (parsed?.kind === 'question') questions.push(parsed.seq);
    else if (parsed?.kind === 'answer') answers.add(parsed.seq);
    else others.push(name);
  }
  questions.sort((a, b) => a - b);
  return { questions, answers, others };
}

/**
 * The batch to present next: the lowest seq that has a question file and no answer file.
 * Batches are strictly ascending, so nothing above it is shown until it is answered.
 */
export function nextUnansweredSeq(listing: QaListing): number | undefined {
  return listing.questions.find((seq) => !listing.answers.has(seq));
}

/** How many missing seqs `missingBefore` reports at most; `describeGap` names three and an ellipsis. */
const MISSING_REPORTED = 4;

/**
 * The first few seqs below `seq` with neither a question nor an answer file: a gap in the
 * run's sequence. The relay still presents `seq` (nothing would ever fill the gap otherwise)
 * and says so. Stops after `MISSING_REPORTED` of them, so the work is bounded by the number
 * of files, not by `seq`: a file named `q-out-999999999999.json` must not stall the relay.
 */
export function missingBefore(listing: QaListing, seq: number): number[] {
  const present = new Set(listing.questions);
  const missing: number[] = [];
  for (let s = 1; s < seq && missing.length < MISSING_REPORTED; s += 1) {
    if (!present.has(s) && !listing.answers.has(s)) missing.push(s);
  }
  return missing;
}

/** A short sentence for people about a gap, or undefined when there is none. */
export function describeGap(missing: readonly number[], seq: number): string | undefined {
  if (missing.length === 0) return undefined;
  const names = missing.length <= 3 ? missing.join(', ') : `${missing.slice(0, 3).join(', ')}, …`;
  return `Batch ${names} has no question or answer file; batch ${seq} is shown next in order.`;
}
