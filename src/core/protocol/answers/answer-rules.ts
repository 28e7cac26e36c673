import { describeValue, listChoices } from '../json/describe-value.js';
import type { QuestionType } from '../questions/question.js';

/**
 * What an answer to a question of `type` must be, for messages: `one option from "A", "B"`.
 * Without `options` (an answer file that echoed none) only the JSON type is named.
 */
export function expectedAnswer(type: QuestionType, options: readonly string[] | undefined): string {
  const among = options === undefined ? '' : ` from ${listChoices(options)}`;
  switch (type) {
    case 'free-write':
      return 'a string';
    case 'yes-no':
      return 'true or false';
    case 'choose-one':
      return `one option${among}`;
    case 'choose-many':
      return `a non-empty array of options${among}`;
  }
}

const isOption = (options: readonly string[] | undefined, value: unknown): boolean =>
  typeof value === 'string' && (options === undefined || options.includes(value));

/**
 * What is wrong with `answer` for a question of `type`, as `expected …, found …`, or
 * `undefined` when it fits.
 */
export function answerMismatch(
  type: QuestionType,
  options: readonly string[] | undefined,
  answer: unknown,
): string | undefined {
  const mismatch = (found: string) => `expected ${expectedAnswer(type, options)}, found ${found}`;
  switch (type) {
    case 'free-write':
      return typeof answer === 'string' ? undefined : mismatch(describeValue(answer));
    case 'yes-no':
      return typeof answer === 'boolean' ? undefined : mismatch(describeValue(answer));
    case 'choose-one':
      return isOption(options, answer) ? undefined : mismatch(describeValue(answer));
    case 'choose-many': {
      if (!Array.isArray(answer) || answer.length === 0) return mismatch(describeValue(answer));
      const strays = answer.filter((item) => !isOption(options, item));
      if (strays.length === 0) return undefined;
      return mismatch(`${strays.map(describeValue).join(', ')} in ${describeValue(answer)}`);
    }
  }
}

/**
 * What is wrong with a choose-many answer in an answer file that names an option twice, or
 * `undefined`. A pick is made or not: the same option twice says nothing more, and a reader
 * that counts picks would count it twice. (Clicks may repeat one; the answer file the relay
 * builds from them lists each once.)
 */
export function repeatedPick(type: QuestionType, answer: unknown): string | undefined {
  if (type !== 'choose-many' || !Array.isArray(answer)) return undefined;
  const seen = new Set<unknown>();
  const repeated = answer.find((item) => seen.size === seen.add(item).size);
  if (repeated === undefined) return undefined;
  return `expected each option once, found ${describeValue(repeated)} more than once in ${describeValue(answer)}`;
}
