import { BLOCK_RULES, type BlockIssue, type BlockRule } from './block-rules.js';
import { SLACK_LIMITS } from './slack-limits.js';
import { isJsonObject, type JsonObject } from './types.js';

/** Collects issues while walking a payload. */
export class IssueList {
  readonly issues: BlockIssue[] = [];

  /** Records one issue. */
  add(rule: BlockRule, path: string, message: string): void {
    this.issues.push({ rule, path, message });
  }
}

/** Counts characters the way a person would (code points), so emoji are not counted twice. */
export const charCount = (text: string): number => [...text].length;

interface TextOptions {
  max: number;
  plainOnly?: boolean;
  required?: boolean;
}

/** True when `value` is an object; otherwise records at `path` that one was needed. */
export function isObjectAt(issues: IssueList, value: unknown, path: string): value is JsonObject {
  if (isJsonObject(value)) return true;
  issues.add(BLOCK_RULES.invalidField, path, 'must provide an object');
  return false;
}

/**
 * The `type` of `object` when it is one of `known`; otherwise records an unsupported type that
 * lists the known `kind` (e.g. "block types") and returns undefined.
 */
export function knownType<T extends string>(
  issues: IssueList,
  object: JsonObject,
  path: string,
  known: readonly T[],
  kind: string,
  rule: BlockRule = BLOCK_RULES.unknownElementType,
): T | undefined {
  const type = object.type;
  if (typeof type === 'string' && (known as readonly string[]).includes(type)) return type as T;
  issues.add(
    rule,
    `${path}/type`,
    `unsupported type: ${String(type)} (known ${kind}: ${known.join(', ')})`,
  );
  return undefined;
}

/** How one kind of id is checked: its field, its length limit, its rule, and where it must be unique. */
export interface IdKind {
  field: 'block_id' | 'action_id';
  max: number;
  rule: BlockRule;
  /** e.g. "a block" */
  within: string;
}

/** Checks the optional id `kind.field` of `object` and that `seen` does not hold it yet; adds it. */
export function checkUniqueId(
  issues: IssueList,
  object: JsonObject,
  path: string,
  kind: IdKind,
  seen: Set<string>,
): void {
  const id = object[kind.field];
  if (id === undefined) return;
  checkString(issues, id, `${path}/${kind.field}`, { max: kind.max, min: 1 });
  if (typeof id !== 'string') return;
  if (seen.has(id)) {
    issues.add(
      kind.rule,
      `${path}/${kind.field}`,
      `duplicate ${kind.field} "${id}": ${kind.field}s must be unique within ${kind.within}`,
    );
  }
  seen.add(id);
}

/** True when `value` is absent; records it as missing when it was `required` (the default). */
function isAbsent(issues: IssueList, value: unknown, path: string, required?: boolean): boolean {
  if (value !== undefined) return false;
  if (required !== false) {
    issues.add(BLOCK_RULES.missingField, path, `missing required field: ${lastSegment(path)}`);
  }
  return true;
}

/** Checks a text object (`{ type: 'plain_text' | 'mrkdwn', text }`) at `path`. */
export function checkTextObject(
  issues: IssueList,
  value: unknown,
  path: string,
  options: TextOptions,
): void {
  if (isAbsent(issues, value, path, options.required)) return;
  if (!isObjectAt(issues, value, path)) return;
  const allowed = options.plainOnly ? ['plain_text'] : ['plain_text', 'mrkdwn'];
  if (typeof value.type !== 'string' || !allowed.includes(value.type)) {
    issues.add(
      BLOCK_RULES.invalidField,
      `${path}/type`,
      options.plainOnly
        ? `must be a plain_text text object (got ${JSON.stringify(value.type)})`
        : `must be a plain_text or mrkdwn text object (got ${JSON.stringify(value.type)})`,
    );
  }
  checkString(issues, value.text, `${path}/text`, { max: options.max, min: 1 });
}

interface StringOptions {
  max: number;
  min?: number;
  required?: boolean;
}

