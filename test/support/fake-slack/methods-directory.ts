import { fail, type MethodSpec } from './method-support.js';
import type { FakeChannel, FakeUser, JsonObject } from './types.js';
import { booleanArg, stringArg } from './web-api-request.js';
import type { Workspace } from './workspace.js';

function channelJson(workspace: Workspace, channel: FakeChannel): JsonObject {
  if (channel.isIm) {
    return {
      id: channel.id,
      created: channel.created,
      is_im: true,
      is_org_shared: false,
      user: channel.imUser,
      is_user_deleted: false,
      priority: 0,
    };
  }
  return {
    id: channel.id,
    name: channel.name,
    is_channel: true,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: false,
    created: channel.created,
    is_archived: channel.archived === true,
    is_general: false,
    name_normalized: channel.name,
    is_shared: false,
    is_org_shared: false,
    is_member: channel.members.has(workspace.identity.botUserId),
    num_members: channel.members.size,
    context_team_id: workspace.identity.teamId,
  };
}

function userJson(workspace: Workspace, user: FakeUser): JsonObject {
  return {
    id: user.id,
    team_id: workspace.identity.teamId,
    name: user.name,
    deleted: user.deleted,
    real_name: user.name,
    tz: 'Etc/UTC',
    tz_offset: 0,
    is_admin: false,
    is_owner: false,
    is_bot: user.isBot,
    is_app_user: false,
    profile: { real_name: user.name, display_name: user.name, team: workspace.identity.teamId },
  };
}

/** auth.test, apps.connections.open and the lookups (conversations, users, user groups). */
export const DIRECTORY_METHODS: Record<string, MethodSpec> = {
  'auth.test': {
    token: 'bot',
    handle({ workspace }) {
      const { identity } = workspace;
      return {
        ok: true,
        url: `https://${identity.teamDomain}.slack.com/`,
        team: identity.teamName,
        user: identity.botName,
        team_id: identity.teamId,
        user_id: identity.botUserId,
        bot_id: identity.botId,
        is_enterprise_install: false,
      };
    },
  },
  'apps.connections.open': {
    token: 'app',
    handle(ctx) {
      return { ok: true, url: ctx.openSocketUrl() };
    },
  },
  'conversations.info': {
    token: 'bot',
    // each kind of conversation has its own read scope
    scope({ args, workspace }) {
      const ref = stringArg(args, 'channel');
      return ref && workspace.channels.get(ref)?.isIm ? 'im:read' : 'channels:read';
    },
    handle({ args, workspace }) {
      const ref = stringArg(args, 'channel');
      const channel = ref ? workspace.channels.get(ref) : undefined;
      if (!channel) return fail('channel_not_found');
      return { ok: true, channel: channelJson(workspace, channel) };
    },
  },
  'conversations.open': {
    token: 'bot',
    scope: 'im:write',
    handle({ args, workspace }) {
      const users = (stringArg(args, 'users') ?? '').split(',').filter(Boolean);
      if (users.length === 0) return fail('users_list_not_supplied');
      const [only, ...others] = users;
      if (others.length > 0) return fail('not_supported', { detail: 'group DMs are not modelled' });
      if (!only || !workspace.users.has(only)) return fail('user_not_found');
      const channel = workspace.openIm(only);
      return { ok: true, channel: { id: channel.id } };
    },
  },
  'users.info': {
    token: 'bot',
    scope: 'users:read',
    handle({ args, workspace }) {
      const id = stringArg(args, 'user');
      const user = id ? workspace.users.get(id) : undefined;
      if (!user) return fail('user_not_found');
      return { ok: true, user: userJson(workspace, user) };
    },
  },
  'usergroups.users.list': {
    token: 'bot',
    scope: 'usergroups:read',
    handle({ args, workspace }) {
      const id = stringArg(args, 'usergroup');
      if (!id) return fail('invalid_arguments');
      const group = workspace.userGroups.get(id);
      if (!group || (group.disabled && booleanArg(args, 'include_disabled') !== true)) {
        return fail('no_such_subteam');
      }
      return { ok: true, users: [...group.users] };
    },
  },
  'usergroups.list': {
    token: 'bot',
    scope: 'usergroups:read',
    handle({ args, workspace }) {
      const withDisabled = booleanArg(args, 'include_disabled') === true;
      const withUsers = booleanArg(args, 'include_users') === true;
      const usergroups = [...workspace.userGroups.values()]
        .filter((group) => withDisabled || !group.disabled)
        .map((group) => ({
          id: group.id,
          team_id: workspace.identity.teamId,
          is_usergroup: true,
          name: group.handle,
          handle: group.handle,
          is_external: false,
          date_create: 1_700_000_000,
          // Slack marks a disabled group by when it was disabled
          date_delete: group.disabled ? 1_700_000_100 : 0,
          ...(withUsers ? { users: [...group.users] } : {}),
          user_count: group.users.length,
        }));
      return { ok: true, usergroups };
    },
  },
};
