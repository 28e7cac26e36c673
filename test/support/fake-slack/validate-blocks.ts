import {
  ACCESSORY_ELEMENTS,
  ACTIONS_ELEMENTS,
  BLOCK_RULES,
  type BlockIssue,
  INPUT_ELEMENTS,
  KNOWN_BLOCK_TYPES,
  RICH_TEXT_CHILDREN,
  RICH_TEXT_INLINE,
} from './block-rules.js';
import {
  charCount,
  checkArray,
  checkOptionalString,
  checkString,
  checkTextObject,
  checkUniqueId,
  type IdKind,
  IssueList,
  isObjectAt,
  knownType,
} from './composition-checks.js';
import { SLACK_LIMITS } from './slack-limits.js';
import { isJsonObject, type JsonObject } from './types.js';
import { checkElement } from './validate-elements.js';

/** The surface blocks are shown on; some blocks are only valid on some surfaces. */
export type Surface = 'message' | 'modal' | 'home';

/** Formats an issue the way Slack reports it: `message [json-pointer:/path]`. */
export const formatIssue = (issue: BlockIssue): string =>
  `${issue.message} [json-pointer:${issue.path}]`;

/**
 * Validates the `blocks` of a message (chat.postMessage, chat.update, chat.postEphemeral,
 * response_url). Returns every issue found; an empty list means Slack would accept it.
 */
export function validateMessageBlocks(blocks: unknown, basePath = '/blocks'): BlockIssue[] {
  const issues = new IssueList();
  checkBlockList(issues, blocks, basePath, 'message', SLACK_LIMITS.message.blocks);
  return issues.issues;
}

/** Validates a view (views.open/update/push/publish, or a `response_action` view). */
export function validateView(view: unknown, basePath = '/view'): BlockIssue[] {
  const issues = new IssueList();
  if (!isJsonObject(view)) {
    issues.add(BLOCK_RULES.invalidField, basePath, 'must provide an object');
    return issues.issues;
  }
  if (view.type !== 'modal' && view.type !== 'home') {
    issues.add(
      BLOCK_RULES.invalidField,
      `${basePath}/type`,
      `must be "modal" or "home" (got ${JSON.stringify(view.type)})`,
    );
    return issues.issues;
  }
  const surface: Surface = view.type;
  const modal = surface === 'modal';
  checkTextObject(issues, view.title, `${basePath}/title`, {
    max: SLACK_LIMITS.view.title,
    plainOnly: true,
    required: modal,
  });
  checkTextObject(issues, view.submit, `${basePath}/submit`, {
    max: SLACK_LIMITS.view.submit,
    plainOnly: true,
    required: false,
  });
  checkTextObject(issues, view.close, `${basePath}/close`, {
    max: SLACK_LIMITS.view.close,
    plainOnly: true,
    required: false,
  });
  checkOptionalString(
    issues,
    view.private_metadata,
    `${basePath}/private_metadata`,
    SLACK_LIMITS.view.privateMetadata,
  );
  checkOptionalString(
    issues,
    view.callback_id,
    `${basePath}/callback_id`,
    SLACK_LIMITS.view.callbackId,
  );
  checkOptionalString(issues, view.external_id, `${basePath}/external_id`, 255);
  const blocks = checkBlockList(
    issues,
    view.blocks,
    `${basePath}/blocks`,
    surface,
    SLACK_LIMITS.view.blocks,
  );
  const firstInput = blocks?.findIndex((b) => isJsonObject(b) && b.type === 'input') ?? -1;
  if (modal && firstInput >= 0 && view.submit === undefined) {
    issues.add(
      BLOCK_RULES.submitRequired,
      `${basePath}/blocks/${firstInput}`,
      'must define `submit` to use an `input` block in modals',
    );
  }
  return issues.issues;
}

