import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { ErrorCode, RelayError } from '../../errors.js';
import { classifySlackFailure, type SlackAnswer } from './token-check.js';

type WebClient = webApi.WebClient;

/** Why Slack says `RELAY_ESCALATE_TO` could never take a batch (beside Slack's own codes). */
const NOT_A_PERSON = 'is_bot';
const DEACTIVATED = 'deactivated';
const NO_SUCH_GROUP = 'no_such_group';
const GROUP_DISABLED = 'group_disabled';

/**
 * Whether the user or user group escalated batches go to exists and can answer: a user must
 * be an active person (`users.info`), a group must exist and be enabled (`usergroups.list`).
 * `ok` carries how to name it; `rejected` why it cannot be used; `unreachable` says nothing
 * about the target.
 */
export async function checkEscalationTarget(
  client: WebClient,
  to: string,
): Promise<SlackAnswer<string>> {
  try {
    if (to.startsWith('S')) {
      const res = await client.usergroups.list({ include_disabled: true });
      const group = res.usergroups?.find((g) => g.id === to);
      if (!group) return { ok: false, kind: 'rejected', code: NO_SUCH_GROUP };
      if ((group.date_delete ?? 0) > 0)
        return { ok: false, kind: 'rejected', code: GROUP_DISABLED };
      return { ok: true, value: `user group @${group.handle ?? to}` };
    }
    const { user } = await client.users.info({ user: to });
    if (user?.deleted) return { ok: false, kind: 'rejected', code: DEACTIVATED };
    if (user?.is_bot || to === 'USLACKBOT')
      return { ok: false, kind: 'rejected', code: NOT_A_PERSON };
    return { ok: true, value: `user @${user?.name ?? to}` };
  } catch (error) {
    return classifySlackFailure(error);
  }
}

/** What is wrong with `RELAY_ESCALATE_TO` and what to do, for a code from the check above. */
export function escalationProblem(to: string, code: string): string {
  const is = `RELAY_ESCALATE_TO is ${to}`;
  switch (code) {
    case 'user_not_found':
      return `${is}, but Slack knows no user with that ID in this workspace; copy the member ID again (their profile → ⋯ → Copy member ID)`;
    case DEACTIVATED:
      return `${is}, a deactivated account, which can never answer; give someone active`;
    case NOT_A_PERSON:
      return `${is}, a bot or app, which cannot answer questions; give a person or a user group`;
    case NO_SUCH_GROUP:
      return `${is}, but there is no user group with that ID in this workspace; copy the group ID again (the group's page → ⋯ → Copy group ID)`;
    case GROUP_DISABLED:
      return `${is}, a disabled user group; enable it again or give another group or person`;
    case 'missing_scope':
      return `${is}, but the app may not look people and groups up (missing_scope); update the app from manifest.yml (App Manifest tab) and reinstall it`;
    default:
      return `${is}, which Slack refused to look up (${code}); check the ID`;
  }
}

/**
 * At start: a target that can never take a batch is a configuration error (the relay exits
 * 2); when Slack cannot be asked right now, the relay starts anyway and says so, since a
 * network problem is no reason to stop.
 */
export async function checkEscalationAtStart(
  client: WebClient,
  to: string,
  log: Logger,
): Promise<void> {
  const found = await checkEscalationTarget(client, to);
  if (found.ok) return;
  if (found.kind === 'rejected') {
    throw new RelayError(
      ErrorCode.ConfigInvalid,
      `The relay cannot start: ${escalationProblem(to, found.code)}. Then start again.`,
    );
  }
  log.warn(
    { to, reason: found.reason },
    `could not check RELAY_ESCALATE_TO (${found.reason}); starting anyway`,
  );
}
