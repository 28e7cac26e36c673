// Walks rendered messages and modals and lists every Block Kit limit they break, plus the
// relay's own rules: the message budget (text, and text plus a cost per block), unique block
// ids, and no unescaped agent text.
import { BLOCK_KIT_LIMITS as L } from '../../../src/core/slack/block-kit-limits.js';
import {
  BLOCK_COST,
  type BlockSize,
  MESSAGE_BUDGET,
} from '../../../src/core/slack/message-budget.js';

type Json = Record<string, unknown>;
type Problems = string[];

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Tokens the relay writes itself: a user mention and a localised date.
const ALLOWED_TOKENS = /<@[UWB][A-Z0-9]+>|<!date\^\d+\^\{date_short_pretty\} at \{time\}\|[^<>]+>/g;

/** Mrkdwn with agent text must have no `<` left (tokens) and every `&` escaped. */
function checkMrkdwnEscaped(text: string, path: string, problems: Problems): void {
  const rest = text.replace(ALLOWED_TOKENS, '');
  if (rest.includes('<')) problems.push(`${path}: unescaped "<" in mrkdwn: ${rest.slice(0, 80)}`);
  if (/&(?!amp;|lt;|gt;)/.test(rest)) problems.push(`${path}: unescaped "&" in mrkdwn`);
}

function checkText(
  value: unknown,
  path: string,
  max: number,
  problems: Problems,
  plainOnly = false,
) {
  if (!isObject(value)) return void problems.push(`${path}: missing text object`);
  const { type, text } = value;
  if (type !== 'plain_text' && type !== 'mrkdwn') problems.push(`${path}: bad text type ${type}`);
  if (plainOnly && type !== 'plain_text') problems.push(`${path}: must be plain_text`);
  if (typeof text !== 'string' || text.length === 0)
    return void problems.push(`${path}: empty text`);
  if (text.length > max) problems.push(`${path}: text ${text.length} > ${max}`);
  if (type === 'mrkdwn') checkMrkdwnEscaped(text, path, problems);
}

function checkOption(option: unknown, path: string, problems: Problems): void {
  if (!isObject(option)) return void problems.push(`${path}: not an option`);
  checkText(option.text, `${path}.text`, L.optionText, problems, true);
  const value = option.value;
  if (typeof value !== 'string' || value.length === 0 || value.length > L.optionValue) {
    problems.push(`${path}: bad option value ${JSON.stringify(value)}`);
  }
}

function checkElement(element: unknown, path: string, problems: Problems, actionIds: string[]) {
  if (!isObject(element)) return void problems.push(`${path}: not an element`);
  const id = element.action_id;
  if (typeof id !== 'string' || id.length === 0 || id.length > L.actionId) {
    problems.push(`${path}: bad action_id`);
  } else actionIds.push(id);
  const options = element.options;
  const optionList = Array.isArray(options) ? options : [];
  for (const [i, o] of optionList.entries()) checkOption(o, `${path}.options[${i}]`, problems);
  const values = new Set(optionList.map((o) => (isObject(o) ? o.value : undefined)));
  const initial = [
    ...(element.initial_option ? [element.initial_option] : []),
    ...(Array.isArray(element.initial_options) ? element.initial_options : []),
  ];
  if (Array.isArray(element.initial_options) && element.initial_options.length === 0) {
    problems.push(`${path}: empty initial_options`);
  }
  for (const o of initial) {
    checkOption(o, `${path}.initial`, problems);
    const external = String(element.type).includes('external');
    if (!external && isObject(o) && !values.has(o.value))
      problems.push(`${path}: initial not in options`);
  }
  if (element.placeholder !== undefined) {
    checkText(element.placeholder, `${path}.placeholder`, L.selectPlaceholder, problems, true);
  }
  const count = optionList.length;
  switch (element.type) {
    case 'button':
      checkText(element.text, `${path}.text`, L.buttonText, problems, true);
      if (typeof element.value === 'string' && element.value.length > L.buttonValue) {
        problems.push(`${path}: button value too long`);
      }
      if (
        element.style !== undefined &&
        element.style !== 'primary' &&
        element.style !== 'danger'
      ) {
        problems.push(`${path}: bad style`);
      }
      break;
    case 'radio_buttons':
      if (count < 1 || count > L.radioOptions) problems.push(`${path}: ${count} radio options`);
      break;
    case 'checkboxes':
      if (count < 1 || count > L.checkboxOptions) problems.push(`${path}: ${count} checkboxes`);
      break;
    case 'static_select':
    case 'multi_static_select':
      if (count < 1 || count > L.selectOptions) problems.push(`${path}: ${count} select options`);
      break;
    case 'external_select':
    case 'multi_external_select':
      if (options !== undefined) problems.push(`${path}: external select with options`);
      break;
    case 'plain_text_input': {
      const max = element.max_length;
      if (typeof max === 'number' && max > L.plainTextInputMax)
        problems.push(`${path}: max_length`);
      const initialValue = element.initial_value;
      if (
        typeof initialValue === 'string' &&
        initialValue.length > (typeof max === 'number' ? max : L.plainTextInputMax)
      ) {
        problems.push(`${path}: initial_value longer than max_length`);
      }
      break;
    }
    default:
      problems.push(`${path}: unexpected element type ${element.type}`);
  }
}

