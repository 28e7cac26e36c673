/** A channel or conversation id as Slack gives them (`C…`, `G…`, `D…`). */
const CONVERSATION_ID = /^[A-Z0-9]{2,40}$/;
/** A message ts: seconds, a dot, microseconds. */
const MESSAGE_TS = /^\d{1,12}\.\d{1,8}$/;

/**
 * The link to a top-level message, formed as Slack forms its permalinks: the workspace's URL
 * (what `auth.test` answers as `url`), `archives/<channel id>/p<ts without its dot>`. Made
 * here, it costs no `chat.getPermalink` call per message. Undefined when the URL is not an
 * http(s) URL or the ids are not Slack's.
 */
export function messageLink(workspaceUrl: string, channel: string, ts: string): string | undefined {
  if (!CONVERSATION_ID.test(channel) || !MESSAGE_TS.test(ts)) return undefined;
  let base: URL;
  try {
    base = new URL(workspaceUrl);
  } catch {
    return undefined;
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') return undefined;
  const root = base.origin + base.pathname.replace(/\/*$/, '/');
  return `${root}archives/${channel}/p${ts.replace('.', '')}`;
}
