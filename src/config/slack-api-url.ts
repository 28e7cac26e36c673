/**
 * What is wrong with `SLACK_API_URL`, in words that never quote it; undefined if it is fine.
 * Each refusal is a URL no request could ever be made to: retrying would not help, so the
 * relay does not start with it. (Credentials in it are refused before, by the secrets rule.)
 */
export function slackApiUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be a URL like https://slack.com/api/';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'must be an https:// URL like https://slack.com/api/ (http:// only for a stand-in)';
  }
  if (url.username !== '' || url.password !== '') {
    return 'must not have a user name or password in it: the bot token authenticates every request, and a request to a URL with credentials cannot be made';
  }
  if (url.search !== '' || url.hash !== '') {
    return "has a query or a fragment, which would end up in front of every method's name; leave them out (like https://slack.com/api/)";
  }
  return undefined;
}
