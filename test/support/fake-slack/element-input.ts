import { SLACK_LIMITS } from './slack-limits.js';
import { isJsonObject, type JsonObject } from './types.js';

/** The options of a static element, flattening option_groups. */
export function optionsOf(element: JsonObject): JsonObject[] {
  if (Array.isArray(element.option_groups)) {
    return element.option_groups
      .filter(isJsonObject)
      .flatMap((group) => (Array.isArray(group.options) ? group.options.filter(isJsonObject) : []));
  }
  return Array.isArray(element.options) ? element.options.filter(isJsonObject) : [];
}

/** What the user's client can offer for an element beyond its own options. */
export interface InputContext {
  /** options the app returned for an external select (from the last block_suggestion) */
  offered: readonly JsonObject[] | undefined;
  userExists(id: string): boolean;
  /** names the element in error messages */
  describe: string;
}

const valuesOf = (options: readonly JsonObject[]) => options.map((o) => JSON.stringify(o.value));

function pick(
  options: readonly JsonObject[],
  value: string,
  ctx: InputContext,
  hint = '',
): JsonObject {
  const found = options.find((o) => o.value === value);
  if (!found) {
    throw new Error(
      `${ctx.describe}: no option with value ${JSON.stringify(value)}; the user can pick one of [${valuesOf(options).join(', ')}]${hint}`,
    );
  }
  return structuredClone(found);
}

/** Options the user can choose from for an external select: offered ones and the initial ones. */
function externalChoices(element: JsonObject, ctx: InputContext): JsonObject[] {
  const initial = [
    ...(isJsonObject(element.initial_option) ? [element.initial_option] : []),
    ...(Array.isArray(element.initial_options) ? element.initial_options.filter(isJsonObject) : []),
  ];
  return [...(ctx.offered ?? []), ...initial];
}

const EXTERNAL_HINT = ' (external selects offer what the app answered to the last suggest() call)';

function asList(raw: unknown, ctx: InputContext): string[] {
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) {
    throw new Error(`${ctx.describe}: expected an array of strings, got ${JSON.stringify(raw)}`);
  }
  return raw as string[];
}

function asString(raw: unknown, ctx: InputContext): string {
  if (typeof raw !== 'string') {
    throw new Error(`${ctx.describe}: expected a string, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

function checkMaxSelected(element: JsonObject, count: number, ctx: InputContext): void {
  const max = element.max_selected_items;
  if (typeof max === 'number' && count > max) {
    throw new Error(
      `${ctx.describe}: the client lets the user pick at most ${max} items, not ${count}`,
    );
  }
}

/**
 * Turns what a test says the user entered into the element value Slack reports in
 * `state.values`, refusing anything the user's client would not allow.
 */
export function elementValueFromUser(
  element: JsonObject,
  raw: unknown,
  ctx: InputContext,
): JsonObject {
  const type = element.type;
  switch (type) {
    case 'static_select':
    case 'radio_buttons':
      return { type, selected_option: pick(optionsOf(element), asString(raw, ctx), ctx) };
    case 'external_select':
      return {
        type,
        selected_option: pick(
          externalChoices(element, ctx),
          asString(raw, ctx),
          ctx,
          EXTERNAL_HINT,
        ),
      };
    case 'multi_static_select':
    case 'checkboxes': {
      const values = asList(raw, ctx);
      checkMaxSelected(element, values.length, ctx);
      return { type, selected_options: values.map((v) => pick(optionsOf(element), v, ctx)) };
    }
    case 'multi_external_select': {
      const values = asList(raw, ctx);
      checkMaxSelected(element, values.length, ctx);
      const choices = externalChoices(element, ctx);
      return { type, selected_options: values.map((v) => pick(choices, v, ctx, EXTERNAL_HINT)) };
    }
    case 'users_select': {
      const id = asString(raw, ctx);
      if (!ctx.userExists(id)) throw new Error(`${ctx.describe}: no user ${id} in the workspace`);
      return { type, selected_user: id };
    }
    case 'multi_users_select': {
      const ids = asList(raw, ctx);
      checkMaxSelected(element, ids.length, ctx);
      const unknown = ids.filter((id) => !ctx.userExists(id));
      if (unknown.length > 0) {
        throw new Error(`${ctx.describe}: no users ${unknown.join(', ')} in the workspace`);
      }
      return { type, selected_users: ids };
    }
    case 'plain_text_input': {
      const text = asString(raw, ctx);
      const min = typeof element.min_length === 'number' ? element.min_length : 0;
      const max =
        typeof element.max_length === 'number'
          ? element.max_length
          : SLACK_LIMITS.plainTextInput.maxLength;
      if (text.length > 0 && text.length < min) {
        throw new Error(`${ctx.describe}: the client requires at least ${min} characters`);
      }
      if (text.length > max) {
        throw new Error(`${ctx.describe}: the client allows at most ${max} characters`);
      }
      return { type, value: text === '' ? null : text };
    }
    default:
      throw new Error(`${ctx.describe}: a ${String(type)} element holds no value the user can set`);
  }
}
