/** The error code of a Slack Web API failure (`invalid_auth`, `not_in_channel`, …), if it is one. */
export function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** A Slack error's code, or else its message: what to show a person. */
export function describeSlackError(error: unknown): string {
  return slackErrorCode(error) ?? (error instanceof Error ? error.message : String(error));
}

/** What to do about the usual Slack errors, in one sentence. */
export function fixFor(error: string): string {
  if (
    error.includes('invalid_auth') ||
    error.includes('not_authed') ||
    error.includes('token_revoked')
  ) {
    return 'the token is wrong or was revoked: copy it again from your Slack app (OAuth & Permissions for xoxb-, Basic Information → App-Level Tokens for xapp-)';
  }
  if (error.includes('missing_scope')) {
    return 'the app lacks a scope: update it from manifest.yml (App Manifest tab), then reinstall the app to the workspace';
  }
  if (error.includes('not_in_channel')) {
    return 'invite the bot to the channel: /invite @<your app’s bot name> in SLACK_CHANNEL_ID';
  }
  if (error.includes('channel_not_found')) {
    return 'check SLACK_CHANNEL_ID (channel details → About → Channel ID); for a private channel, invite the bot first';
  }
  if (error.includes('is_archived')) {
    return 'the channel is archived: unarchive it or set SLACK_CHANNEL_ID to another channel';
  }
  if (error.includes('not_allowed_token_type')) {
    return 'SLACK_APP_TOKEN must be an app-level token (xapp-) with the connections:write scope';
  }
  if (
    error.includes('ECONNREFUSED') ||
    error.includes('ENOTFOUND') ||
    error.includes('fetch failed')
  ) {
    return 'Slack cannot be reached: check the network, proxies, and SLACK_API_URL';
  }
  if (error.includes('ratelimited') || error.includes('rate limit')) {
    return 'Slack is rate-limiting the app; the relay waits and retries by itself';
  }
  return 'see the README troubleshooting section';
}
