import type { PreToolUseHookSpecificOutput } from '@anthropic-ai/claude-agent-sdk';
import type { EnvelopeBatchFile } from '../envelope/envelope-to-batch.js';
import { envelopeToBatch, questionIdAt } from '../envelope/envelope-to-batch.js';
import type { FollowUpText } from '../envelope/follow-up-text.js';
import { OTHER_OPTION } from '../envelope/other-option.js';
import type { BatchOrigin } from '../protocol/questions/batch-origin.js';
import type { Preview } from '../protocol/questions/question.js';
import type { AskUserQuestion, PreToolUseInput } from './hook-input.js';
import { hookOrigin } from './hook-origin.js';
import { maskSecrets } from './mask-secrets.js';

/** The q-out batch made from AskUserQuestion: an envelope batch, plus where it comes from. */
export type QuestionHookBatch = EnvelopeBatchFile & {
  origin: BatchOrigin;
  questions: (EnvelopeBatchFile['questions'][number] & { preview?: Preview })[];
};

const masked = (text: string): string => maskSecrets(text).text;

/** Every option's preview, under its label, as one Markdown preview of the question. */
function optionPreviews(options: AskUserQuestion['questions'][number]['options']) {
  const shown = options.filter((option) => (option.preview ?? '').trim() !== '');
  if (shown.length === 0) return undefined;
  const content = shown
    .map((option) => `**${option.label}**\n\n${masked(option.preview ?? '')}`)
    .join('\n\n---\n\n');
  return { type: 'markdown' as const, content };
}

/**
 * The batch that puts Claude Code's AskUserQuestion to people: each question with its header,
 * its options with their descriptions, multi-select as checkboxes, `Other…` last for typed
 * text, and the options' previews shown as the question's preview. Labels are shown as the
 * model wrote them (they come back as the answer); the rest is masked for secrets.
 */
export function questionHookBatch(input: PreToolUseInput, ask: AskUserQuestion): QuestionHookBatch {
  const envelope = {
    openQuestions: ask.questions.map((question) => ({
      question: masked(question.question),
      header: masked(question.header),
      options: question.options.map((option) => ({
        label: option.label,
        description: masked(option.description),
      })),
      multiSelect: question.multiSelect,
    })),
  };
  const batch = envelopeToBatch(envelope);
  const questions = batch.questions.map((question, index) => {
    const preview = optionPreviews(ask.questions[index]?.options ?? []);
    return preview ? { ...question, preview } : question;
  });
  const count = ask.questions.length;
  const title = `Claude Code asks ${count === 1 ? 'a question' : `${count} questions`}`;
  return { ...batch, questions, origin: hookOrigin(input, title) };
}

/** People's answers, by question id, as the answer file gives them. */
export type AnswersById = Readonly<Record<string, string | string[]>>;

/**
 * One question's answer as AskUserQuestion takes it: the label picked, several joined with
 * `, ` (Claude Code's own format), and the text typed for `Other…` in its place. Text typed
 * for an option that asked for more goes in the notes instead.
 */
function answerOf(picks: readonly string[], labels: readonly string[], typed: string | undefined) {
  const ordered = [...labels, OTHER_OPTION].filter((label) => picks.includes(label));
  const other = (typed ?? '').trim();
  return ordered
    .map((label) => (label === OTHER_OPTION ? other : label))
    .filter((part) => part !== '')
    .join(', ');
}

/**
 * The PreToolUse output that answers AskUserQuestion: allowed, with the tool's own input
 * echoed and `answers` keyed by question text (and `annotations` for follow-up notes).
 * Undefined when some question has no usable answer: Claude Code then asks in the terminal.
 */
export function questionHookOutput(
  toolInput: Record<string, unknown>,
  ask: AskUserQuestion,
  answers: AnswersById,
  followUpText: Readonly<FollowUpText>,
): { hookSpecificOutput: PreToolUseHookSpecificOutput } | undefined {
  const byQuestion: Record<string, string> = {};
  const annotations: Record<string, { notes: string }> = {};
  for (const [index, question] of ask.questions.entries()) {
    const id = questionIdAt(index);
    const given = Object.hasOwn(answers, id) ? answers[id] : undefined;
    if (given === undefined) return undefined;
    const picks = Array.isArray(given) ? given : [given];
    const typed = Object.hasOwn(followUpText, id) ? followUpText[id] : undefined;
    const answer = answerOf(
      picks,
      question.options.map((option) => option.label),
      typed,
    );
    if (answer === '') return undefined;
    byQuestion[question.question] = answer;
    if (!picks.includes(OTHER_OPTION) && typed !== undefined && typed.trim() !== '') {
      annotations[question.question] = { notes: typed.trim() };
    }
  }
  const updatedInput = {
    ...toolInput,
    answers: byQuestion,
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: 'Answered in Slack',
      updatedInput,
    },
  };
}
