/**
 * What a Q&A file may hold for the relay to accept it: the one definition shared by the relay,
 * `check` and `preview`. Each limit keeps an accepted batch answerable and its Slack messages
 * few; "What the relay refuses, and why" in docs/file-protocol.md lists them with their reasons.
 */
export const QA_LIMITS = {
  /** bytes in one protocol file; real question files are a few KiB */
  fileBytes: 4 * 1024 * 1024,
  /**
   * levels of `{…}` and `[…]`; a question file needs four or five. Checked before the text is
   * parsed, so no nesting reaches code that recurses (copying, serializing, messages).
   */
  jsonDepth: 64,
  /** questions in one batch; more are a flood of Slack messages nobody answers */
  questions: 100,
  /** options of one question (more than 100 are searched in an external select) */
  options: 500,
  /** characters of a question id */
  idLength: 200,
  /** characters of a prompt; longer context belongs in its preview */
  promptLength: 10_000,
  /** characters of one option */
  optionLength: 1_000,
  /** characters of one preview's content (a message shows its start, a modal all of it) */
  previewLength: 100_000,
  /** characters of all prompts, options and previews of a batch together (about 20 messages) */
  batchText: 200_000,
} as const;

/**
 * Question ids: letters and digits of any script, and `_ - . : / @ +`. Ids travel into answer
 * files, logs and Slack metadata, where spaces, control or invisible characters would only
 * confuse; names JavaScript objects treat specially (`__proto__`, `constructor`) are allowed
 * and kept only in records that have no prototype.
 */
export const QUESTION_ID = /^[\p{L}\p{M}\p{N}_.:/@+-]+$/u;

/** The id rule in words, for messages. */
export const QUESTION_ID_RULE = `an id of letters, digits, "_", "-", ".", ":", "/", "@" or "+" (at most ${QA_LIMITS.idLength} characters)`;

/** A count for messages, with thousands separated: `10,000`. */
export const formatCount = (count: number): string => count.toLocaleString('en-US');
