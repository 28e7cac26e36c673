import { parseBlockId } from '../../src/core/slack/controls/ids.js';
import { readableMarkdown } from './readable-markdown.js';
import { type ReadingContext, readableMrkdwn } from './readable-mrkdwn.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A text object (`plain_text` or `mrkdwn`) as a person reads it. */
function textOf(value: unknown, context: ReadingContext): string {
  if (!isObject(value)) return '';
  const text = str(value.text);
  return value.type === 'mrkdwn' ? readableMrkdwn(text, context) : text;
}

const optionLabel = (option: Json, context: ReadingContext) => textOf(option.text, context);

/** The values of the options an element shows as chosen. */
function chosenValues(element: Json): Set<string> {
  const one = isObject(element.initial_option) ? [element.initial_option] : [];
  return new Set([...one, ...objects(element.initial_options)].map((o) => str(o.value)));
}

/**
 * One interactive element as lines: buttons as `[ label ]`, radio buttons and checkboxes one
 * option a line with their mark, selects as a box showing the current choice.
 */
function elementLines(element: Json, context: ReadingContext): string[] {
  const chosen = chosenValues(element);
  const options = objects(element.options);
  switch (element.type) {
    case 'button':
      return [`[ ${textOf(element.text, context)} ]`];
    case 'radio_buttons':
      return options.map(
        (o) => `${chosen.has(str(o.value)) ? '(•)' : '( )'} ${optionLabel(o, context)}`,
      );
    case 'checkboxes':
      return options.map(
        (o) => `${chosen.has(str(o.value)) ? '[x]' : '[ ]'} ${optionLabel(o, context)}`,
      );
    case 'static_select':
    case 'multi_static_select':
    case 'external_select':
    case 'multi_external_select':
    case 'users_select':
    case 'multi_users_select':
    case 'conversations_select':
    case 'channels_select': {
      const picked = [
        ...(isObject(element.initial_option) ? [element.initial_option] : []),
        ...objects(element.initial_options),
      ].map((o) => optionLabel(o, context));
      const shown = picked.length > 0 ? picked.join(', ') : textOf(element.placeholder, context);
      const count = options.length > 0 ? ` (${options.length} options)` : '';
      return [`[ ${shown || 'choose'} ▾ ]${count}`];
    }
    case 'overflow':
      return ['[ ⋯ ]'];
    case 'plain_text_input':
      return [`[ ${str(element.initial_value) || '…'} ]`];
    default:
      return [`[ ${str(element.type)} ]`];
  }
}

/** Elements side by side when each is one line (a row of buttons), else one after another. */
function elementsLines(elements: Json[], context: ReadingContext): string[] {
  const each = elements.map((e) => elementLines(e, context));
  return each.every((lines) => lines.length === 1) ? [each.flat().join('  ')] : each.flat();
}

/** The text of a rich_text block; a preformatted part is fenced so its spacing shows. */
function richTextLines(block: Json): string[] {
  return objects(block.elements).flatMap((part) => {
    const text = objects(part.elements)
      .map((leaf) => str(leaf.text) || (leaf.type === 'user' ? `@${str(leaf.user_id)}` : ''))
      .join('');
    return part.type === 'rich_text_preformatted' ? ['```', ...text.split('\n'), '```'] : [text];
  });
}

function blockLines(block: Json, context: ReadingContext): string[] {
  switch (block.type) {
    case 'header': {
      const text = textOf(block.text, context);
      return [text, '═'.repeat([...text].length)];
    }
    case 'context':
      return [
        objects(block.elements)
          .map((e) => (e.type === 'image' ? `[image: ${str(e.alt_text)}]` : textOf(e, context)))
          .join('  '),
      ];
    case 'section':
      return [
        ...(block.text ? textOf(block.text, context).split('\n') : []),
        ...objects(block.fields).map((f) => textOf(f, context)),
        ...(isObject(block.accessory) ? elementLines(block.accessory, context) : []),
      ];
    case 'actions':
      return elementsLines(objects(block.elements), context);
    case 'markdown':
      return readableMarkdown(str(block.text));
    case 'rich_text':
      return richTextLines(block);
    case 'divider':
      return ['───'];
    case 'image':
      return [`[image: ${str(block.alt_text)}]`];
    case 'input':
      return [
        textOf(block.label, context),
        ...(isObject(block.element) ? elementLines(block.element, context) : []),
      ];
    default:
      return [`[${str(block.type)} block]`];
  }
}

/** Blocks that sit right under the one before (a prompt's control, a note); others get a blank line. */
const ATTACHED = new Set(['actions', 'context']);

/** Drawn between two questions, so a question's preview does not read as the last one's. */
export const QUESTION_RULE = '· · ·';

/**
 * Where a new question starts: the first block after a question's control (a block the relay
 * gave that question's id) that is not a note or a button row under it (a context or actions
 * block) and not the Submit row. A question's previews come before its prompt, so they start it.
 */
function questionStarts(blocks: readonly Json[]): Set<number> {
  const starts = new Set<number>();
  let after: number | undefined;
  blocks.forEach((block, index) => {
    const id = parseBlockId(str(block.block_id));
    const question = id && 'questionIndex' in id ? id.questionIndex : undefined;
    if (after !== undefined && question !== after && !ATTACHED.has(str(block.type))) {
      if (!id || !('submit' in id)) starts.add(index);
      after = undefined;
    }
    // a preview's own button (the full preview) comes before its question's prompt
    if (question !== undefined && !(id && 'role' in id && id.role === 'preview')) after = question;
  });
  return starts;
}

/**
 * A Block Kit message as plain text lines, close to what Slack shows: the header underlined,
 * context and text as written (mrkdwn and Markdown without their marks, dates as `reading`
 * says), each control with its current selection, the buttons, and a rule between questions.
 */
export function messageText(
  message: { blocks: readonly Record<string, unknown>[] },
  context: ReadingContext = {},
): string[] {
  const blocks = message.blocks.filter(isObject);
  const starts = questionStarts(blocks);
  return blocks.flatMap((block, index) => [
    ...(starts.has(index) ? ['', QUESTION_RULE] : []),
    ...(index > 0 && !ATTACHED.has(str(block.type)) ? [''] : []),
    ...blockLines(block, context),
  ]);
}

/** The lines of `after` that `before` does not have (each line of `before` matches once). */
export function changedLines(before: readonly string[], after: readonly string[]): string[] {
  const unmatched = new Map<string, number>();
  for (const line of before) unmatched.set(line, (unmatched.get(line) ?? 0) + 1);
  return after.filter((line) => {
    const left = unmatched.get(line) ?? 0;
    if (left > 0) unmatched.set(line, left - 1);
    return left === 0 && line.trim() !== '';
  });
}
