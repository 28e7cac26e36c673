import { fail, type MethodContext, type MethodSpec, readMessageBlocks } from './method-support.js';
import { messageTooLong } from './size-ceilings.js';
import { SLACK_LIMITS } from './slack-limits.js';
import type { FakeChannel, JsonObject, StoredMessage } from './types.js';
import { stringArg } from './web-api-request.js';
import { messageJson } from './wire-shapes.js';

type ChannelLookup = { ok: true; channel: FakeChannel } | { ok: false; response: JsonObject };

/** Resolves the `channel` argument and checks the bot may post there. */
function postableChannel(ctx: MethodContext, field = 'channel'): ChannelLookup {
  const ref = stringArg(ctx.args, field);
  const channel = ref ? ctx.workspace.resolveChannel(ref) : undefined;
  if (!channel) return { ok: false, response: fail('channel_not_found') };
  if (channel.archived) return { ok: false, response: fail('is_archived') };
  if (!channel.members.has(ctx.workspace.identity.botUserId)) {
    return { ok: false, response: fail('not_in_channel') };
  }
  return { ok: true, channel };
}

type MessageLookup =
  | { ok: true; channel: FakeChannel; message: StoredMessage }
  | { ok: false; response: JsonObject };

/**
 * Resolves the `channel` argument and the message whose ts is in `tsField`; `chat.update`
 * also refuses an archived channel, before it looks for the message, as Slack does.
 */
function existingMessage(
  ctx: MethodContext,
  tsField: string,
  refuseArchived = false,
): MessageLookup {
  const ref = stringArg(ctx.args, 'channel');
  const channel = ref ? ctx.workspace.resolveChannel(ref) : undefined;
  if (!channel) return { ok: false, response: fail('channel_not_found') };
  if (refuseArchived && channel.archived) return { ok: false, response: fail('is_archived') };
  const ts = stringArg(ctx.args, tsField);
  const message = ts ? ctx.workspace.message(channel.id, ts) : undefined;
  if (!message) return { ok: false, response: fail('message_not_found') };
  return { ok: true, channel, message };
}

/** Reads `text` and `blocks`; Slack needs at least one of them. */
function readContent(
  ctx: MethodContext,
):
  | { ok: true; text: string | undefined; blocks: JsonObject[] | undefined }
  | { ok: false; response: JsonObject } {
  const blocks = readMessageBlocks(ctx.args);
  if (!blocks.ok) return blocks;
  const text = stringArg(ctx.args, 'text');
  if ((text === undefined || text === '') && blocks.blocks === undefined) {
    return { ok: false, response: fail('no_text') };
  }
  if (blocks.blocks && messageTooLong(blocks.blocks, ctx.workspace.sizeCeilings)) {
    return { ok: false, response: fail('msg_blocks_too_long') };
  }
  if (text !== undefined && text.length > SLACK_LIMITS.message.text) {
    return { ok: false, response: fail('msg_too_long') };
  }
  return { ok: true, text, blocks: blocks.blocks };
}

const postMessage: MethodSpec = {
  token: 'bot',
  scope: 'chat:write',
  handle(ctx) {
    const target = postableChannel(ctx);
    if (!target.ok) return target.response;
    const content = readContent(ctx);
    if (!content.ok) return content.response;
    let threadTs = stringArg(ctx.args, 'thread_ts');
    if (threadTs) {
      const parent = ctx.workspace.message(target.channel.id, threadTs);
      if (!parent) return fail('invalid_thread_ts');
      // Replying to a reply lands in the parent's thread, as in Slack.
      threadTs = parent.threadTs ?? parent.ts;
    }
    const message = ctx.workspace.postMessage({
      channel: target.channel.id,
      text: content.text ?? '',
      blocks: content.blocks ?? [],
      ...(threadTs ? { threadTs } : {}),
    });
    return {
      ok: true,
      channel: target.channel.id,
      ts: message.ts,
      message: messageJson(ctx.workspace, message),
    };
  },
};

const update: MethodSpec = {
  token: 'bot',
  scope: 'chat:write',
  handle(ctx) {
    const found = existingMessage(ctx, 'ts', true);
    if (!found.ok) return found.response;
    const { channel, message } = found;
    if (message.user !== ctx.workspace.identity.botUserId) return fail('cant_update_message');
    const content = readContent(ctx);
    if (!content.ok) return content.response;
    ctx.workspace.updateMessage(message, {
      ...(content.text !== undefined ? { text: content.text } : {}),
      ...(content.blocks !== undefined ? { blocks: content.blocks } : {}),
    });
    return {
      ok: true,
      channel: channel.id,
      ts: message.ts,
      text: message.text,
      message: messageJson(ctx.workspace, message),
    };
  },
};

const postEphemeral: MethodSpec = {
  token: 'bot',
  scope: 'chat:write',
  handle(ctx) {
    const target = postableChannel(ctx);
    if (!target.ok) return target.response;
    const user = stringArg(ctx.args, 'user');
    if (!user || !ctx.workspace.users.has(user)) return fail('user_not_found');
    if (!target.channel.members.has(user)) return fail('user_not_in_channel');
    const content = readContent(ctx);
    if (!content.ok) return content.response;
    const ts = ctx.workspace.ids.nextTs();
    const threadTs = stringArg(ctx.args, 'thread_ts');
    ctx.workspace.addEphemeral({
      channel: target.channel.id,
      user,
      ts,
      text: content.text ?? '',
      blocks: structuredClone(content.blocks ?? []),
      ...(threadTs ? { threadTs } : {}),
    });
    return { ok: true, message_ts: ts };
  },
};

const deleteMessage: MethodSpec = {
  token: 'bot',
  scope: 'chat:write',
  handle(ctx) {
    const found = existingMessage(ctx, 'ts');
    if (!found.ok) return found.response;
    const { channel, message } = found;
    if (message.user !== ctx.workspace.identity.botUserId) return fail('cant_delete_message');
    ctx.workspace.deleteMessage(message);
    return { ok: true, channel: channel.id, ts: message.ts };
  },
};

const getPermalink: MethodSpec = {
  token: 'bot',
  handle(ctx) {
    const found = existingMessage(ctx, 'message_ts');
    if (!found.ok) return found.response;
    const { channel, message } = found;
    const base = `https://${ctx.workspace.identity.teamDomain}.slack.com/archives/${channel.id}/p${message.ts.replace('.', '')}`;
    const permalink = message.threadTs
      ? `${base}?thread_ts=${message.threadTs}&cid=${channel.id}`
      : base;
    return { ok: true, channel: channel.id, permalink };
  },
};

/** The chat.* methods. */
export const CHAT_METHODS: Record<string, MethodSpec> = {
  'chat.postMessage': postMessage,
  'chat.update': update,
  'chat.postEphemeral': postEphemeral,
  'chat.delete': deleteMessage,
  'chat.getPermalink': getPermalink,
};
