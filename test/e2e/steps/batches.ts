// The batches the end-to-end tests write, and the questions they share.

/** "Proceed?": the yes-no question that ends the one-choice batches of the e2e tests. */
export const GO = { id: 'go', type: 'yes-no', prompt: 'Proceed?' } as const;

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

/** Batch 1 of one yes-no question whose preview is `markdown`. */
export const yesNoWithMarkdown = (id: string, prompt: string, markdown: string) => ({
  seq: 1,
  questions: [{ id, type: 'yes-no', prompt, preview: { type: 'markdown', content: markdown } }],
});
