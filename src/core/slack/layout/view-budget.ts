/**
 * Slack refuses a view (`views.open`, `push`, `update`, `publish`) whose JSON passes 250 kB with
 * `view_too_large`, however few blocks it has: escaping and multi-byte text make 100 blocks of
 * 3,000 characters reach 300–900 kB. Views are measured against this budget, which leaves room
 * for the title, buttons and private metadata around the blocks.
 */
export const VIEW_BYTES_BUDGET = 240_000;

const encoder = new TextEncoder();

/** Bytes of a value as JSON in UTF-8, as Slack receives it. */
export const jsonBytes = (value: unknown): number =>
  encoder.encode(JSON.stringify(value) ?? '').length;
