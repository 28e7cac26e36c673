import {
  askedQuestions,
  type Envelope,
  MAX_ASKED_QUESTIONS,
  unaskedQuestions,
} from './envelope.js';
import { questionIdAt } from './envelope-to-batch.js';
import { asksForFollowUpText } from './follow-up-hint.js';
import type { FollowUpText } from './follow-up-text.js';
import { OTHER_OPTION } from './other-option.js';

const NO_TEXT = '(no text given)';

/**
 * `lead text` when the text is one line; otherwise `lead` alone and each line below it,
 * indented, so a list of paths typed one per line stays one per line.
 */
function withText(lead: string, text: string | undefined, indent: string): string[] {
  const lines = (text ?? '').replace(/^\s*\n|\s+$/g, '').split(/\r?\n/);
  const only = lines.length === 1 ? (lines[0] ?? '').trim() : undefined;
  if (only !== undefined) return [`${lead} ${only === '' ? NO_TEXT : only}`];
  return [lead, ...lines.map((line) => `${indent}${line}`)];
}

/** The picks in the order the options list them; anything else the relay sent comes after. */
function orderPicks(labels: readonly string[], answer: string | string[]): string[] {
  const picks = Array.isArray(answer) ? answer : [answer];
  return [
    ...labels.filter((label) => picks.includes(label)),
    ...picks.filter((pick) => !labels.includes(pick)),
  ];
}

/**
 * The message that resumes the agent, one line per asked question: `<header>: <label>`
 * (several labels joined with `, ` in option order). Text typed for `Other…` follows it as
 * `Other: <text>`; text typed for an option that promised a follow-up goes on the next line
 * as `  Follow-up: <text>`; a question without options (`ask_user`'s free text) is
 * `<header>: <text>`. Text of several lines starts on its own lines, indented. Questions
 * over the limit are named on a last `Not asked (…): a; b` line. Tests pin this text.
 */
export function formatResumeMessage(
  envelope: Envelope,
  answers: Readonly<Record<string, string | string[]>>,
  followUpText: Readonly<FollowUpText>,
): string {
  const lines: string[] = [];
  askedQuestions(envelope).forEach((question, index) => {
    const id = questionIdAt(index);
    const answer = Object.hasOwn(answers, id) ? answers[id] : undefined;
    if (answer === undefined) {
      lines.push(`${question.header}: (no answer)`);
      return;
    }
    if (question.options.length === 0) {
      lines.push(...withText(`${question.header}:`, [answer].flat().join(', '), '  '));
      return;
    }
    const labels = [...question.options.map((option) => option.label), OTHER_OPTION];
    const picks = orderPicks(labels, answer);
    const text = Object.hasOwn(followUpText, id) ? followUpText[id] : undefined;
    const chosen = picks.filter((pick) => pick !== OTHER_OPTION);
    const start = `${question.header}: ${chosen.join(', ')}`;
    if (picks.includes(OTHER_OPTION)) {
      lines.push(...withText(`${start}${chosen.length > 0 ? ', ' : ''}Other:`, text, '  '));
      return;
    }
    lines.push(start);
    const promised = question.options.some(
      (option) => picks.includes(option.label) && asksForFollowUpText(option.description),
    );
    if (promised || (text !== undefined && text.trim() !== '')) {
      lines.push(...withText('  Follow-up:', text, '    '));
    }
  });
  const skipped = unaskedQuestions(envelope);
  if (skipped.length > 0) {
    const list = skipped.map((question) => question.question).join('; ');
    lines.push(`Not asked (over the ${MAX_ASKED_QUESTIONS}-question limit): ${list}`);
  }
  return lines.join('\n');
}