function checkBlockList(
  issues: IssueList,
  blocks: unknown,
  path: string,
  surface: Surface,
  maxBlocks: number,
): unknown[] | undefined {
  if (blocks === undefined) {
    if (surface !== 'message')
      issues.add(BLOCK_RULES.missingField, path, 'missing required field: blocks');
    return undefined;
  }
  if (!Array.isArray(blocks)) {
    issues.add(BLOCK_RULES.invalidField, path, 'must provide an array');
    return undefined;
  }
  if (blocks.length > maxBlocks) {
    issues.add(
      BLOCK_RULES.tooManyBlocks,
      path,
      `no more than ${maxBlocks} items allowed (got ${blocks.length})`,
    );
  }
  const blockIds = new Set<string>();
  let markdownTotal = 0;
  blocks.forEach((block, i) => {
    const blockPath = `${path}/${i}`;
    if (!isObjectAt(issues, block, blockPath)) return;
    checkUniqueId(issues, block, blockPath, BLOCK_ID, blockIds);
    checkBlock(issues, block, blockPath, surface);
    if (block.type === 'markdown' && typeof block.text === 'string') {
      markdownTotal += charCount(block.text);
    }
  });
  if (markdownTotal > SLACK_LIMITS.message.markdownTotal) {
    issues.add(
      BLOCK_RULES.markdownTotalTooLong,
      path,
      `markdown blocks may hold at most ${SLACK_LIMITS.message.markdownTotal} characters in total per message (got ${markdownTotal})`,
    );
  }
  return blocks;
}

const BLOCK_ID: IdKind = {
  field: 'block_id',
  max: SLACK_LIMITS.blockId,
  rule: BLOCK_RULES.duplicateBlockId,
  within: 'a message or view',
};

function checkBlock(issues: IssueList, block: JsonObject, path: string, surface: Surface): void {
  const type = knownType(
    issues,
    block,
    path,
    KNOWN_BLOCK_TYPES,
    'block types',
    BLOCK_RULES.unknownBlockType,
  );
  if (!type) return;
  const actionIds = new Set<string>();
  switch (type) {
    case 'header':
      checkTextObject(issues, block.text, `${path}/text`, {
        max: SLACK_LIMITS.header.text,
        plainOnly: true,
      });
      return;
    case 'divider':
      return;
    case 'section':
      checkSection(issues, block, path, actionIds);
      return;
    case 'context':
      checkContext(issues, block, path);
      return;
    case 'actions': {
      const elements = checkArray(issues, block.elements, `${path}/elements`, {
        min: 1,
        max: SLACK_LIMITS.actions.elements,
      });
      elements?.forEach((element, i) => {
        checkElement(issues, element, `${path}/elements/${i}`, {
          where: 'an actions block',
          allowed: ACTIONS_ELEMENTS,
          actionIds,
        });
      });
      return;
    }
    case 'markdown':
      if (surface !== 'message') {
        issues.add(
          BLOCK_RULES.markdownBlockInView,
          `${path}/type`,
          `unsupported type: markdown (markdown blocks are only supported in messages, not in ${surface} views)`,
        );
      }
      checkString(issues, block.text, `${path}/text`, {
        max: SLACK_LIMITS.markdown.text,
        min: 1,
      });
      return;
    case 'rich_text':
      checkRichText(issues, block, path);
      return;
    case 'input':
      checkInput(issues, block, path, surface, actionIds);
      return;
  }
}

function checkSection(
  issues: IssueList,
  block: JsonObject,
  path: string,
  actionIds: Set<string>,
): void {
  if (block.text === undefined && block.fields === undefined) {
    issues.add(BLOCK_RULES.missingField, path, 'must define either `text` or `fields`');
  }
  checkTextObject(issues, block.text, `${path}/text`, {
    max: SLACK_LIMITS.section.text,
    required: false,
  });
  const fields = checkArray(issues, block.fields, `${path}/fields`, {
    min: 1,
    max: SLACK_LIMITS.section.fields,
    required: false,
  });
  fields?.forEach((field, i) => {
    checkTextObject(issues, field, `${path}/fields/${i}`, {
      max: SLACK_LIMITS.section.fieldText,
    });
  });
  if (block.accessory !== undefined) {
    checkElement(issues, block.accessory, `${path}/accessory`, {
      where: 'a section accessory',
      allowed: ACCESSORY_ELEMENTS,
      actionIds,
    });
  }
}

