import * as z from 'zod';
import { parseBlockId } from '../../core/slack/controls/ids.js';
import { SLACK_USER_ID } from '../../core/slack/controls/slack-id-shapes.js';
import { replyThreadTs } from '../../core/slack/layout/reply-thread.js';
import { describeIssues } from '../../core/zod-issues.js';

/** Every action, suggestion and modal the relay renders has an id starting with this. */
const RELAY_ID = /^o7\./;

/**
 * What the relay reads of the interactions Slack sends, checked once at the edge. Slack's
 * payloads carry much more (and add fields over time, `null` for "nothing picked"), so every
 * object lets unknown fields through; what is read must have the right kind and size. The user
 * must be a real member ID: without one the allow list could not be applied.
 */
const userSchema = z.looseObject({
  id: z.string().regex(SLACK_USER_ID, 'must be a Slack member ID'),
});
const idText = z.string().max(255);
const optionSchema = z.looseObject({ value: z.string().max(2000) });
const elementValue = z.looseObject({
  type: z.string().max(64).optional(),
  value: z.string().max(20_000).nullish(),
  selected_option: optionSchema.nullish(),
  selected_options: z.array(optionSchema).max(200).nullish(),
});
const stateValuesSchema = z.record(idText, z.record(idText, elementValue));
const messageSchema = z.looseObject({
  ts: z.string().max(64).optional(),
  thread_ts: z.string().max(64).optional(),
});
/**
 * What says where a control was used: the message (container, channel, message) or the form
 * around it (`view`, whose metadata names the batch, sealed).
 */
const surfaceSchema = z.looseObject({
  channel: z.looseObject({ id: idText }).nullish(),
  container: z
    .looseObject({
      type: z.string().max(64).optional(),
      channel_id: idText.optional(),
      message_ts: z.string().max(64).optional(),
      thread_ts: z.string().max(64).optional(),
    })
    .nullish(),
  message: messageSchema.nullish(),
  view: z.looseObject({ private_metadata: z.string().max(3000).optional() }).nullish(),
});
type Surface = z.infer<typeof surfaceSchema>;

const blockActionsSchema = surfaceSchema.extend({
  type: z.literal('block_actions'),
  user: userSchema,
  trigger_id: z.string().max(255).optional(),
  actions: z
    .array(
      z.looseObject({
        action_id: idText,
        block_id: idText,
        type: z.string().max(64),
        value: z.string().max(2000).nullish(),
        selected_option: optionSchema.nullish(),
        selected_options: z.array(optionSchema).max(200).nullish(),
      }),
    )
    .min(1)
    .max(25),
  state: z.looseObject({ values: stateValuesSchema }).nullish(),
});

const blockSuggestionSchema = surfaceSchema.extend({
  type: z.literal('block_suggestion'),
  user: userSchema,
  action_id: idText,
  block_id: idText,
  value: z.string().max(2000),
});

const viewSubmissionSchema = z.looseObject({
  type: z.literal('view_submission'),
  user: userSchema,
  view: z.looseObject({
    id: idText,
    hash: idText.optional(),
    callback_id: idText,
    private_metadata: z.string().max(3000),
    state: z.looseObject({ values: stateValuesSchema }),
    blocks: z
      .array(z.looseObject({ type: z.string(), block_id: idText.optional() }))
      .max(100)
      .optional(),
  }),
});

/**
 * Where a control was used: a message (its conversation and ts), a form (its metadata, as
 * sealed), or nowhere a payload can be trusted to say (its parts disagree, or are missing).
 * An action may change only the batch of the message or form it came from.
 */
export type ActionSource =
  | { kind: 'message'; channel: string; ts: string }
  | { kind: 'view'; metadata: string | undefined }
  | { kind: 'none' };

/** A person's interaction with something the relay rendered, as checked at the edge. */
export type Interaction =
  | {
      kind: 'action' | 'suggestion';
      user: string;
      /** the relay's action id acted on */
      action: string;
      /** batch key, when the block id names one */
      key: string | undefined;
      channel: string | undefined;
      threadTs: string | undefined;
      source: ActionSource;
    }
  | {
      kind: 'view';
      user: string;
      /** the modal's callback id */
      action: string;
      /** batch key named in the form's metadata, for the log only: the listener checks its seal */
      key: string | undefined;
      /** the first input block, where a refusal can be shown */
      inputBlockId: string | undefined;
    };

