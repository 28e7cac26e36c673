/** Who may answer: Slack user IDs and user group IDs, from `RELAY_ALLOWED_USERS`. */
export interface AllowList {
  users: readonly string[];
  groups: readonly string[];
}

/** Members of each user group, by group ID, as last fetched from Slack. */
export type GroupMembers = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Whether a person may act on batches: everyone when there is no allow list, otherwise those
 * listed by ID and the members of the listed groups (as far as they are known).
 */
export function isAllowed(
  userId: string,
  allowList: AllowList | undefined,
  groupMembers: GroupMembers,
): boolean {
  if (!allowList) return true;
  if (allowList.users.includes(userId)) return true;
  return allowList.groups.some((group) => groupMembers.get(group)?.has(userId) === true);
}

/** How many people and groups a refusal names before it says "and N more". */
const NAMED_AT_MOST = 10;

/**
 * The ephemeral a refused person gets, as mrkdwn: who may answer (as mentions, which Slack
 * shows as names) and what to do about it. IDs were validated at start, so nothing to escape.
 */
export function refusalMrkdwn(allowList: AllowList): string {
  const names = [
    ...allowList.users.map((id) => `<@${id}>`),
    ...allowList.groups.map((id) => `members of <!subteam^${id}>`),
  ];
  const shown = names.slice(0, NAMED_AT_MOST);
  const more = names.length - shown.length;
  const who =
    more > 0 ? `${shown.join(', ')} and ${more} more` : joinWithAnd(shown) || 'nobody yet';
  return `Only ${who} may answer these questions; ask one of them, or ask an admin to add you to \`RELAY_ALLOWED_USERS\`. Nothing was changed.`;
}

/** The same refusal for places that show plain text only (errors under a modal's input). */
export const REFUSAL_PLAIN =
  "Only people on this relay's allow list may answer these questions, and you are not on it (any more). Nothing was saved; ask an admin to add you to RELAY_ALLOWED_USERS.";

function joinWithAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
