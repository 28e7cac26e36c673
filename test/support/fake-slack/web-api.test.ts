import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WebClientEvent } from '@slack/web-api';
import { fakeSlackPerTest, slackError, webClientFor } from './slack-clients.js';

const CHANNEL = 'C0RELAY01';

describe('fake Slack Web API', () => {
  const fake = fakeSlackPerTest();
  /** The HTTP statuses the stand-in answered one method's calls with, in order. */
  const statusesOf = (method: string) =>
    fake()
      .calls.filter((c) => c.method === method)
      .map((c) => c.status);

  it('answers auth.test for the bot token and refuses other tokens', async () => {
    const web = webClientFor(fake());
    const auth = await web.auth.test();
    assert.equal(auth.user_id, fake().botUserId);
    assert.equal(auth.team_id, fake().teamId);
    assert.equal(auth.bot_id, fake().botId);
    assert.ok(fake().apiUrl.endsWith('/api/'));
    assert.match(fake().botToken, /^xoxb-/);
    assert.match(fake().appToken, /^xapp-/);

    const wrong = webClientFor(fake(), { retryConfig: { retries: 0 } });
    assert.equal((await slackError(wrong.auth.test({ token: 'xoxb-nope' }))).error, 'invalid_auth');
    assert.equal(
      (await slackError(wrong.auth.test({ token: fake().appToken }))).error,
      'not_allowed_token_type',
    );
  });

  it('opens Socket Mode URLs only for the app token', async () => {
    const web = webClientFor(fake());
    const opened = await web.apps.connections.open({ token: fake().appToken });
    assert.match(String(opened.url), /^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/);
    assert.equal((await slackError(web.apps.connections.open({}))).error, 'not_allowed_token_type');
  });

  it('posts messages with unique increasing ts, and threads replies under their parent', async () => {
    const web = webClientFor(fake());
    const first = await web.chat.postMessage({ channel: CHANNEL, text: 'one' });
    const second = await web.chat.postMessage({ channel: CHANNEL, text: 'two' });
    assert.match(String(first.ts), /^\d{10}\.\d{6}$/);
    assert.ok(Number(second.ts) > Number(first.ts));
    assert.equal(first.channel, CHANNEL);
    assert.equal(first.message?.text, 'one');

    const reply = await web.chat.postMessage({
      channel: CHANNEL,
      text: 'in thread',
      thread_ts: String(first.ts),
    });
    const messages = fake().messages(CHANNEL);
    assert.deepEqual(
      messages.map((m) => m.text),
      ['one', 'two'],
    );
    assert.deepEqual(
      messages[0]?.replies.map((r) => [r.ts, r.threadTs]),
      [[reply.ts, first.ts]],
    );
  });

  it('refuses unknown channels, channels without the bot, and empty messages', async () => {
    fake().addChannel({
      id: 'C0PRIVATE',
      name: 'private',
      members: ['U0ALICE01'],
      botIsMember: false,
    });
    const web = webClientFor(fake());
    assert.equal(
      (await slackError(web.chat.postMessage({ channel: 'C0NOWHERE', text: 'x' }))).error,
      'channel_not_found',
    );
    assert.equal(
      (await slackError(web.chat.postMessage({ channel: 'C0PRIVATE', text: 'x' }))).error,
      'not_in_channel',
    );
    assert.equal(
      (await slackError(web.chat.postMessage({ channel: CHANNEL, text: '' }))).error,
      'no_text',
    );
  });

  it('keeps edit history on chat.update and refuses unknown messages', async () => {
    const web = webClientFor(fake());
    const posted = await web.chat.postMessage({ channel: CHANNEL, text: 'v1' });
    const updated = await web.chat.update({
      channel: CHANNEL,
      ts: String(posted.ts),
      text: 'v2',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'v2' } }],
    });
    assert.equal(updated.ts, posted.ts);
    const [message] = fake().messages(CHANNEL);
    assert.equal(message?.text, 'v2');
    assert.deepEqual(
      message?.history.map((h) => h.text),
      ['v1'],
    );
    assert.ok(message?.editedTs);
    assert.equal(typeof message?.blocks[0]?.block_id, 'string', 'Slack fills in block_id');
    assert.equal(
      (await slackError(web.chat.update({ channel: CHANNEL, ts: '1.000000', text: 'x' }))).error,
      'message_not_found',
    );
  });

  it('answers invalid_blocks with errors and [ERROR] messages naming the JSON pointer', async () => {
    const web = webClientFor(fake());
    const { error, data } = await slackError(
      web.chat.postMessage({
        channel: CHANNEL,
        text: 'x',
        blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }],
      }),
    );
    assert.equal(error, 'invalid_blocks');
    assert.deepEqual(data.errors, [
      'must be less than 151 characters (got 151) [json-pointer:/blocks/0/text/text]',
    ]);
    assert.deepEqual((data.response_metadata as { messages: string[] }).messages, [
      '[ERROR] must be less than 151 characters (got 151) [json-pointer:/blocks/0/text/text]',
    ]);
    assert.equal(fake().messages(CHANNEL).length, 0);

    const posted = await web.chat.postMessage({ channel: CHANNEL, text: 'ok' });
    const onUpdate = await slackError(
      web.chat.update({
        channel: CHANNEL,
        ts: String(posted.ts),
        text: 'x',
        blocks: [
          {
            type: 'input',
            label: { type: 'plain_text', text: 'l' },
            element: { type: 'plain_text_input' },
          },
        ],
      }),
    );
    assert.equal(onUpdate.error, 'invalid_blocks');
    assert.match(
      String((onUpdate.data.errors as string[])[0]),
      /input blocks are not allowed in messages/,
    );
  });

  it('accepts form bodies with a token field and JSON bodies with a Bearer token', async () => {
    const form = await fetch(`${fake().apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: fake().botToken,
        channel: CHANNEL,
        text: 'form',
        blocks: JSON.stringify([{ type: 'divider' }]),
      }),
    });
    assert.equal(form.status, 200);
    assert.equal(((await form.json()) as { ok: boolean }).ok, true);

    const json = await fetch(`${fake().apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        authorization: `Bearer ${fake().botToken}`,
      },
      body: JSON.stringify({ channel: CHANNEL, text: 'json', blocks: [{ type: 'divider' }] }),
    });
    assert.equal(((await json.json()) as { ok: boolean }).ok, true);

    const broken = await fetch(`${fake().apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: fake().botToken, channel: CHANNEL, blocks: '[{' }),
    });
    assert.equal(((await broken.json()) as { error: string }).error, 'invalid_blocks_format');
    assert.deepEqual(
      fake()
        .messages(CHANNEL)
        .map((m) => m.text),
      ['form', 'json'],
    );
    const call = fake().calls.find((c) => c.args.text === 'form');
    assert.deepEqual(call?.args.blocks, [{ type: 'divider' }], 'calls record blocks parsed');
    assert.equal(call?.args.token, undefined, 'calls never record the token');
  });

  it('serves ephemerals, delete, permalinks and the directory lookups', async () => {
    fake().addUser({ id: 'U0CAROL01', name: 'carol' });
    fake().addUserGroup({ id: 'S0REVIEW1', users: ['U0ALICE01', 'U0CAROL01'] });
    const web = webClientFor(fake());

    const eph = await web.chat.postEphemeral({ channel: CHANNEL, user: 'U0ALICE01', text: 'psst' });
    assert.ok(eph.message_ts);
    assert.deepEqual(
      fake()
        .ephemerals('U0ALICE01')
        .map((e) => e.text),
      ['psst'],
    );
    assert.equal(
      (await slackError(web.chat.postEphemeral({ channel: CHANNEL, user: 'U0CAROL01', text: 'x' })))
        .error,
      'user_not_in_channel',
    );

    const posted = await web.chat.postMessage({ channel: CHANNEL, text: 'doomed' });
    const link = await web.chat.getPermalink({ channel: CHANNEL, message_ts: String(posted.ts) });
    assert.match(String(link.permalink), new RegExp(`/archives/${CHANNEL}/p\\d{16}$`));
    await web.chat.delete({ channel: CHANNEL, ts: String(posted.ts) });
    assert.equal(fake().messages(CHANNEL).length, 0);

    const info = await web.conversations.info({ channel: CHANNEL });
    assert.equal(info.channel?.is_member, true);
    const user = await web.users.info({ user: 'U0CAROL01' });
    assert.equal(user.user?.name, 'carol');
    assert.equal((await slackError(web.users.info({ user: 'U0NOBODY' }))).error, 'user_not_found');
    const group = await web.usergroups.users.list({ usergroup: 'S0REVIEW1' });
    assert.deepEqual(group.users, ['U0ALICE01', 'U0CAROL01']);

    const dm = await web.chat.postMessage({ channel: 'U0ALICE01', text: 'direct' });
    assert.match(String(dm.channel), /^D/);
  });

  it('rejects invalid views with invalid_arguments, as Slack does for views.*', async () => {
    const web = webClientFor(fake());
    const { error, data } = await slackError(
      web.views.publish({
        user_id: 'U0ALICE01',
        view: { type: 'home', blocks: [{ type: 'markdown', text: 'x' }] },
      }),
    );
    assert.equal(error, 'invalid_arguments');
    assert.match(
      String((data.response_metadata as { messages: string[] }).messages[0]),
      /^\[ERROR\] unsupported type: markdown .*\[json-pointer:\/view\/blocks\/0\/type\]$/,
    );
    const published = await web.views.publish({
      user_id: 'U0ALICE01',
      view: { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'hi' } }] },
    });
    assert.equal(fake().homeView('U0ALICE01')?.id, published.view?.id);
  });

  it('rate-limits on demand: a real WebClient with default retries waits Retry-After and succeeds', async () => {
    const web = webClientFor(fake());
    const rateLimited: number[] = [];
    web.on(WebClientEvent.RATE_LIMITED, (seconds: number) => rateLimited.push(seconds));
    fake().failNext('chat.postMessage', { status: 429, retryAfter: 1 });

    const posted = await web.chat.postMessage({ channel: CHANNEL, text: 'after the pause' });
    assert.equal(posted.ok, true);
    assert.deepEqual(rateLimited, [1]);
    const attempts = fake().calls.filter((c) => c.method === 'chat.postMessage');
    assert.deepEqual(
      attempts.map((c) => [c.status, c.response.error ?? 'ok']),
      [
        [429, 'ratelimited'],
        [200, 'ok'],
      ],
    );
    assert.equal(fake().messages(CHANNEL).length, 1);
  });

  it('ends an outage on demand: failures not yet used are dropped', async () => {
    const web = webClientFor(fake(), { retryConfig: { retries: 0 } });
    fake().failNext('chat.postMessage', { status: 503 }, 100);
    await assert.rejects(web.chat.postMessage({ channel: CHANNEL, text: 'down' }));
    fake().clearFailures('chat.postMessage');
    const posted = await web.chat.postMessage({ channel: CHANNEL, text: 'back' });
    assert.equal(posted.ok, true);
    assert.deepEqual(statusesOf('chat.postMessage'), [503, 200]);
  });

  it('an outage fails every method, token or not, with an HTML 500 page, until lifted', async () => {
    const web = webClientFor(fake(), { retryConfig: { retries: 0 } });
    const lift = fake().startOutage();
    for (const call of [
      () => web.auth.test(),
      () => web.chat.postMessage({ channel: CHANNEL, text: 'down' }),
    ]) {
      await assert.rejects(call(), /statusCode = 500/);
    }
    const raw = await fetch(`${fake().apiUrl}auth.test`, { method: 'POST' });
    assert.equal(raw.status, 500);
    assert.match(String(raw.headers.get('content-type')), /^text\/html/);
    assert.match(await raw.text(), /^<!DOCTYPE html>/);
    lift();
    assert.equal((await web.chat.postMessage({ channel: CHANNEL, text: 'back' })).ok, true);
  });

  it('simulates outages (503) and injected errors for a number of calls', async () => {
    const web = webClientFor(fake(), {
      retryConfig: { retries: 2, minTimeout: 10, maxTimeout: 20 },
    });
    fake().failNext('chat.update', { status: 503 });
    fake().failNext('chat.postMessage', { error: 'not_in_channel' }, 2);

    assert.equal(
      (await slackError(web.chat.postMessage({ channel: CHANNEL, text: 'a' }))).error,
      'not_in_channel',
    );
    assert.equal(
      (await slackError(web.chat.postMessage({ channel: CHANNEL, text: 'b' }))).error,
      'not_in_channel',
    );
    const posted = await web.chat.postMessage({ channel: CHANNEL, text: 'c' });
    const updated = await web.chat.update({ channel: CHANNEL, ts: String(posted.ts), text: 'c2' });
    assert.equal(updated.ok, true);
    assert.deepEqual(statusesOf('chat.update'), [503, 200]);
  });

  it("refuses messages over Slack's unpublished ceiling: text plus a cost per block", async () => {
    const web = webClientFor(fake(), { retryConfig: { retries: 0 } });
    fake().setSizeCeilings({ messageText: 1000, perBlock: 100 });
    const section = (chars: number) => ({
      type: 'section',
      text: { type: 'mrkdwn', text: 'x'.repeat(chars) },
    });
    // 2 blocks: 2 × 100 + 800 = 1000, at the ceiling
    await web.chat.postMessage({
      channel: CHANNEL,
      text: 't',
      blocks: [section(400), section(400)],
    });
    const over = web.chat.postMessage({
      channel: CHANNEL,
      text: 't',
      blocks: [section(300), section(300), section(201)],
    });
    assert.equal((await slackError(over)).error, 'msg_blocks_too_long');
  });

  it('refuses views past 250 kB of JSON with view_too_large', async () => {
    const web = webClientFor(fake(), { retryConfig: { retries: 0 } });
    const huge = {
      type: 'home' as const,
      blocks: Array.from({ length: 100 }, () => ({
        type: 'section' as const,
        text: { type: 'mrkdwn' as const, text: '&'.repeat(2600) },
      })),
    };
    const refused = web.views.publish({ user_id: 'U0ALICE01', view: huge });
    assert.equal((await slackError(refused)).error, 'view_too_large');
    huge.blocks.length = 80;
    await web.views.publish({ user_id: 'U0ALICE01', view: huge });
  });

  it('refuses calls by content until the refusal is lifted', async () => {
    const web = webClientFor(fake(), { retryConfig: { retries: 0 } });
    const lift = fake().refuse('chat.postMessage', 'is_archived', (args) => args.text === 'no');
    assert.equal(
      (await slackError(web.chat.postMessage({ channel: CHANNEL, text: 'no' }))).error,
      'is_archived',
    );
    await web.chat.postMessage({ channel: CHANNEL, text: 'yes' });
    lift();
    await web.chat.postMessage({ channel: CHANNEL, text: 'no' });
  });

  it('takes a files.uploadV2 upload and shares it as a thread reply', async () => {
    const web = webClientFor(fake());
    const parent = await web.chat.postMessage({ channel: CHANNEL, text: 'parent' });
    const content = `# Big preview\n${'ü and more\n'.repeat(500)}`;
    const uploaded = await web.filesUploadV2({
      channel_id: CHANNEL,
      thread_ts: String(parent.ts),
      content,
      filename: 'preview.md',
      title: 'Full preview',
      initial_comment: 'The whole preview',
    });
    assert.equal(uploaded.ok, true);
    const [thread] = fake().messages(CHANNEL);
    const reply = thread?.replies[0];
    assert.equal(reply?.text, 'The whole preview');
    assert.equal(reply?.files?.[0]?.title, 'Full preview');
    assert.equal(reply?.files?.[0]?.content, content);
    assert.deepEqual(
      fake()
        .calls.map((c) => c.method)
        .filter((m) => m.startsWith('files.')),
      ['files.getUploadURLExternal', 'files.completeUploadExternal'],
    );
  });

  it('answers unknown methods with unknown_method', async () => {
    const web = webClientFor(fake(), { retryConfig: { retries: 0 } });
    assert.equal((await slackError(web.apiCall('chat.teleport', {}))).error, 'unknown_method');
  });
});
