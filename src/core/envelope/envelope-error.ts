import type { ProtocolProblem } from '../protocol/protocol-error.js';

/** The whole expected shape in one line, restated in every correction message. */
export const EXPECTED_ENVELOPE_SHAPE =
  'Expected shape: {"openQuestions": [{"question": "…", "header": "…", "options": [{"label": "…", "description": "…"}], "multiSelect": false}]} with 1 to 4 questions (any past the fourth are not asked, only named in the reply) and at least 1 option each; "description" and "multiSelect" may be left out.';

const HOW_TO_FIX =
  'Send the whole corrected envelope again as one ```json block at the end of your final message, then stop.';

/** `1st`, `2nd`, `3rd`, `11th`, `22nd`: block numbers read as people count. */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The correction message for a broken envelope, sent to the agent verbatim: which block,
 * one `  - at <path>: <message>` line per problem (a path-less problem stands alone), the
 * expected shape, and what to do. Tests pin this text; change it deliberately.
 */
export function formatEnvelopeError(blockNumber: number, problems: ProtocolProblem[]): string {
  const count = problems.length;
  const lines = [
    `The openQuestions envelope (the ${ordinal(blockNumber)} \`\`\`json block of your message) could not be read: ${count} ${count === 1 ? 'problem' : 'problems'}.`,
  ];
  for (const problem of problems) {
    lines.push(
      problem.path === '' ? `  - ${problem.message}` : `  - at ${problem.path}: ${problem.message}`,
    );
  }
  lines.push(EXPECTED_ENVELOPE_SHAPE, HOW_TO_FIX);
  return lines.join('\n');
}
