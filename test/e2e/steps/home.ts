// The App Home tab, as a person opens it.
import assert from 'node:assert/strict';
import type { FakeSlack, ObservedView } from '../../support/fake-slack/index.js';
import { waitFor } from '../../support/wait.js';

/** Opens `user`'s App Home tab (the event Slack sends) and waits for the view it publishes. */
export async function openHome(slack: FakeSlack, user: string): Promise<ObservedView> {
  const published = () => slack.calls.filter((c) => c.method === 'views.publish').length;
  const before = published();
  const result = await slack.sendEvent({
    type: 'app_home_opened',
    user,
    channel: 'D0HOME001',
    tab: 'home',
  });
  assert.equal(result.acked, true, 'the app_home_opened event was acknowledged');
  await waitFor(() => published() > before, `views.publish for ${user}`);
  return waitFor(() => slack.homeView(user), `${user}'s Home tab`);
}
