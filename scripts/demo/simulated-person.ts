import type { Question, QuestionType } from '../../src/core/protocol/questions/question.js';
import { choose, pressSubmit, pressYesNo, writeFreeText } from '../../test/e2e/relay-steps.js';
import type { FakeSlack } from '../../test/support/fake-slack/index.js';

/** What the simulated person writes into a free-write question. */
export const DEMO_FREE_TEXT = "Keep last week's report until the new one has been checked.";

/** One thing the person does: what to say about it, and doing it. */
export interface PersonStep {
  says: string;
  /** Submit: the batch closes, so its message changes as a whole */
  last?: boolean;
  act: (slack: FakeSlack, ts: string) => Promise<unknown>;
}

const quoted = (labels: readonly string[]) => labels.map((label) => `"${label}"`).join(', ');

/** The person's step for one question of each type; `qi` is the question's index. */
const STEP_FOR: Record<QuestionType, (options: readonly string[], qi: number) => PersonStep> = {
  'choose-one': (options, qi) => {
    const index = Math.min(1, options.length - 1);
    return {
      says: `${qi + 1}. picks ${quoted([options[index] ?? ''])}`,
      act: (slack, ts) => choose(slack, ts, qi, [index]),
    };
  },
  'choose-many': (options, qi) => {
    const indices = [...new Set([0, options.length - 1])];
    return {
      says: `${qi + 1}. ticks ${quoted(indices.map((i) => options[i] ?? ''))}`,
      act: (slack, ts) => choose(slack, ts, qi, indices),
    };
  },
  'free-write': (_, qi) => ({
    says: `${qi + 1}. presses "Write answer", types "${DEMO_FREE_TEXT}" and submits the form`,
    act: (slack, ts) => writeFreeText(slack, ts, qi, DEMO_FREE_TEXT),
  }),
  'yes-no': (_, qi) => ({
    says: `${qi + 1}. presses "Yes"`,
    act: (slack, ts) => pressYesNo(slack, ts, qi, true),
  }),
};

/**
 * How a person answers a batch: the second option of a choose-one (the only one if there is
 * one), the first and last of a choose-many, a sentence for a free-write, Yes for a yes-no;
 * then Submit. Each step goes through the stand-in's Slack client exactly as the end-to-end
 * tests click, and waits until the message shows it.
 */
export function stepsFor(questions: readonly Question[]): PersonStep[] {
  return [
    ...questions.map((question, qi) => STEP_FOR[question.type](question.options ?? [], qi)),
    { says: 'presses "Submit"', last: true, act: (slack, ts) => pressSubmit(slack, ts) },
  ];
}
