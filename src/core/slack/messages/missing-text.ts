import { picksWantingText } from '../../envelope/envelope-batch.js';
import type { Answer, Question } from '../../protocol/questions/question.js';
import { truncatePlain } from '../text/text-cut.js';

const PROMPT_SHOWN = 60;

/**
 * A plain-text sentence naming the questions whose choice still needs typed text, e.g.
 * `Question 2 ("Which repos…"): "Multi-repo" needs text; press Add text under it, then
 * Submit.` It quotes agent text, so escape it (or use `renderNotice`) before sending as mrkdwn.
 */
export function describeMissingText(
  questions: readonly Question[],
  drafts: Readonly<Record<string, Answer>>,
  ids: readonly string[],
): string {
  const parts = ids.flatMap((id) => {
    const index = questions.findIndex((q) => q.id === id);
    const question = questions[index];
    if (!question) return [];
    const prompt = truncatePlain(question.prompt.replace(/\s+/g, ' ').trim(), PROMPT_SHOWN);
    const picks = picksWantingText(question, drafts[id]).map((pick) => `"${pick}"`);
    const what = picks.length > 0 ? `${picks.join(' and ')} needs text` : 'needs text';
    return [`Question ${index + 1} ("${prompt}"): ${what}`];
  });
  if (parts.length === 0) return 'Every choice that asks for text has it.';
  return `${parts.join('; ')}. Press Add text under ${parts.length === 1 ? 'it' : 'each'}, then Submit.`;
}
