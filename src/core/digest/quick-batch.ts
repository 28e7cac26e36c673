import { PERMISSION_CHOICES, PERMISSION_QUESTION_ID } from '../claude-code/permission-hook.js';
import type { Answer, Question, QuestionBatch } from '../protocol/questions/question.js';
import { BLOCK_KIT_LIMITS } from '../slack/layout/block-kit-limits.js';

/** Most options a choose-one question may have and still be answered from the digest. */
export const QUICK_MOST_OPTIONS = 3;

/** Longest preview shown whole on a digest line; a longer one needs opening, on the message. */
export const QUICK_PREVIEW_MOST = 200;

/** Most lines of a preview shown whole on a digest line. */
const QUICK_PREVIEW_LINES = 3;

/** One answer a digest line offers: its button's label and the answer it gives. */
export interface QuickChoice {
  label: string;
  answer: Answer;
}

/**
 * A batch answered in one tap from the digest: its one question, what kind of quick question
 * it is, the answers its line offers, and the answer Approve all gives (none for a choose-one:
 * no answer of one is the default).
 */
export interface QuickBatch {
  question: Question;
  kind: 'yes-no' | 'permission' | 'choose-one';
  choices: QuickChoice[];
  approve?: QuickChoice;
  /** the preview's text, short enough to show on the line */
  preview?: string;
}

const fits = (text: string) => text.trim() !== '' && text.length <= BLOCK_KIT_LIMITS.buttonText;

/** A preview short enough to read on the digest line, or undefined when it needs opening. */
function shortPreview(question: Question): { ok: boolean; text?: string } {
  const content = question.preview?.content;
  if (content === undefined || content.trim() === '') return { ok: true };
  const text = content.trim();
  const lines = text.split('\n').length;
  return text.length <= QUICK_PREVIEW_MOST && lines <= QUICK_PREVIEW_LINES
    ? { ok: true, text }
    : { ok: false };
}

/**
 * Whether a batch is quick, and how it is answered from the digest: one question that is a
 * yes-no, a Claude Code permission prompt (Allow / Deny: Approve all never picks an "Always
 * allow" rule), or a choose-one of at most 3 options that fit on buttons; and no preview too
 * long to read on the line.
 */
export function quickBatch(batch: QuestionBatch): QuickBatch | undefined {
  if (batch.questions.length !== 1) return undefined;
  const question = batch.questions[0] as Question;
  const preview = shortPreview(question);
  const permission = isPermissionPrompt(batch, question);
  if (!preview.ok && !permission) return undefined;
  const shown = preview.text === undefined ? {} : { preview: preview.text };
  if (question.type === 'yes-no') {
    const yes = { label: 'Yes', answer: true };
    const choices = [yes, { label: 'No', answer: false }];
    return { question, kind: 'yes-no', choices, approve: yes, ...shown };
  }
  if (permission) {
    // a long command is cut on the line: the message shows it whole
    const cut = question.preview?.content.trim().slice(0, QUICK_PREVIEW_MOST);
    const allow = { label: PERMISSION_CHOICES.allow, answer: PERMISSION_CHOICES.allow };
    const deny = { label: PERMISSION_CHOICES.deny, answer: PERMISSION_CHOICES.deny };
    return {
      question,
      kind: 'permission',
      choices: [allow, deny],
      approve: allow,
      ...(cut ? { preview: cut } : {}),
    };
  }
  if (question.type !== 'choose-one') return undefined;
  const options = question.options ?? [];
  if (options.length < 1 || options.length > QUICK_MOST_OPTIONS || !options.every(fits)) {
    return undefined;
  }
  const choices = options.map((text) => ({ label: text, answer: text }));
  return { question, kind: 'choose-one', choices, ...shown };
}

/** A permission prompt the relay's Claude Code hook wrote: Allow and Deny among its options. */
function isPermissionPrompt(batch: QuestionBatch, question: Question): boolean {
  const options = question.options ?? [];
  return (
    batch.writtenByRelay === true &&
    question.id === PERMISSION_QUESTION_ID &&
    question.type === 'choose-one' &&
    options.includes(PERMISSION_CHOICES.allow) &&
    options.includes(PERMISSION_CHOICES.deny)
  );
}
