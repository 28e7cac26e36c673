import type { BlockIssue } from './block-rules.js';
import type { JsonObject } from './types.js';
import { formatIssue, validateMessageBlocks } from './validate-blocks.js';
import type { Workspace } from './workspace.js';

/** Which token a method accepts. */
export type TokenKind = 'bot' | 'app';

/** What a Web API method handler gets. */
export interface MethodContext {
  args: JsonObject;
  workspace: Workspace;
  /** issues a one-time Socket Mode URL */
  openSocketUrl(): string;
  /** where the file with this id is uploaded (files.getUploadURLExternal) */
  uploadUrl(fileId: string): string;
}

/** One Web API method: which token it takes, the scope it needs, and what it does. */
export interface MethodSpec {
  token: TokenKind;
  /**
   * The OAuth scope the token must have been granted (Slack answers `missing_scope`
   * otherwise); a function when it depends on the arguments (a channel's kind). None: any.
   */
  scope?: string | ((ctx: MethodContext) => string | undefined);
  handle(ctx: MethodContext): JsonObject;
}

/** A Slack error response body. */
export const fail = (error: string, extra: JsonObject = {}): JsonObject => ({
  ok: false,
  error,
  ...extra,
});

/** Slack's `invalid_blocks` answer: the issues as `errors` and as `[ERROR]` messages. */
export function invalidBlocks(issues: readonly BlockIssue[]): JsonObject {
  const errors = issues.map(formatIssue);
  return fail('invalid_blocks', {
    errors,
    response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) },
  });
}

/** Slack's answer to an invalid view: `invalid_arguments` with `[ERROR]` messages. */
export function invalidView(issues: readonly BlockIssue[]): JsonObject {
  return fail('invalid_arguments', {
    response_metadata: { messages: issues.map((i) => `[ERROR] ${formatIssue(i)}`) },
  });
}

/** Reads and validates a message's `blocks` argument (already JSON-decoded when possible). */
export function readMessageBlocks(
  args: JsonObject,
): { ok: true; blocks: JsonObject[] | undefined } | { ok: false; response: JsonObject } {
  const value = args.blocks;
  if (value === undefined || value === '') return { ok: true, blocks: undefined };
  if (typeof value === 'string') return { ok: false, response: fail('invalid_blocks_format') };
  const issues = validateMessageBlocks(value);
  if (issues.length > 0) return { ok: false, response: invalidBlocks(issues) };
  return { ok: true, blocks: value as JsonObject[] };
}
