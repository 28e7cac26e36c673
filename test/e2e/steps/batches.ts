// The batches the end-to-end tests write, and the questions they share.

/** "Proceed?": the yes-no question that ends the one-choice batches of the e2e tests. */
export const GO = { id: 'go', type: 'yes-no', prompt: 'Proceed?' } as const;

/** Batch 1 of a pick and a free-write question: no one tap answers it, and it has a form. */
export const FORMAT_AND_NOTES = {
  seq: 1,
  questions: [
    { id: 'format', type: 'choose-one', prompt: 'Format?', options: ['JSON', 'CSV', 'YAML'] },
    { id: 'notes', type: 'free-write', prompt: 'Notes?' },
  ],
};

/** A two-question batch answered with a radio pick and a yes-no button. */
export const formatBatch = (seq: number) => ({
  seq,
  questions: [
    { id: 'format', type: 'choose-one', prompt: 'Output format?', options: ['JSON', 'CSV'] },
    GO,
  ],
});

/** Batch 1 of `count` questions of one `type`, question n (from 1) asking `prompt(n)`, ids q1, q2, … */
export const batchOfMany = (count: number, type: string, prompt: (n: number) => string) => ({
  seq: 1,
  questions: Array.from({ length: count }, (_, i) => ({
    id: `q${i + 1}`,
    type,
    prompt: prompt(i + 1),
  })),
});

/** `count` options named `Option 001`, `Option 002`, … */
export const numberedOptions = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `Option ${String(i + 1).padStart(3, '0')}`);

const numbered = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

/** Ten options too long for Slack's 75-character labels, together too long to list in full. */
export const LONG_OPTIONS = Array.from(
  { length: 10 },
  (_, i) => `Long option ${i + 1}: ${'a rather wordy description '.repeat(12).trim()}`,
);

/**
 * One question per control the renderer has: radio buttons, checkboxes, static and external
 * selects (single and multi), yes-no buttons, a free-write button behind a preview too long
 * for a message ("Show full preview"), options too long to list ("Show full options"), and
 * Submit. It is too big for one message, so it continues in two thread replies.
 */
export const EVERY_CONTROL_BATCH = {
  seq: 1,
  questions: [
    { id: 'radio', type: 'choose-one', prompt: 'Radio?', options: ['a', 'b', 'c'] },
    { id: 'boxes', type: 'choose-many', prompt: 'Boxes?', options: ['a', 'b', 'c'] },
    { id: 'select', type: 'choose-one', prompt: 'Select?', options: numbered(12, 'Colour') },
    { id: 'multi', type: 'choose-many', prompt: 'Multi?', options: numbered(12, 'Tag') },
    { id: 'ext', type: 'choose-one', prompt: 'External?', options: numbered(120, 'City') },
    {
      id: 'multiext',
      type: 'choose-many',
      prompt: 'Many external?',
      options: numbered(120, 'Lib'),
    },
    { id: 'yn', type: 'yes-no', prompt: 'Yes or no?' },
    {
      id: 'text',
      type: 'free-write',
      prompt: 'Say something',
      preview: { type: 'ascii', content: '+--+\n|  |\n'.repeat(1200) },
    },
    { id: 'long', type: 'choose-one', prompt: 'Long ones?', options: LONG_OPTIONS },
  ],
};

/** Batch 1 of one yes-no question whose preview is `markdown`. */
export const yesNoWithMarkdown = (id: string, prompt: string, markdown: string) => ({
  seq: 1,
  questions: [{ id, type: 'yes-no', prompt, preview: { type: 'markdown', content: markdown } }],
});
