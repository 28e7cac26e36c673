import * as z from 'zod';

/** `ask_user`'s arguments: AskUserQuestion's `questions`, as the MCP client lists them. */
export const askUserInput = {
  questions: z
    .array(
      z.object({
        question: z.string().min(1).describe('The full question, ending with a question mark.'),
        header: z.string().min(1).describe('A short label shown above the question.'),
        options: z
          .array(
            z.object({
              label: z.string().min(1).describe('What the person clicks.'),
              description: z.string().optional().describe('What choosing it means.'),
            }),
          )
          .min(2)
          .max(4)
          .optional()
          .describe(
            'The answers offered; an "Other…" option for typed text is added last. Leave out to ask for an answer in the person\'s own words.',
          ),
        multiSelect: z.boolean().optional().describe('Let the person pick several options.'),
      }),
    )
    .min(1)
    .max(4),
};

/** `ask_user`'s structured result (see `UserAnswers`). */
export const askUserOutput = {
  answers: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .describe(
      'By question text: the label picked, the labels of a multi-select, the text typed for "Other…", or the text written for a question without options.',
    ),
  followUps: z
    .record(z.string(), z.string())
    .describe('By question text: text typed for an option that asked for it.'),
};

/** `request_approval`'s arguments. */
export const requestApprovalInput = {
  action: z.string().min(1).describe('What you want to do, in one line.'),
  details: z
    .string()
    .optional()
    .describe('Markdown: the command, the diff, the reasons; shown under the action.'),
  choices: z
    .array(
      z.object({
        label: z.string().min(1),
        approves: z.boolean().describe('Whether this choice lets the action go ahead.'),
      }),
    )
    .min(2)
    .max(4)
    .optional()
    .describe('The answers offered (default: Approve, Deny); each can also be given with a note.'),
};

/** `request_approval`'s structured result. */
export const requestApprovalOutput = {
  approved: z.boolean(),
  choice: z.string().describe('The label of the choice picked.'),
  by: z.string().optional().describe('The Slack user id of who answered, when the relay kept it.'),
  note: z.string().optional().describe('The note typed with the choice.'),
};
