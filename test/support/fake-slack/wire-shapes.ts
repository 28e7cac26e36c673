import type { FakeChannel, FakeUser, JsonObject, StoredMessage, StoredView } from './types.js';
import { viewSurfaceKey, type Workspace } from './workspace.js';

/** `user` as interaction payloads carry it. */
export const userRef = (workspace: Workspace, user: FakeUser): JsonObject => ({
  id: user.id,
  username: user.name,
  name: user.name,
  team_id: workspace.identity.teamId,
});

/** `team` as interaction payloads carry it. */
export const teamRef = (workspace: Workspace): JsonObject => ({
  id: workspace.identity.teamId,
  domain: workspace.identity.teamDomain,
});

/** `channel` as interaction payloads carry it. */
export const channelRef = (channel: FakeChannel): JsonObject => ({
  id: channel.id,
  name: channel.isIm ? 'directmessage' : channel.name,
});

/** A stored message in the shape Slack returns it (Web API responses and payloads). */
export function messageJson(workspace: Workspace, message: StoredMessage): JsonObject {
  const { identity } = workspace;
  return {
    user: message.user,
    type: 'message',
    ts: message.ts,
    bot_id: identity.botId,
    app_id: identity.appId,
    text: message.text,
    team: identity.teamId,
    blocks: structuredClone(message.blocks),
    ...(message.threadTs ? { thread_ts: message.threadTs, parent_user_id: message.user } : {}),
    ...(message.replyTs.length > 0
      ? { thread_ts: message.ts, reply_count: message.replyTs.length }
      : {}),
    ...(message.editedTs ? { edited: { user: message.user, ts: message.editedTs } } : {}),
  };
}

/** A stored view in the shape Slack returns it, with the current `state.values`. */
export function viewJson(workspace: Workspace, view: StoredView): JsonObject {
  const { identity } = workspace;
  const definition = view.definition;
  const blocks = Array.isArray(definition.blocks) ? (definition.blocks as JsonObject[]) : [];
  return {
    id: view.id,
    team_id: identity.teamId,
    type: view.type,
    blocks: structuredClone(blocks),
    private_metadata: definition.private_metadata ?? '',
    callback_id: definition.callback_id ?? '',
    state: {
      values: workspace.elementState.stateValues(viewSurfaceKey(view.id), blocks),
    },
    hash: view.hash,
    title: definition.title ?? null,
    clear_on_close: definition.clear_on_close ?? false,
    notify_on_close: definition.notify_on_close ?? false,
    close: definition.close ?? null,
    submit: definition.submit ?? null,
    previous_view_id: view.previousViewId,
    root_view_id: view.rootViewId,
    app_id: identity.appId,
    external_id: view.externalId,
    app_installed_team_id: identity.teamId,
    bot_id: identity.botId,
  };
}
