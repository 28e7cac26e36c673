/**
 * Slack Block Kit limits the relay depends on. Slack rejects a message or view that breaks
 * any of them with `invalid_blocks`; the renderer keeps within them and the test stand-in
 * enforces them.
 */
export const BLOCK_KIT_LIMITS = {
  messageBlocks: 50,
  modalBlocks: 100,
  /** section.text, context text, plain text objects in general */
  text: 3000,
  sectionText: 3000,
  sectionFields: 10,
  sectionFieldText: 2000,
  headerText: 150,
  /** the `markdown` block; the total over all markdown blocks in one message is also capped */
  markdownText: 12000,
  markdownTotalPerMessage: 12000,
  actionId: 255,
  blockId: 255,
  buttonText: 75,
  buttonValue: 2000,
  optionText: 75,
  optionValue: 150,
  optionDescription: 75,
  selectPlaceholder: 150,
  selectOptions: 100,
  checkboxOptions: 10,
  radioOptions: 10,
  overflowOptions: 5,
  actionsElements: 25,
  contextElements: 10,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  inputLabel: 2000,
  inputHint: 2000,
  plainTextInputMax: 3000,
  viewTitle: 24,
  viewSubmit: 24,
  viewClose: 24,
  viewCallbackId: 255,
  privateMetadata: 3000,
  /** chat.postMessage's top-level `text` (Slack truncates beyond 40,000; keep notifications short) */
  messageText: 40000,
} as const;

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