/** What decoding a payload gave: not the relay's, the relay's, or the relay's but malformed. */
export type DecodedInteraction =
  | { kind: 'not-ours' }
  | { kind: 'ours'; interaction: Interaction }
  | { kind: 'malformed'; type: string; problem: string };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isRelayId = (value: unknown): boolean => typeof value === 'string' && RELAY_ID.test(value);
const keyOf = (blockId: string) => parseBlockId(blockId)?.key;

/** Whether a payload is about something the relay rendered (ids starting `o7.`). */
function isOurs(body: Json): boolean {
  switch (body.type) {
    case 'block_actions':
      return (
        Array.isArray(body.actions) &&
        body.actions.some((a) => isObject(a) && isRelayId(a.action_id))
      );
    case 'block_suggestion':
      return isRelayId(body.action_id);
    case 'view_submission':
      return isObject(body.view) && isRelayId(body.view.callback_id);
    default:
      return false;
  }
}

/** The batch key in a form's (sealed) metadata: JSON with a `key`, after the seal's dot. */
function keyFromMetadata(metadata: string): string | undefined {
  try {
    const value: unknown = JSON.parse(metadata.slice(metadata.indexOf('.') + 1));
    return isObject(value) && typeof value.key === 'string' ? value.key : undefined;
  } catch {
    return undefined;
  }
}

/** Two parts of a payload that say the same thing: the one said, or none when they differ. */
const agreed = (a: string | undefined, b: string | undefined): string | undefined =>
  a !== undefined && b !== undefined && a !== b ? undefined : (a ?? b);

/** Where the control was used, from the payload's container and what surrounds it. */
function sourceOf({ channel, container, message, view }: Surface): ActionSource {
  if (container?.type === 'view' || (view && !container?.message_ts)) {
    return { kind: 'view', metadata: view?.private_metadata };
  }
  const where = agreed(container?.channel_id, channel?.id);
  const ts = agreed(container?.message_ts, message?.ts);
  return where && ts ? { kind: 'message', channel: where, ts } : { kind: 'none' };
}

/** Where a zod failure is and what it says, without the value: payloads are untrusted. */
const describePayloadIssues = (error: z.ZodError): string =>
  describeIssues(error, { most: 3, root: '(payload)' });

/**
 * Decodes an interaction payload. Events, other apps' elements and closed modals are not the
 * relay's and pass; the relay's must have the shape it reads, or they are refused.
 */
export function decodeInteraction(body: unknown): DecodedInteraction {
  if (!isObject(body) || !isOurs(body)) return { kind: 'not-ours' };
  const type = String(body.type);
  const malformed = (error: z.ZodError): DecodedInteraction => ({
    kind: 'malformed',
    type,
    problem: describePayloadIssues(error),
  });
  if (type === 'view_submission') {
    const parsed = viewSubmissionSchema.safeParse(body);
    if (!parsed.success) return malformed(parsed.error);
    const { view, user } = parsed.data;
    const input = view.blocks?.find((b) => b.type === 'input' && b.block_id)?.block_id;
    // Slack reports input values by block id; a view without blocks still names them there.
    const inputBlockId = input ?? Object.keys(view.state.values)[0];
    return {
      kind: 'ours',
      interaction: {
        kind: 'view',
        user: user.id,
        action: view.callback_id,
        key: keyFromMetadata(view.private_metadata),
        inputBlockId,
      },
    };
  }
  if (type === 'block_suggestion') {
    const parsed = blockSuggestionSchema.safeParse(body);
    if (!parsed.success) return malformed(parsed.error);
    const { user, action_id, block_id, channel, container } = parsed.data;
    const interaction: Interaction = {
      kind: 'suggestion',
      user: user.id,
      action: action_id,
      key: keyOf(block_id),
      channel: channel?.id ?? container?.channel_id,
      threadTs: undefined,
      source: sourceOf(parsed.data),
    };
    return { kind: 'ours', interaction };
  }
  const parsed = blockActionsSchema.safeParse(body);
  if (!parsed.success) return malformed(parsed.error);
  const { user, actions, channel, container, message } = parsed.data;
  const ours = actions.find((a) => RELAY_ID.test(a.action_id)) as (typeof actions)[number];
  // a thread parent carries thread_ts === ts: its notices belong in the channel
  const threadTs =
    replyThreadTs(message ?? undefined) ??
    replyThreadTs({ ts: container?.message_ts, thread_ts: container?.thread_ts });
  const interaction: Interaction = {
    kind: 'action',
    user: user.id,
    action: ours.action_id,
    key: keyOf(ours.block_id),
    channel: channel?.id ?? container?.channel_id,
    threadTs,
    source: sourceOf(parsed.data),
  };
  return { kind: 'ours', interaction };
}
