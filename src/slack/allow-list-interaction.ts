import { parseBlockId } from '../core/slack/ids.js';
import { replyThreadTs } from '../core/slack/reply-thread.js';

/** Every action, suggestion and modal the relay renders has an id starting with this. */
const RELAY_ID = /^o7\./;

/** A person's interaction with something the relay rendered, as the allow list sees it. */
export type GuardedInteraction =
  | {
      kind: 'action' | 'suggestion';
      user: string;
      /** the action id acted on */
      action: string;
      /** batch key, when the block id names one */
      key: string | undefined;
      channel: string | undefined;
      threadTs: string | undefined;
    }
  | {
      kind: 'view';
      user: string;
      /** the modal's callback id */
      action: string;
      key: string | undefined;
      /** the first input block, where a refusal can be shown */
      inputBlockId: string | undefined;
    };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * Reads an incoming payload: a `block_actions`, `block_suggestion` or `view_submission` on
 * something the relay rendered gives what the allow list needs; anything else (events, other
 * apps' ids, closed modals) gives `undefined` and passes unchecked.
 */
export function readGuardedInteraction(body: unknown): GuardedInteraction | undefined {
  if (!isObject(body)) return undefined;
  const user = isObject(body.user) ? text(body.user.id) : undefined;
  if (!user) return undefined;
  const container = isObject(body.container) ? body.container : {};
  const message = isObject(body.message) ? body.message : {};
  const channel =
    (isObject(body.channel) ? text(body.channel.id) : undefined) ?? text(container.channel_id);
  // a thread parent carries thread_ts === ts: its notices belong in the channel
  const threadTs =
    replyThreadTs(message) ??
    replyThreadTs({ ts: container.message_ts, thread_ts: container.thread_ts });
  const keyOf = (blockId: unknown) => {
    const id = text(blockId);
    return id ? parseBlockId(id)?.key : undefined;
  };

  switch (body.type) {
    case 'block_actions': {
      const actions = Array.isArray(body.actions) ? body.actions.filter(isObject) : [];
      const ours = actions.find((a) => RELAY_ID.test(text(a.action_id) ?? ''));
      if (!ours) return undefined;
      const action = text(ours.action_id) as string;
      return { kind: 'action', user, action, key: keyOf(ours.block_id), channel, threadTs };
    }
    case 'block_suggestion': {
      const action = text(body.action_id);
      if (!action || !RELAY_ID.test(action)) return undefined;
      return { kind: 'suggestion', user, action, key: keyOf(body.block_id), channel, threadTs };
    }
    case 'view_submission': {
      const view = isObject(body.view) ? body.view : {};
      const action = text(view.callback_id);
      if (!action || !RELAY_ID.test(action)) return undefined;
      return {
        kind: 'view',
        user,
        action,
        key: keyFromMetadata(view.private_metadata),
        inputBlockId: firstInputBlock(view),
      };
    }
    default:
      return undefined;
  }
}

/** The batch key the relay's modals carry in `private_metadata` (JSON with a `key`). */
function keyFromMetadata(metadata: unknown): string | undefined {
  const raw = text(metadata);
  if (!raw) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return isObject(value) ? text(value.key) : undefined;
  } catch {
    return undefined; // not a relay modal's metadata; the key only helps the log
  }
}

function firstInputBlock(view: Json): string | undefined {
  const blocks = Array.isArray(view.blocks) ? view.blocks.filter(isObject) : [];
  const input = blocks.find((b) => b.type === 'input' && text(b.block_id));
  if (input) return text(input.block_id);
  // Slack reports input values by block id; a view without blocks still names them there.
  const state = isObject(view.state) && isObject(view.state.values) ? view.state.values : {};
  return Object.keys(state)[0];
}
