/** A fenced code block, whose fence is longer than any run of backticks in the text. */
export const asCodeBlock = (text: string): string => {
  const fence = codeFenceFor(text);
  return `${fence}\n${text}\n${fence}`;
};

/** A fence of backticks longer than any run of them in `text`, and at least three. */
export function codeFenceFor(text: string): string {
  const longest = (text.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  return '`'.repeat(Math.max(3, longest + 1));
}
