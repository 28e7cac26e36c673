import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MANIFEST_BOT_SCOPES } from './index.js';
import { mentionsIn } from './mentions.js';
import { fakeSlackPerTest, slackError, webClientFor } from './slack-clients.js';

const CHANNEL = 'C0RELAY01';

describe('fake Slack: scopes, people and groups', () => {
  const fake = fakeSlackPerTest();

  it('lists the granted scopes in x-oauth-scopes, as the Slack client reads them', async () => {
    const web = webClientFor(fake());
    const auth = await web.auth.test();
    assert.deepEqual(auth.response_metadata?.scopes, [...MANIFEST_BOT_SCOPES]);
    const opened = await web.apps.connections.open({ token: fake().appToken });
    assert.deepEqual(opened.response_metadata?.scopes, ['connections:write']);
  });

  it('refuses a method whose scope was not granted with missing_scope, needed and provided', async () => {
    fake().setBotScopes(['chat:write']);
    const web = webClientFor(fake(), { retryConfig: { retries: 0 } });
    const { data } = await slackError(web.users.info({ user: 'U0ALICE01' }));
    assert.equal(data.error, 'missing_scope');
    assert.equal(data.needed, 'users:read');
    assert.equal(data.provided, 'chat:write');
    assert.deepEqual((await web.auth.test()).response_metadata?.scopes, ['chat:write']);
    await web.chat.postMessage({ channel: CHANNEL, text: 'still allowed' });
  });

  it('apps.connections.open hands out a URL without opening a connection', async () => {
    const web = webClientFor(fake());
    await web.apps.connections.open({ token: fake().appToken });
    assert.equal(fake().connectionsOpened, 0);
    assert.equal(fake().connectionCount, 0);
  });

  it('finds a deactivated user with deleted: true, and an unknown one not at all', async () => {
    fake().addUser({ id: 'U0GONE001', name: 'gone', deleted: true });
    const web = webClientFor(fake(), { retryConfig: { retries: 0 } });
    const gone = await web.users.info({ user: 'U0GONE001' });
    assert.equal(gone.user?.deleted, true);
    assert.equal((await web.users.info({ user: 'U0ALICE01' })).user?.deleted, false);
    assert.equal((await slackError(web.users.info({ user: 'U0NOBODY1' }))).error, 'user_not_found');
  });

  it('lists user groups, disabled ones only when asked, with date_delete set', async () => {
    fake().addUserGroup({ id: 'S0LIVE001', users: ['U0ALICE01'], handle: 'oncall' });
    fake().addUserGroup({ id: 'S0OLD0001', users: [], handle: 'old', disabled: true });
    const web = webClientFor(fake(), { retryConfig: { retries: 0 } });
    const live = await web.usergroups.list({});
    assert.deepEqual(
      live.usergroups?.map((g) => [g.id, g.handle, g.date_delete]),
      [['S0LIVE001', 'oncall', 0]],
    );
    const all = await web.usergroups.list({ include_disabled: true });
    const old = all.usergroups?.find((g) => g.id === 'S0OLD0001');
    assert.ok((old?.date_delete ?? 0) > 0);
    assert.equal(
      (await slackError(web.usergroups.users.list({ usergroup: 'S0OLD0001' }))).error,
      'no_such_subteam',
    );
  });

  it('records the mentions Slack would make of posted text, and none of defused or plain_text text', async () => {
    fake().addUserGroup({ id: 'S0ONCALL1', users: ['U0BOB0001'], handle: 'oncall' });
    const web = webClientFor(fake());
    await web.chat.postMessage({
      channel: CHANNEL,
      text: 'ping @here and <@U0ALICE01>',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: '(@channel) *@bob* mail bob@example.com' },
        },
        { type: 'section', text: { type: 'mrkdwn', text: '@everyone', verbatim: true } },
        { type: 'section', text: { type: 'plain_text', text: '@here <!channel>' } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: '@\u2060here @\u2060oncall' }] },
        { type: 'markdown', text: 'Hey @oncall, <!everyone>' },
      ],
    });
    assert.deepEqual(
      fake().mentions.map((m) => [m.target, m.how, m.field]),
      [
        ['U0ALICE01', 'markup', 'text'],
        ['here', 'plain', 'text'],
        ['channel', 'plain', 'blocks/0/text/text'],
        ['U0BOB0001', 'plain', 'blocks/0/text/text'],
        ['S0ONCALL1', 'plain', 'blocks/4/text'],
      ],
    );
    assert.ok(fake().mentions.every((m) => m.surface === 'message'));
  });
});

describe('mention parsing', () => {
  const names = (name: string) => (name === 'bob' ? 'U0BOB0001' : undefined);
  const targets = (text: string) =>
    mentionsIn(text, { markup: true, plain: true, names }).map((m) => m.target);

  it('takes @here, @channel and @everyone in any case and with trailing punctuation', () => {
    assert.deepEqual(targets('@HERE. then @channel, then (@everyone)'), [
      'here',
      'channel',
      'everyone',
    ]);
  });

  it('takes @name only for a known name, and not inside words or paths', () => {
    assert.deepEqual(targets('@bob @carol bob@bob.dev /@bob/pkg x@here'), ['U0BOB0001']);
  });

  it('takes every markup form', () => {
    assert.deepEqual(targets('<!here> <!channel|@channel> <@W0ABC> <!subteam^S0AB|@team>'), [
      'here',
      'channel',
      'W0ABC',
      'S0AB',
    ]);
  });
});
