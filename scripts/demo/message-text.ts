import { readableMrkdwn } from './readable-mrkdwn.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The user names `<@U…>` mentions are shown with. */
export type UserNames = Readonly<Record<string, string>>;

/** A text object (`plain_text` or `mrkdwn`) as a person reads it. */
function textOf(value: unknown, names: UserNames): string {
  if (!isObject(value)) return '';
  const text = str(value.text);
  return value.type === 'mrkdwn' ? readableMrkdwn(text, names) : text;
}

const optionLabel = (option: Json, names: UserNames) => textOf(option.text, names);

/** The values of the options an element shows as chosen. */
function chosenValues(element: Json): Set<string> {
  const one = isObject(element.initial_option) ? [element.initial_option] : [];
  return new Set([...one, ...objects(element.initial_options)].map((o) => str(o.value)));
}

/**
 * One interactive element as lines: buttons as `[ label ]`, radio buttons and checkboxes one
 * option a line with their mark, selects as a box showing the current choice.
 */
function elementLines(element: Json, names: UserNames): string[] {
  const chosen = chosenValues(element);
  const options = objects(element.options);
  switch (element.type) {
    case 'button':
      return [`[ ${textOf(element.text, names)} ]`];
    case 'radio_buttons':
      return options.map(
        (o) => `${chosen.has(str(o.value)) ? '(•)' : '( )'} ${optionLabel(o, names)}`,
      );
    case 'checkboxes':
      return options.map(
        (o) => `${chosen.has(str(o.value)) ? '[x]' : '[ ]'} ${optionLabel(o, names)}`,
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
      ].map((o) => optionLabel(o, names));
      const shown = picked.length > 0 ? picked.join(', ') : textOf(element.placeholder, names);
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
function elementsLines(elements: Json[], names: UserNames): string[] {
  const each = elements.map((e) => elementLines(e, names));
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

function blockLines(block: Json, names: UserNames): string[] {
  switch (block.type) {
    case 'header': {
      const text = textOf(block.text, names);
      return [text, '═'.repeat([...text].length)];
    }
    case 'context':
      return [
        objects(block.elements)
          .map((e) => (e.type === 'image' ? `[image: ${str(e.alt_text)}]` : textOf(e, names)))
          .join('  '),
      ];
    case 'section':
      return [
        ...(block.text ? textOf(block.text, names).split('\n') : []),
        ...objects(block.fields).map((f) => textOf(f, names)),
        ...(isObject(block.accessory) ? elementLines(block.accessory, names) : []),
      ];
    case 'actions':
      return elementsLines(objects(block.elements), names);
    case 'markdown':
      return str(block.text).split('\n');
    case 'rich_text':
      return richTextLines(block);
    case 'divider':
      return ['───'];
    case 'image':
      return [`[image: ${str(block.alt_text)}]`];
    case 'input':
      return [
        textOf(block.label, names),
        ...(isObject(block.element) ? elementLines(block.element, names) : []),
      ];
    default:
      return [`[${str(block.type)} block]`];
  }
}

/** Blocks that sit right under the one before (a prompt's control, a note); others get a blank line. */
const ATTACHED = new Set(['actions', 'context']);

/**
 * A Block Kit message as plain text lines, close to what Slack shows: the header underlined,
 * context and text as written (mrkdwn made readable), each control with its current
 * selection, and the buttons. Markdown is shown as its source; Slack would format it.
 */
export function messageText(
  message: { blocks: readonly Record<string, unknown>[] },
  names: UserNames = {},
): string[] {
  return message.blocks
    .filter(isObject)
    .flatMap((block, index) => [
      ...(index > 0 && !ATTACHED.has(str(block.type)) ? [''] : []),
      ...blockLines(block, names),
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