/** Checks a plain string field's presence and length. */
export function checkString(
  issues: IssueList,
  value: unknown,
  path: string,
  options: StringOptions,
): void {
  if (isAbsent(issues, value, path, options.required)) return;
  if (typeof value !== 'string') {
    issues.add(BLOCK_RULES.invalidField, path, `must provide a string (got ${typeof value})`);
    return;
  }
  const length = charCount(value);
  if (options.min !== undefined && length < options.min) {
    issues.add(BLOCK_RULES.emptyText, path, `must be more than ${options.min - 1} characters`);
  }
  if (length > options.max) {
    issues.add(
      BLOCK_RULES.tooLong,
      path,
      `must be less than ${options.max + 1} characters (got ${length})`,
    );
  }
}

/** Checks an optional string field: only its type and length when present. */
export const checkOptionalString = (
  issues: IssueList,
  value: unknown,
  path: string,
  max: number,
): void => checkString(issues, value, path, { max, required: false });

/**
 * Checks that `value` is an array with between `min` and `max` items and returns it
 * (or `undefined` when it is absent or not an array).
 */
export function checkArray(
  issues: IssueList,
  value: unknown,
  path: string,
  limits: { min?: number; max: number; required?: boolean },
): unknown[] | undefined {
  if (isAbsent(issues, value, path, limits.required)) return undefined;
  if (!Array.isArray(value)) {
    issues.add(BLOCK_RULES.invalidField, path, 'must provide an array');
    return undefined;
  }
  if (limits.min !== undefined && value.length < limits.min) {
    issues.add(BLOCK_RULES.tooFewItems, path, `must provide at least ${limits.min} items`);
  }
  if (value.length > limits.max) {
    issues.add(
      BLOCK_RULES.tooManyItems,
      path,
      `no more than ${limits.max} items allowed (got ${value.length})`,
    );
  }
  return value;
}

export interface OptionShape {
  /** checkboxes and radio buttons allow mrkdwn option text; selects and overflow do not */
  plainOnly: boolean;
  allowUrl?: boolean;
}

/** Checks one option object (`{ text, value, description? }`). */
export function checkOption(
  issues: IssueList,
  value: unknown,
  path: string,
  shape: OptionShape,
): void {
  if (!isObjectAt(issues, value, path)) return;
  checkTextObject(issues, value.text, `${path}/text`, {
    max: SLACK_LIMITS.option.text,
    plainOnly: shape.plainOnly,
  });
  checkString(issues, value.value, `${path}/value`, {
    max: SLACK_LIMITS.option.value,
    min: 1,
  });
  checkTextObject(issues, value.description, `${path}/description`, {
    max: SLACK_LIMITS.option.description,
    plainOnly: shape.plainOnly,
    required: false,
  });
  if (shape.allowUrl) checkOptionalString(issues, value.url, `${path}/url`, 3000);
}

/** Checks a confirmation dialog object. */
export function checkConfirm(issues: IssueList, value: unknown, path: string): void {
  if (value === undefined) return;
  if (!isObjectAt(issues, value, path)) return;
  checkTextObject(issues, value.title, `${path}/title`, {
    max: SLACK_LIMITS.confirm.title,
    plainOnly: true,
  });
  checkTextObject(issues, value.text, `${path}/text`, { max: SLACK_LIMITS.confirm.text });
  checkTextObject(issues, value.confirm, `${path}/confirm`, {
    max: SLACK_LIMITS.confirm.button,
    plainOnly: true,
  });
  checkTextObject(issues, value.deny, `${path}/deny`, {
    max: SLACK_LIMITS.confirm.button,
    plainOnly: true,
  });
  if (value.style !== undefined && value.style !== 'primary' && value.style !== 'danger') {
    issues.add(BLOCK_RULES.invalidField, `${path}/style`, 'must be "primary" or "danger"');
  }
}

/** True when two option objects denote the same choice (same value, same visible text). */
export function sameOption(a: unknown, b: unknown): boolean {
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const textOf = (o: JsonObject) => (isJsonObject(o.text) ? o.text.text : undefined);
  return a.value === b.value && textOf(a) === textOf(b);
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
