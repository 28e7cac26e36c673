import type { FakeChannel, FakeUser, JsonObject, StoredMessage, StoredView } from './types.js';
import { channelRef, messageJson, teamRef, userRef, viewJson } from './wire-shapes.js';
import { messageSurfaceKey, type Workspace } from './workspace.js';

/** Where an interaction happens: a message in a channel, or a view. */
export type InteractionSurface =
  | { kind: 'message'; channel: FakeChannel; message: StoredMessage }
  | { kind: 'view'; view: StoredView };

/** Fields every interaction payload shares. */
function common(workspace: Workspace, user: FakeUser): JsonObject {
  return {
    user: userRef(workspace, user),
    api_app_id: workspace.identity.appId,
    token: workspace.identity.verificationToken,
    team: teamRef(workspace),
    enterprise: null,
    is_enterprise_install: false,
  };
}

/** The parts of a payload that describe the surface (container, channel/message or view). */
function surfaceFields(
  workspace: Workspace,
  user: FakeUser,
  surface: InteractionSurface,
): JsonObject {
  if (surface.kind === 'view') {
    return {
      container: { type: 'view', view_id: surface.view.id },
      view: viewJson(workspace, surface.view),
    };
  }
  const { channel, message } = surface;
  return {
    container: {
      type: 'message',
      message_ts: message.ts,
      channel_id: channel.id,
      is_ephemeral: false,
      ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
    },
    channel: channelRef(channel),
    message: messageJson(workspace, message),
    state: {
      values: workspace.elementState.stateValues(
        messageSurfaceKey(channel.id, message.ts, user.id),
        message.blocks,
      ),
    },
  };
}

/** A `block_actions` payload, built after the user's client state has been updated. */
export function blockActionsPayload(input: {
  workspace: Workspace;
  user: FakeUser;
  surface: InteractionSurface;
  action: JsonObject;
  triggerId: string;
  responseUrl?: string;
}): JsonObject {
  const { workspace, user, surface } = input;
  return {
    type: 'block_actions',
    ...common(workspace, user),
    trigger_id: input.triggerId,
    ...surfaceFields(workspace, user, surface),
    ...(input.responseUrl ? { response_url: input.responseUrl } : {}),
    actions: [input.action],
  };
}

/** A `block_suggestion` payload: the user typed `value` into an external select. */
export function blockSuggestionPayload(input: {
  workspace: Workspace;
  user: FakeUser;
  surface: InteractionSurface;
  blockId: string;
  actionId: string;
  value: string;
}): JsonObject {
  const { workspace, user, surface } = input;
  const { state: _messageState, ...where } = surfaceFields(workspace, user, surface);
  return {
    type: 'block_suggestion',
    ...common(workspace, user),
    ...where,
    action_id: input.actionId,
    block_id: input.blockId,
    value: input.value,
  };
}

/** Who acted on which view: what both view payloads are built from. */
interface ViewEvent {
  workspace: Workspace;
  user: FakeUser;
  view: StoredView;
}

/** A view payload of `type`: the user and team, `fields`, and the view as Slack shows it. */
function viewPayload(type: string, input: ViewEvent, fields: JsonObject = {}): JsonObject {
  const { workspace, user } = input;
  return { type, ...common(workspace, user), ...fields, view: viewJson(workspace, input.view) };
}

/** A `view_submission` payload for the user's top modal. */
export function viewSubmissionPayload(input: ViewEvent & { triggerId: string }): JsonObject {
  return {
    ...viewPayload('view_submission', input, { trigger_id: input.triggerId }),
    response_urls: [],
  };
}

/** A `view_closed` payload (only sent for views with `notify_on_close`). */
export function viewClosedPayload(input: ViewEvent): JsonObject {
  return { ...viewPayload('view_closed', input), is_cleared: false };
}

/** A slash command payload (form fields, all strings, as Slack posts them). */
export function slashCommandPayload(input: {
  workspace: Workspace;
  user: FakeUser;
  channel: FakeChannel;
  command: string;
  text: string;
  triggerId: string;
  responseUrl: string;
}): JsonObject {
  const { workspace, user, channel } = input;
  return {
    token: workspace.identity.verificationToken,
    team_id: workspace.identity.teamId,
    team_domain: workspace.identity.teamDomain,
    channel_id: channel.id,
    channel_name: channel.isIm ? 'directmessage' : channel.name,
    user_id: user.id,
    user_name: user.name,
    command: input.command,
    text: input.text,
    api_app_id: workspace.identity.appId,
    is_enterprise_install: 'false',
    response_url: input.responseUrl,
    trigger_id: input.triggerId,
  };
}

/** An Events API `event_callback` wrapper around one event. */
export function eventCallbackPayload(input: {
  workspace: Workspace;
  event: JsonObject;
  eventId: string;
  eventTs: string;
}): JsonObject {
  const { workspace } = input;
  const { identity } = workspace;
  return {
    token: identity.verificationToken,
    team_id: identity.teamId,
    context_team_id: identity.teamId,
    api_app_id: identity.appId,
    event: { event_ts: input.eventTs, ...input.event },
    type: 'event_callback',
    event_id: input.eventId,
    event_time: Math.floor(Number(input.eventTs)),
    authorizations: [
      {
        enterprise_id: null,
        team_id: identity.teamId,
        user_id: identity.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
}

/** The `action_ts` Slack stamps on an action (microsecond string of the injected clock). */
export const actionTs = (now: number): string => (now / 1000).toFixed(6);
