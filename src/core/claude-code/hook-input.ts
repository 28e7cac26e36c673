import type {
  NotificationHookInput,
  PermissionRequestHookInput,
  PermissionUpdate,
  PreToolUseHookInput,
} from '@anthropic-ai/claude-agent-sdk';
import type { AskUserQuestionInput } from '@anthropic-ai/claude-agent-sdk/sdk-tools';
import * as z from 'zod';

/** What every hook input carries; `agent_id`/`agent_type` only from a subagent's call. */
const base = {
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string().min(1),
  permission_mode: z.string().optional(),
  agent_id: z.string().optional(),
  agent_type: z.string().optional(),
};

/** One rule Claude Code offers to remember, e.g. `{toolName: "Bash", ruleContent: "curl …"}`. */
const ruleSchema = z.looseObject({ toolName: z.string(), ruleContent: z.string().optional() });

/** A change of permissions Claude Code suggests (`addRules`, `setMode`, `addDirectories`, …). */
export const permissionUpdateSchema = z.looseObject({
  type: z.string(),
  destination: z.string(),
  behavior: z.string().optional(),
  rules: z.array(ruleSchema).optional(),
  mode: z.string().optional(),
  directories: z.array(z.string()).optional(),
});
export type PermissionSuggestion = z.infer<typeof permissionUpdateSchema>;

/**
 * What Claude Code writes on a command hook's stdin, for the events `hook` answers. Unknown
 * fields are let through (newer versions add some); the event name picks the shape.
 */
export const hookInputSchema = z.discriminatedUnion('hook_event_name', [
  z.looseObject({
    ...base,
    hook_event_name: z.literal('PreToolUse'),
    tool_name: z.string(),
    tool_input: z.unknown(),
    tool_use_id: z.string(),
  }),
  z.looseObject({
    ...base,
    hook_event_name: z.literal('PermissionRequest'),
    tool_name: z.string(),
    tool_input: z.unknown(),
    permission_suggestions: z.array(permissionUpdateSchema).optional(),
  }),
  z.looseObject({
    ...base,
    hook_event_name: z.literal('Notification'),
    message: z.string(),
    notification_type: z.string().optional(),
  }),
]);
export type HookInput = z.infer<typeof hookInputSchema>;
export type PreToolUseInput = Extract<HookInput, { hook_event_name: 'PreToolUse' }>;
export type PermissionRequestInput = Extract<HookInput, { hook_event_name: 'PermissionRequest' }>;

const optionSchema = z.object({
  label: z.string().min(1),
  description: z.string(),
  preview: z.string().optional(),
});

/**
 * AskUserQuestion's `tool_input`: 1 to 4 questions of 2 to 4 options ("Other" is Claude's).
 * What it reads is kept; other fields stay in the `tool_input` the answer echoes.
 */
export const askUserQuestionSchema = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1),
        header: z.string(),
        options: z.array(optionSchema).min(2).max(4),
        multiSelect: z.boolean(),
      }),
    )
    .min(1)
    .max(4),
});
export type AskUserQuestion = z.infer<typeof askUserQuestionSchema>;

/** Holds when `Vendor` fits `Ours`: the compiler refuses this file if the vendor's types drift. */
type Fits<Ours, Vendor extends Ours> = Vendor;

/**
 * The vendor's published types (`@anthropic-ai/claude-agent-sdk`, a dev dependency, type-only)
 * must fit the schemas: what Claude Code is documented to send is what `hook` accepts.
 */
export type VendorFits = [
  Fits<PreToolUseInput, PreToolUseHookInput>,
  Fits<PermissionRequestInput, PermissionRequestHookInput>,
  Fits<Extract<HookInput, { hook_event_name: 'Notification' }>, NotificationHookInput>,
  Fits<PermissionSuggestion, PermissionUpdate>,
  Fits<AskUserQuestion, AskUserQuestionInput>,
];
