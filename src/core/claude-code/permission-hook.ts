import type {
  PermissionRequestHookSpecificOutput,
  PermissionUpdate,
} from '@anthropic-ai/claude-agent-sdk';
import type { BatchOrigin } from '../protocol/questions/batch-origin.js';
import { NOTE_OPTIONS_FIELD } from '../protocol/questions/note-options.js';
import { BLOCK_KIT_LIMITS } from '../slack/layout/block-kit-limits.js';
import { truncatePlain } from '../slack/text/text-cut.js';
import type { PermissionRequestInput, PermissionSuggestion } from './hook-input.js';
import { hookOrigin } from './hook-origin.js';
import { maskSecrets } from './mask-secrets.js';
import { toolPreview } from './tool-preview.js';

/** The answers a permission prompt offers besides one "Always allow" per suggestion. */
export const PERMISSION_CHOICES = {
  allow: 'Allow',
  deny: 'Deny',
  stop: 'Deny and stop Claude',
} as const;

/** The id of the one question of a permission batch. */
export const PERMISSION_QUESTION_ID = 'permission';

/** Where Claude Code keeps a remembered rule, in the words people know it by. */
const WHERE_KEPT: Readonly<Record<string, string>> = {
  localSettings: '.claude/settings.local.json',
  projectSettings: '.claude/settings.json',
  userSettings: '~/.claude/settings.json',
  session: 'this session only',
  cliArg: 'this run only',
};

/** A rule as Claude Code writes it in settings: `Bash(curl …)`, or the bare tool name. */
const ruleText = (rule: { toolName: string; ruleContent?: string | undefined }): string =>
  rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`;

/** What a suggestion would change, or undefined for one no button should offer. */
function suggestionWhat(suggestion: PermissionSuggestion): string | undefined {
  switch (suggestion.type) {
    case 'addRules':
      if (suggestion.behavior !== 'allow' || !suggestion.rules?.length) return undefined;
      return `Always allow ${suggestion.rules.map(ruleText).join(', ')}`;
    case 'addDirectories':
      if (!suggestion.directories?.length) return undefined;
      return `Always allow access to ${suggestion.directories.join(', ')}`;
    case 'setMode':
      return suggestion.mode ? `Allow and switch to ${suggestion.mode} mode` : undefined;
    default:
      return undefined;
  }
}

/** One "Always allow" choice: its button label, what it says in full, and its suggestion. */
export interface AlwaysChoice {
  label: string;
  full: string;
  suggestion: PermissionSuggestion;
}

/**
 * The "Always allow …" choices, one per suggestion Claude Code made, each naming the rule and
 * where it is kept. A label too long for a button is cut (the preview says it in full), and
 * made unique by its number when a cut makes two alike.
 */
export function alwaysChoices(suggestions: readonly PermissionSuggestion[]): AlwaysChoice[] {
  const choices: AlwaysChoice[] = [];
  for (const suggestion of suggestions) {
    const what = suggestionWhat(suggestion);
    if (what === undefined) continue;
    const where = WHERE_KEPT[suggestion.destination] ?? suggestion.destination;
    const full = maskSecrets(`${what} (in ${where})`).text;
    const suffix = ` (in ${where})`;
    const room = BLOCK_KIT_LIMITS.buttonText - suffix.length;
    const short = maskSecrets(what).text;
    let label = short.length <= room ? full : `${truncatePlain(short, room)}${suffix}`;
    if (label.length > BLOCK_KIT_LIMITS.buttonText)
      label = truncatePlain(full, BLOCK_KIT_LIMITS.buttonText);
    const taken = (text: string) =>
      choices.some((choice) => choice.label === text) ||
      Object.values(PERMISSION_CHOICES).includes(text as never);
    if (taken(label)) {
      const mark = ` #${choices.length + 1}`;
      label = `${truncatePlain(label, BLOCK_KIT_LIMITS.buttonText - mark.length)}${mark}`;
    }
    choices.push({ label, full, suggestion });
  }
  return choices;
}

