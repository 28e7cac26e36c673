import * as z from 'zod';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { ANSWER_ROUTES, BATCH_STATUSES } from '../core/batch/batch-record.js';
import type { CancelOutcome, SubmitOutcome } from '../core/batch/outcomes.js';
import type { Answer } from '../core/protocol/questions/question.js';
import { BLOCK_KIT_LIMITS } from '../core/slack/layout/block-kit-limits.js';
import type { CancelInput, SubmitInput } from '../queue/actions/action-inputs.js';

/**
 * What one relay asks of the relay holding a batch's run, and what it answers: the entries of
 * a node's work stream and of the replies channel, as flat strings (Redis stream fields).
 */

/** Work for the relay holding a run. */
export type WorkRequest =
  | { id: string; kind: 'submit'; key: string; from: string; input: SubmitInput }
  | { id: string; kind: 'cancel'; key: string; from: string; input: CancelInput };

const answer: z.ZodType<Answer> = z.union([z.string(), z.array(z.string()), z.boolean()]);
const idText = z.string().min(1).max(255);

/** Stream fields of a request. */
export function encodeRequest(request: WorkRequest): Record<string, string> {
  const common = { id: request.id, kind: request.kind, key: request.key, from: request.from };
  const { input } = request;
  const fields: Record<string, string> = {
    ...common,
    revision: input.revision,
    by: input.by,
  };
  if (request.kind === 'submit') {
    const { unsaved, tapped, via } = request.input;
    if (unsaved && unsaved.size > 0) fields.unsaved = JSON.stringify([...unsaved]);
    if (tapped) fields.tapped = JSON.stringify(tapped);
    if (via) fields.via = via;
  }
  return fields;
}

const requestFields = z.object({
  id: idText,
  kind: z.enum(['submit', 'cancel']),
  key: idText,
  from: idText,
  revision: z.string().max(64),
  by: idText,
  unsaved: z.string().optional(),
  tapped: z.string().optional(),
  via: z.enum(ANSWER_ROUTES).optional(),
});
const unsavedSchema = z.array(z.tuple([z.string().max(200), answer])).max(100);
const tappedSchema = z.object({
  questionId: z.string().max(200),
  answer,
  note: z.string().max(BLOCK_KIT_LIMITS.plainTextInputMax).optional(),
});

/** A request read back from the stream, or why it cannot be done. */
export function decodeRequest(fields: Record<string, unknown>): WorkRequest | string {
  const parsed = requestFields.safeParse(fields);
  if (!parsed.success) return `not a work request: ${parsed.error.issues[0]?.message}`;
  const { id, kind, key, from, revision, by, via } = parsed.data;
  if (kind === 'cancel') return { id, kind, key, from, input: { revision, by } };
  try {
    const unsaved = parsed.data.unsaved
      ? new Map(unsavedSchema.parse(JSON.parse(parsed.data.unsaved)))
      : undefined;
    const tapped = parsed.data.tapped
      ? tappedSchema.parse(JSON.parse(parsed.data.tapped))
      : undefined;
    const input: SubmitInput = {
      revision,
      by,
      ...(unsaved ? { unsaved } : {}),
      ...(tapped ? { tapped } : {}),
      ...(via ? { via } : {}),
    };
    return { id, kind, key, from, input };
  } catch {
    return 'a work request whose choices cannot be read';
  }
}

/** An outcome as it travels: without the record, which every relay has in its own copy. */
export type WireOutcome =
  | Exclude<SubmitOutcome, { record: BatchRecord }>
  | Exclude<CancelOutcome, { record: BatchRecord }>
  | { kind: 'answered' | 'held' | 'answered-elsewhere' | 'cancelled' };

/** The reply to request `id`. */
export function encodeReply(id: string, outcome: SubmitOutcome | CancelOutcome): string {
  const wire =
    'record' in outcome
      ? { kind: outcome.kind }
      : (outcome as Exclude<typeof outcome, { record: BatchRecord }>);
  return JSON.stringify({ id, outcome: wire });
}

const wireOutcome = z.union([
  z.object({
    kind: z.enum([
      'answered',
      'held',
      'answered-elsewhere',
      'cancelled',
      'not-cancellable',
      'unknown',
      'out-of-date',
    ]),
  }),
  z.object({
    kind: z.literal('incomplete'),
    missing: z.array(z.string()),
    problems: z.array(z.string()),
  }),
  z.object({ kind: z.literal('needs-text'), questionIds: z.array(z.string()) }),
  z.object({ kind: z.literal('write-failed'), message: z.string() }),
  z.object({ kind: z.literal('closed'), status: z.enum(BATCH_STATUSES) }),
  z.object({ kind: z.enum(['owner-offline', 'owner-slow']), node: z.string() }),
]);

/** A reply read back, or undefined when it is not one. */
export function decodeReply(text: string): { id: string; outcome: WireOutcome } | undefined {
  try {
    const parsed = z.object({ id: idText, outcome: wireOutcome }).safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as { id: string; outcome: WireOutcome }) : undefined;
  } catch {
    return undefined;
  }
}