function checkContext(issues: IssueList, block: JsonObject, path: string): void {
  const elements = checkArray(issues, block.elements, `${path}/elements`, {
    min: 1,
    max: SLACK_LIMITS.context.elements,
  });
  elements?.forEach((element, i) => {
    const elementPath = `${path}/elements/${i}`;
    if (isJsonObject(element) && element.type === 'image') {
      checkElement(issues, element, elementPath, {
        where: 'a context block',
        allowed: ['image'],
        actionIds: new Set(),
      });
      return;
    }
    checkTextObject(issues, element, elementPath, { max: SLACK_LIMITS.text });
  });
}

function checkInput(
  issues: IssueList,
  block: JsonObject,
  path: string,
  surface: Surface,
  actionIds: Set<string>,
): void {
  if (surface === 'message') {
    issues.add(
      BLOCK_RULES.inputBlockInMessage,
      `${path}/type`,
      'input blocks are not allowed in messages by this project (they misbehave on mobile); collect free text in a modal',
    );
  }
  checkTextObject(issues, block.label, `${path}/label`, {
    max: SLACK_LIMITS.input.label,
    plainOnly: true,
  });
  checkTextObject(issues, block.hint, `${path}/hint`, {
    max: SLACK_LIMITS.input.hint,
    plainOnly: true,
    required: false,
  });
  if (block.optional !== undefined && typeof block.optional !== 'boolean') {
    issues.add(BLOCK_RULES.invalidField, `${path}/optional`, 'must be a boolean');
  }
  if (block.element === undefined) {
    issues.add(BLOCK_RULES.missingField, path, 'missing required field: element');
    return;
  }
  checkElement(issues, block.element, `${path}/element`, {
    where: 'an input block',
    allowed: INPUT_ELEMENTS,
    actionIds,
  });
}

function checkRichText(issues: IssueList, block: JsonObject, path: string): void {
  const children = checkArray(issues, block.elements, `${path}/elements`, { min: 1, max: 100 });
  children?.forEach((child, i) => {
    checkRichTextChild(issues, child, `${path}/elements/${i}`);
  });
}

function checkRichTextChild(issues: IssueList, child: unknown, path: string): void {
  if (!isObjectAt(issues, child, path)) return;
  const type = knownType(issues, child, path, RICH_TEXT_CHILDREN, 'rich_text elements');
  if (!type) return;
  const items = checkArray(issues, child.elements, `${path}/elements`, { max: 1000 });
  if (type === 'rich_text_list') {
    if (child.style !== 'bullet' && child.style !== 'ordered') {
      issues.add(BLOCK_RULES.invalidField, `${path}/style`, 'must be "bullet" or "ordered"');
    }
    items?.forEach((item, i) => {
      const itemPath = `${path}/elements/${i}`;
      if (!isJsonObject(item) || item.type !== 'rich_text_section') {
        issues.add(BLOCK_RULES.invalidField, itemPath, 'list items must be rich_text_section');
        return;
      }
      checkRichTextChild(issues, item, itemPath);
    });
    return;
  }
  items?.forEach((item, i) => {
    checkInline(issues, item, `${path}/elements/${i}`);
  });
}

function checkInline(issues: IssueList, item: unknown, path: string): void {
  if (!isObjectAt(issues, item, path)) return;
  if (!knownType(issues, item, path, RICH_TEXT_INLINE, 'inline elements')) return;
  if (item.type === 'text') {
    checkString(issues, item.text, `${path}/text`, { max: SLACK_LIMITS.markdown.text });
  }
  if (item.type === 'link') checkString(issues, item.url, `${path}/url`, { max: 3000, min: 1 });
}
