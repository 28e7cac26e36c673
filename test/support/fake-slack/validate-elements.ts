import { BLOCK_RULES, KNOWN_ELEMENT_TYPES, type KnownElementType } from './block-rules.js';
import {
  checkArray,
  checkConfirm,
  checkOption,
  checkOptionalString,
  checkString,
  checkTextObject,
  checkUniqueId,
  type IdKind,
  type IssueList,
  isObjectAt,
  knownType,
  type OptionShape,
  sameOption,
} from './composition-checks.js';
import { SLACK_LIMITS } from './slack-limits.js';
import type { JsonObject } from './types.js';

/** Where an element sits, for the messages and for duplicate action_id detection. */
export interface ElementSite {
  /** e.g. "an actions block" */
  where: string;
  allowed: readonly KnownElementType[];
  /** action_ids already used in the enclosing block */
  actionIds: Set<string>;
}

/** Checks one interactive or display element at `path`. */
export function checkElement(
  issues: IssueList,
  value: unknown,
  path: string,
  site: ElementSite,
): void {
  if (!isObjectAt(issues, value, path)) return;
  const known = knownType(issues, value, path, KNOWN_ELEMENT_TYPES, 'element types');
  if (!known) return;
  if (!site.allowed.includes(known)) {
    issues.add(
      BLOCK_RULES.elementNotAllowedHere,
      `${path}/type`,
      `${known} is not allowed in ${site.where} (allowed: ${site.allowed.join(', ')})`,
    );
    return;
  }
  if (known !== 'image') checkUniqueId(issues, value, path, ACTION_ID, site.actionIds);
  ELEMENT_CHECKS[known](issues, value, path);
}

const ACTION_ID: IdKind = {
  field: 'action_id',
  max: SLACK_LIMITS.actionId,
  rule: BLOCK_RULES.duplicateActionId,
  within: 'a block',
};

type ElementCheck = (issues: IssueList, element: JsonObject, path: string) => void;

const placeholder = (issues: IssueList, element: JsonObject, path: string) =>
  checkTextObject(issues, element.placeholder, `${path}/placeholder`, {
    max: SLACK_LIMITS.select.placeholder,
    plainOnly: true,
    required: false,
  });

function checkButton(issues: IssueList, element: JsonObject, path: string): void {
  checkTextObject(issues, element.text, `${path}/text`, {
    max: SLACK_LIMITS.button.text,
    plainOnly: true,
  });
  checkOptionalString(issues, element.value, `${path}/value`, SLACK_LIMITS.button.value);
  checkOptionalString(issues, element.url, `${path}/url`, 3000);
  checkOptionalString(issues, element.accessibility_label, `${path}/accessibility_label`, 75);
  if (element.style !== undefined && element.style !== 'primary' && element.style !== 'danger') {
    issues.add(BLOCK_RULES.invalidField, `${path}/style`, 'must be "primary" or "danger"');
  }
  checkConfirm(issues, element.confirm, `${path}/confirm`);
}

/** Checks an element's `options` (1 to `max` of them, each of `shape`) and returns them. */
function checkOptionList(
  issues: IssueList,
  element: JsonObject,
  path: string,
  max: number,
  shape: OptionShape,
): unknown[] {
  const options = checkArray(issues, element.options, `${path}/options`, { min: 1, max }) ?? [];
  options.forEach((option, i) => {
    checkOption(issues, option, `${path}/options/${i}`, shape);
  });
  return options;
}

/** Options of a static select, flattening option_groups. */
function staticSelectOptions(issues: IssueList, element: JsonObject, path: string): unknown[] {
  const limit = SLACK_LIMITS.select.options;
  if (element.options !== undefined && element.option_groups !== undefined) {
    issues.add(BLOCK_RULES.invalidField, path, 'provide either options or option_groups, not both');
  }
  if (element.option_groups !== undefined) {
    const groups = checkArray(issues, element.option_groups, `${path}/option_groups`, {
      min: 1,
      max: limit,
    });
    const all: unknown[] = [];
    groups?.forEach((group, g) => {
      const groupPath = `${path}/option_groups/${g}`;
      if (!isObjectAt(issues, group, groupPath)) return;
      checkTextObject(issues, group.label, `${groupPath}/label`, { max: 75, plainOnly: true });
      const options = checkArray(issues, group.options, `${groupPath}/options`, {
        min: 1,
        max: limit,
      });
      options?.forEach((option, i) => {
        checkOption(issues, option, `${groupPath}/options/${i}`, { plainOnly: true });
        all.push(option);
      });
    });
    return all;
  }
  return checkOptionList(issues, element, path, limit, { plainOnly: true });
}

