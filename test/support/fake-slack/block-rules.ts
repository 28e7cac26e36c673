/**
 * The rules the stand-in enforces on Block Kit, each with a stable name so tests can assert
 * which one a payload broke. Slack itself reports only a message and a JSON pointer.
 */
export const BLOCK_RULES = {
  tooManyBlocks: 'too_many_blocks',
  tooLong: 'too_long',
  emptyText: 'empty_text',
  tooManyItems: 'too_many_items',
  tooFewItems: 'too_few_items',
  duplicateBlockId: 'duplicate_block_id',
  duplicateActionId: 'duplicate_action_id',
  /** Slack accepts input blocks in messages, but they misbehave on mobile; the relay must not send them */
  inputBlockInMessage: 'input_block_in_message',
  markdownBlockInView: 'markdown_block_in_view',
  markdownTotalTooLong: 'markdown_total_too_long',
  unknownBlockType: 'unknown_block_type',
  unknownElementType: 'unknown_element_type',
  elementNotAllowedHere: 'element_not_allowed_here',
  missingField: 'missing_field',
  invalidField: 'invalid_field',
  initialOptionNotInOptions: 'initial_option_not_in_options',
  submitRequired: 'submit_required',
} as const;
/** One rule name from {@link BLOCK_RULES}. */
export type BlockRule = (typeof BLOCK_RULES)[keyof typeof BLOCK_RULES];

/** One thing wrong with a message's blocks or a view, located by JSON pointer. */
export interface BlockIssue {
  rule: BlockRule;
  /** JSON pointer into the request, e.g. `/blocks/0/text/text` or `/view/title/text` */
  path: string;
  message: string;
}

/** Block types the stand-in understands; anything else is rejected as unsupported. */
export const KNOWN_BLOCK_TYPES = [
  'header',
  'section',
  'context',
  'divider',
  'actions',
  'markdown',
  'rich_text',
  'input',
] as const;

/**
 * The elements that hold a choice or typed value the user's client keeps; every place that
 * takes elements takes these, so they are listed once.
 */
export const CHOICE_ELEMENTS = [
  'static_select',
  'external_select',
  'multi_static_select',
  'multi_external_select',
  'users_select',
  'multi_users_select',
  'radio_buttons',
  'checkboxes',
] as const;

/** Interactive and display element types the stand-in understands. */
export const KNOWN_ELEMENT_TYPES = [
  'button',
  ...CHOICE_ELEMENTS,
  'overflow',
  'plain_text_input',
  'image',
] as const;
/** One element type from {@link KNOWN_ELEMENT_TYPES}. */
export type KnownElementType = (typeof KNOWN_ELEMENT_TYPES)[number];

/** Elements allowed as a section accessory. */
export const ACCESSORY_ELEMENTS: readonly KnownElementType[] = [
  'button',
  ...CHOICE_ELEMENTS,
  'overflow',
  'image',
];

/** Elements allowed in an actions block. */
export const ACTIONS_ELEMENTS: readonly KnownElementType[] = [
  'button',
  ...CHOICE_ELEMENTS,
  'overflow',
];

/** Elements allowed inside an input block. */
export const INPUT_ELEMENTS: readonly KnownElementType[] = ['plain_text_input', ...CHOICE_ELEMENTS];

/** rich_text children the stand-in understands. */
export const RICH_TEXT_CHILDREN = [
  'rich_text_section',
  'rich_text_preformatted',
  'rich_text_quote',
  'rich_text_list',
] as const;

/** Inline elements inside rich_text sections. */
export const RICH_TEXT_INLINE = [
  'text',
  'link',
  'emoji',
  'user',
  'usergroup',
  'channel',
  'broadcast',
  'date',
  'color',
] as const;