function checkRichText(value: unknown, path: string, problems: Problems): void {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) checkRichText(v, `${path}[${i}]`, problems);
    return;
  }
  if (!isObject(value)) return;
  if (value.type === 'text' && (typeof value.text !== 'string' || value.text.length === 0)) {
    problems.push(`${path}: empty rich text`);
  }
  if (value.elements !== undefined) {
    if (!Array.isArray(value.elements) || value.elements.length === 0)
      problems.push(`${path}: no elements`);
    checkRichText(value.elements, `${path}.elements`, problems);
  }
}

function checkBlock(block: unknown, path: string, problems: Problems, actionIds: string[]) {
  if (!isObject(block)) return void problems.push(`${path}: not a block`);
  const blockId = block.block_id;
  if (blockId !== undefined && (typeof blockId !== 'string' || blockId.length > L.blockId)) {
    problems.push(`${path}: bad block_id`);
  }
  switch (block.type) {
    case 'header':
      checkText(block.text, `${path}.text`, L.headerText, problems, true);
      break;
    case 'section':
      if (block.text === undefined && block.fields === undefined)
        problems.push(`${path}: empty section`);
      if (block.text !== undefined) checkText(block.text, `${path}.text`, L.sectionText, problems);
      if (block.accessory !== undefined)
        checkElement(block.accessory, `${path}.accessory`, problems, actionIds);
      break;
    case 'context': {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      if (elements.length < 1 || elements.length > L.contextElements)
        problems.push(`${path}: context size`);
      for (const [i, e] of elements.entries())
        checkText(e, `${path}.elements[${i}]`, L.text, problems);
      break;
    }
    case 'actions': {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      if (elements.length < 1 || elements.length > L.actionsElements)
        problems.push(`${path}: actions size`);
      const before = actionIds.length;
      for (const [i, e] of elements.entries())
        checkElement(e, `${path}.elements[${i}]`, problems, actionIds);
      const here = actionIds.slice(before);
      if (new Set(here).size !== here.length) problems.push(`${path}: action ids repeat in block`);
      break;
    }
    case 'markdown':
      if (
        typeof block.text !== 'string' ||
        block.text.length < 1 ||
        block.text.length > L.markdownText
      ) {
        problems.push(`${path}: markdown length`);
      }
      break;
    case 'rich_text':
      checkRichText(block.elements, `${path}.elements`, problems);
      if (!Array.isArray(block.elements) || block.elements.length === 0)
        problems.push(`${path}: empty rich_text`);
      break;
    case 'input':
      checkText(block.label, `${path}.label`, L.inputLabel, problems, true);
      if (block.hint !== undefined)
        checkText(block.hint, `${path}.hint`, L.inputHint, problems, true);
      checkElement(block.element, `${path}.element`, problems, actionIds);
      break;
    case 'divider':
      break;
    default:
      problems.push(`${path}: unexpected block type ${block.type}`);
  }
}

