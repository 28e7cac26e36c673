/**
 * Slack's ID shapes, one set for the whole relay: configuration, payloads, mentions and direct
 * messages agree on what a member, group or channel ID is. Slack's IDs are an upper-case
 * letter and digits; 30 characters is far above any seen, and keeps input bounded.
 */

/** A member: `U…`, or `W…` on Enterprise Grid. */
export const SLACK_USER_ID = /^[UW][A-Z0-9]{2,30}$/;

/** A bot user shown by its bot ID (`B…`), which Slack also renders as a mention. */
export const SLACK_BOT_ID = /^B[A-Z0-9]{2,30}$/;

/** A user group ("subteam"): `S…`. */
export const SLACK_GROUP_ID = /^S[A-Z0-9]{2,30}$/;

/** A conversation: a channel (`C…`), a private channel (`G…`) or a direct message (`D…`). */
export const SLACK_CHANNEL_ID = /^[CGD][A-Z0-9]{2,30}$/;
