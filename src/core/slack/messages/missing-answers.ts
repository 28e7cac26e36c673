import type { Question } from '../../protocol/questions/question.js';
import { truncatePlain } from '../text/text-cut.js';

// Longer lists read as noise in an ephemeral message; the rest are counted.
const NAMED_AT_MOST = 5;
const PROMPT_SHOWN = 60;

const joinWords = (parts: string[]): string =>
  parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;

/**
 * A short plain-text sentence naming the questions that still need answers, e.g.
 * `Question 2 ("Which format…") still needs an answer.` It quotes agent prompts, so pass it
 * through `renderNotice` or `escapeMrkdwn` before it goes out as mrkdwn.
 */
export function describeMissing(questions: readonly Question[], ids: readonly string[]): string {
  const named = ids.flatMap((id) => {
    const index = questions.findIndex((q) => q.id === id);
    const question = questions[index];
    if (!question) return [];
    const prompt = truncatePlain(question.prompt.replace(/\s+/g, ' ').trim(), PROMPT_SHOWN);
    return [`${index + 1} ("${prompt}")`];
  });
  if (named.length === 0) return 'Every question has an answer.';
  if (named.length === 1) return `Question ${named[0]} still needs an answer.`;
  const shown = named.slice(0, NAMED_AT_MOST);
  const more = named.length - shown.length;
  const list = more > 0 ? `${shown.join(', ')} and ${more} more` : joinWords(shown);
  return `Questions ${list} still need answers.`;
}