/** Sum of every `text` string, skipping initial selections (as the renderer's budget does). */
export function textTotal(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + textTotal(v), 0);
  if (!isObject(value)) return 0;
  let sum = 0;
  for (const [name, child] of Object.entries(value)) {
    if (name === 'initial_option' || name === 'initial_options') continue;
    sum += name === 'text' && typeof child === 'string' ? child.length : textTotal(child);
  }
  return sum;
}

function checkBlocks(blocks: unknown[], maxBlocks: number, problems: Problems): void {
  if (blocks.length === 0) problems.push('no blocks');
  if (blocks.length > maxBlocks) problems.push(`${blocks.length} blocks > ${maxBlocks}`);
  const actionIds: string[] = [];
  for (const [i, b] of blocks.entries()) checkBlock(b, `blocks[${i}]`, problems, actionIds);
  const blockIds = blocks.flatMap((b) =>
    isObject(b) && typeof b.block_id === 'string' ? [b.block_id] : [],
  );
  if (new Set(blockIds).size !== blockIds.length) problems.push('block ids repeat');
  if (new Set(actionIds).size !== actionIds.length) problems.push('action ids repeat');
}

/**
 * Problems with a message; empty when it is fine. `budget` is what the message may hold: the
 * relay's first layout by default, a smaller one for a batch Slack refused as too long.
 */
export function messageProblems(
  message: { text: string; blocks: unknown[] },
  budget: BlockSize = MESSAGE_BUDGET,
): string[] {
  const problems: Problems = [];
  if (message.text.length === 0 || message.text.length > L.messageText)
    problems.push('bad message text');
  checkMrkdwnEscaped(message.text, 'text', problems);
  checkBlocks(message.blocks, Math.min(L.messageBlocks, budget.blocks), problems);
  const markdown = message.blocks.reduce(
    (sum: number, b) => sum + (isObject(b) && b.type === 'markdown' ? String(b.text).length : 0),
    0,
  );
  const markdownMax = Math.min(L.markdownTotalPerMessage, budget.markdown);
  if (markdown > markdownMax) problems.push(`markdown total ${markdown} > ${markdownMax}`);
  const text = textTotal(message.blocks);
  if (text > budget.text) problems.push(`text total ${text} > ${budget.text}`);
  // Slack's ceiling counts each block as well as the text (see BLOCK_COST)
  const weight = text + BLOCK_COST * message.blocks.length;
  if (weight > budget.weight) problems.push(`text plus block costs ${weight} > ${budget.weight}`);
  return problems;
}

/** Problems with a modal view; empty when it is fine. */
export function modalProblems(view: Json): string[] {
  const problems: Problems = [];
  if (view.type !== 'modal') problems.push('not a modal');
  checkText(view.title, 'title', L.viewTitle, problems, true);
  checkText(view.close, 'close', L.viewClose, problems, true);
  if (view.submit !== undefined) checkText(view.submit, 'submit', L.viewSubmit, problems, true);
  const callback = view.callback_id;
  if (typeof callback !== 'string' || callback.length > L.viewCallbackId)
    problems.push('callback_id');
  const metadata = view.private_metadata;
  if (typeof metadata !== 'string' || metadata.length > L.privateMetadata)
    problems.push('private_metadata');
  const blocks = Array.isArray(view.blocks) ? view.blocks : [];
  checkBlocks(blocks, L.modalBlocks, problems);
  if (blocks.some((b) => isObject(b) && b.type === 'markdown'))
    problems.push('markdown block in modal');
  return problems;
}