/** The q-out batch of a permission prompt: one choose-one question, answered in one tap. */
export interface PermissionHookBatch {
  seq: number;
  origin: BatchOrigin;
  questions: [
    {
      id: typeof PERMISSION_QUESTION_ID;
      type: 'choose-one';
      prompt: string;
      options: string[];
      preview: { type: 'markdown'; content: string };
      /** Deny's index: its button opens a form for a reason the model reads */
      [NOTE_OPTIONS_FIELD]: number[];
    },
  ];
}

const PROMPT_SHOWN = 300;

/**
 * The batch that puts a permission prompt to people: what Claude wants to do as the
 * question's preview (masked for secrets), and the choices Allow, one "Always allow …" per
 * suggestion, Deny, and Deny and stop. It has at most five choices when Claude Code makes up
 * to two suggestions, as it does, and so shows as one-tap buttons; Deny opens a form for an
 * optional reason first.
 */
export function permissionHookBatch(input: PermissionRequestInput): PermissionHookBatch {
  const always = alwaysChoices(input.permission_suggestions ?? []);
  const preview = maskSecrets(toolPreview(input.tool_name, input.tool_input));
  const rules = always.filter((choice) => choice.label !== choice.full);
  const notes = [
    ...(preview.count > 0
      ? [
          `_${preview.count === 1 ? 'A secret was' : `${preview.count} secrets were`} masked here; Claude Code gets the input unchanged._`,
        ]
      : []),
    ...rules.map((choice) => `- ${choice.full}`),
  ];
  const content = [preview.text, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
  const description = (input.tool_input as { description?: unknown } | null)?.description;
  const lead = `Claude Code wants to use ${input.tool_name}`;
  const prompt = truncatePlain(
    maskSecrets(
      typeof description === 'string' && input.tool_name !== 'Bash'
        ? `${lead}: ${description}`
        : `${lead}.`,
    ).text,
    PROMPT_SHOWN,
  );
  return {
    seq: 1,
    origin: hookOrigin(input, `Claude Code wants to use ${input.tool_name}`, input.tool_name),
    questions: [
      {
        id: PERMISSION_QUESTION_ID,
        type: 'choose-one',
        prompt,
        options: [
          PERMISSION_CHOICES.allow,
          ...always.map((choice) => choice.label),
          PERMISSION_CHOICES.deny,
          PERMISSION_CHOICES.stop,
        ],
        preview: { type: 'markdown', content },
        [NOTE_OPTIONS_FIELD]: [always.length + 1],
      },
    ],
  };
}

/** The PermissionRequest output Claude Code reads. */
export type PermissionHookOutput = { hookSpecificOutput: PermissionRequestHookSpecificOutput };

/** The message the model gets when people deny in Slack without a reason. */
export const DENIED_MESSAGE = 'Denied in Slack: the person does not want this tool call to run.';

/** The message the model gets when people deny in Slack and say why. */
export const deniedBecause = (reason: string): string =>
  `Denied in Slack. The person's reason: ${reason.trim()}`;

/**
 * The decision for the choice people made: Allow; allow and keep that suggestion's rule;
 * deny, with the message the model reads (their reason, when they gave one); or deny and stop
 * Claude. Undefined for a choice the batch did not offer (Claude Code then asks in the
 * terminal). Never allows by default.
 */
export function permissionHookOutput(
  input: PermissionRequestInput,
  choice: string,
  reason?: string,
): PermissionHookOutput | undefined {
  const decide = (decision: PermissionRequestHookSpecificOutput['decision']) => ({
    hookSpecificOutput: { hookEventName: 'PermissionRequest' as const, decision },
  });
  if (choice === PERMISSION_CHOICES.allow) return decide({ behavior: 'allow' });
  if (choice === PERMISSION_CHOICES.deny) {
    const given = reason !== undefined && reason.trim() !== '';
    return decide({ behavior: 'deny', message: given ? deniedBecause(reason) : DENIED_MESSAGE });
  }
  if (choice === PERMISSION_CHOICES.stop) {
    return decide({ behavior: 'deny', message: DENIED_MESSAGE, interrupt: true });
  }
  const always = alwaysChoices(input.permission_suggestions ?? []).find(
    (candidate) => candidate.label === choice,
  );
  if (always === undefined) return undefined;
  // passed back exactly as Claude Code suggested it, so it keeps the rule it offered
  const update = always.suggestion as unknown as PermissionUpdate;
  return decide({ behavior: 'allow', updatedPermissions: [update] });
}
