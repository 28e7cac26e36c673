/**
 * Slack's published Block Kit limits, as the stand-in enforces them: character counts of text
 * fields and item counts of lists, grouped by the object they belong to in Slack's Block Kit
 * reference. Kept here, apart from the relay's own `BLOCK_KIT_LIMITS`, on purpose: a renderer
 * checked against its own constants proves nothing, so the stand-in holds Slack's numbers and
 * `slack-limits.test.ts` checks that the relay's constants stay within them.
 */
export const SLACK_LIMITS = {
  /** a text object anywhere, unless its field says less */
  text: 3000,
  actionId: 255,
  blockId: 255,
  message: {
    blocks: 50,
    /** chat.postMessage's top-level `text`; Slack cuts it beyond this */
    text: 40_000,
    /** all `markdown` blocks of one message together */
    markdownTotal: 12_000,
  },
  view: { blocks: 100, title: 24, submit: 24, close: 24, callbackId: 255, privateMetadata: 3000 },
  header: { text: 150 },
  section: { text: 3000, fields: 10, fieldText: 2000 },
  markdown: { text: 12_000 },
  context: { elements: 10 },
  actions: { elements: 25 },
  input: { label: 2000, hint: 2000 },
  button: { text: 75, value: 2000 },
  confirm: { title: 100, text: 300, button: 30 },
  option: { text: 75, value: 150, description: 75 },
  select: { placeholder: 150, options: 100 },
  checkboxes: { options: 10 },
  radioButtons: { options: 10 },
  overflow: { options: 5 },
  plainTextInput: { maxLength: 3000 },
} as const;