function checkInitialOptions(
  issues: IssueList,
  element: JsonObject,
  path: string,
  options: unknown[] | undefined,
  multi: boolean,
): void {
  const field = multi ? 'initial_options' : 'initial_option';
  const initial = element[field];
  if (initial === undefined) return;
  // Slack publishes no count for the initial options of an external select (its options are
  // not in the element); of a static one, they can be no more than its options.
  const chosen = multi
    ? checkArray(issues, initial, `${path}/${field}`, {
        max: options?.length ?? Number.POSITIVE_INFINITY,
      })
    : [initial];
  chosen?.forEach((option, i) => {
    const optionPath = multi ? `${path}/${field}/${i}` : `${path}/${field}`;
    if (!isObjectAt(issues, option, optionPath)) return;
    if (options === undefined) {
      checkOption(issues, option, optionPath, { plainOnly: true });
      return;
    }
    if (!options.some((candidate) => sameOption(candidate, option))) {
      issues.add(
        BLOCK_RULES.initialOptionNotInOptions,
        optionPath,
        `${field} must match one of the element's options (value ${JSON.stringify(option.value)} not found)`,
      );
    }
  });
}

function checkMaxSelected(issues: IssueList, element: JsonObject, path: string): void {
  const max = element.max_selected_items;
  if (max !== undefined && (!Number.isInteger(max) || (max as number) < 1)) {
    issues.add(BLOCK_RULES.invalidField, `${path}/max_selected_items`, 'must be an integer >= 1');
  }
}

const ELEMENT_CHECKS: Record<KnownElementType, ElementCheck> = {
  button: checkButton,
  static_select(issues, element, path) {
    placeholder(issues, element, path);
    const options = staticSelectOptions(issues, element, path);
    checkInitialOptions(issues, element, path, options, false);
    checkConfirm(issues, element.confirm, `${path}/confirm`);
  },
  multi_static_select(issues, element, path) {
    placeholder(issues, element, path);
    const options = staticSelectOptions(issues, element, path);
    checkInitialOptions(issues, element, path, options, true);
    checkMaxSelected(issues, element, path);
    checkConfirm(issues, element.confirm, `${path}/confirm`);
  },
  external_select(issues, element, path) {
    placeholder(issues, element, path);
    checkInitialOptions(issues, element, path, undefined, false);
    checkConfirm(issues, element.confirm, `${path}/confirm`);
  },
  multi_external_select(issues, element, path) {
    placeholder(issues, element, path);
    checkInitialOptions(issues, element, path, undefined, true);
    checkMaxSelected(issues, element, path);
    checkConfirm(issues, element.confirm, `${path}/confirm`);
  },
  users_select(issues, element, path) {
    placeholder(issues, element, path);
    checkOptionalString(issues, element.initial_user, `${path}/initial_user`, 255);
    checkConfirm(issues, element.confirm, `${path}/confirm`);
  },
  multi_users_select(issues, element, path) {
    placeholder(issues, element, path);
    const users = checkArray(issues, element.initial_users, `${path}/initial_users`, {
      max: 100,
      required: false,
    });
    users?.forEach((user, i) => {
      checkString(issues, user, `${path}/initial_users/${i}`, { max: 255, min: 1 });
    });
    checkMaxSelected(issues, element, path);
    checkConfirm(issues, element.confirm, `${path}/confirm`);
  },
  radio_buttons(issues, element, path) {
    const options = checkOptionList(issues, element, path, SLACK_LIMITS.radioButtons.options, {
      plainOnly: false,
    });
    checkInitialOptions(issues, element, path, options, false);
    checkConfirm(issues, element.confirm, `${path}/confirm`);
  },
  checkboxes(issues, element, path) {
    const options = checkOptionList(issues, element, path, SLACK_LIMITS.checkboxes.options, {
      plainOnly: false,
    });
    checkInitialOptions(issues, element, path, options, true);
    checkConfirm(issues, element.confirm, `${path}/confirm`);
  },
  overflow(issues, element, path) {
    checkOptionList(issues, element, path, SLACK_LIMITS.overflow.options, {
      plainOnly: true,
      allowUrl: true,
    });
    checkConfirm(issues, element.confirm, `${path}/confirm`);
  },
  plain_text_input(issues, element, path) {
    placeholder(issues, element, path);
    const max = SLACK_LIMITS.plainTextInput.maxLength;
    checkOptionalString(issues, element.initial_value, `${path}/initial_value`, max);
    for (const field of ['min_length', 'max_length'] as const) {
      const n = element[field];
      if (n !== undefined && (!Number.isInteger(n) || (n as number) < 0 || (n as number) > max)) {
        issues.add(BLOCK_RULES.invalidField, `${path}/${field}`, `must be an integer 0..${max}`);
      }
    }
    if (element.multiline !== undefined && typeof element.multiline !== 'boolean') {
      issues.add(BLOCK_RULES.invalidField, `${path}/multiline`, 'must be a boolean');
    }
  },
  image(issues, element, path) {
    if (element.image_url === undefined && element.slack_file === undefined) {
      issues.add(BLOCK_RULES.missingField, path, 'missing required field: image_url');
    }
    checkOptionalString(issues, element.image_url, `${path}/image_url`, 3000);
    checkString(issues, element.alt_text, `${path}/alt_text`, { max: 2000, min: 1 });
  },
};
