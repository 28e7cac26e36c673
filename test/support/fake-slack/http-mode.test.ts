import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { App, type BlockAction, isValidSlackRequest } from '@slack/bolt';
import { waitFor } from '../wait.js';
import { DELIVERY_FAILURE_KINDS, type FakeSlack, startFakeSlack } from './index.js';
import { postActionsMessage, sendO7Command, silentLogger } from './slack-clients.js';

const CHANNEL = 'C0RELAY01';
const ALICE = 'U0ALICE01';
const plain = (text: string) => ({ type: 'plain_text' as const, text });

/** A Bolt App in HTTP mode, listening on a random port, with its Web API pointed at the stand-in. */
async function startHttpApp(fake: FakeSlack, signingSecret = fake.signingSecret) {
  const app = new App({
    token: fake.botToken,
    signingSecret,
    logger: silentLogger,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
  });
  const server = await app.start(0);
  const { port } = server.address() as AddressInfo;
  return { app, requestUrl: `http://127.0.0.1:${port}/slack/events` };
}

/** A question with a button (open) and a type-ahead select (search); returns its ts. */
const postQuestion = (fake: FakeSlack) =>
  postActionsMessage(fake, { channel: CHANNEL, blockId: 'q1' }, [
    { type: 'button', action_id: 'open', text: plain('Answer…'), value: 'q1' },
    {
      type: 'external_select',
      action_id: 'search',
      min_query_length: 1,
      placeholder: plain('Find'),
    },
  ]);

describe('fake Slack HTTP mode with a real Bolt App', () => {
  const apps: App[] = [];
  const fakes: FakeSlack[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.stop()));
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  /** A stand-in that delivers to a new Bolt App in HTTP mode; both are stopped after the test. */
  async function startPair(signingSecret?: string) {
    const fake = await startFakeSlack();
    fakes.push(fake);
    const { app, requestUrl } = await startHttpApp(fake, signingSecret ?? fake.signingSecret);
    apps.push(app);
    fake.setRequestUrl(requestUrl);
    return { fake, app };
  }

  it('posts signed interactions that Bolt verifies, and takes the HTTP response as the ack', async () => {
    const { fake, app } = await startPair();
    const clicks: BlockAction[] = [];
    app.action<BlockAction>('open', async ({ ack, body, client }) => {
      await ack();
      clicks.push(body);
      await client.views.open({
        trigger_id: body.trigger_id,
        view: {
          type: 'modal',
          callback_id: 'answer',
          private_metadata: 'batch-7',
          title: plain('Answer'),
          submit: plain('Send'),
          blocks: [
            {
              type: 'input',
              block_id: 'free',
              label: plain('Your answer'),
              element: { type: 'plain_text_input', action_id: 'text' },
            },
          ],
        },
      });
    });
    const submissions: string[] = [];
    app.view('answer', async ({ ack, view }) => {
      const text = String(view.state.values.free?.text?.value ?? '');
      submissions.push(`${view.private_metadata}:${text}`);
      if (text.length < 3) {
        await ack({ response_action: 'errors', errors: { free: 'Say a little more' } });
        return;
      }
      await ack();
    });
    const ts = await postQuestion(fake);

    const click = await fake.clickButton({ channel: CHANNEL, ts, actionId: 'open', user: ALICE });
    assert.equal(click.acked, true);
    assert.equal(clicks[0]?.user.id, ALICE);
    const [modal] = await waitFor(
      () => fake.views(ALICE).length === 1 && fake.views(ALICE),
      'the modal',
    );

    const short = await fake.submitView({
      viewId: String(modal?.id),
      user: ALICE,
      values: { free: { text: 'no' } },
    });
    assert.equal(short.acked, true);
    assert.deepEqual(short.ackPayload, {
      response_action: 'errors',
      errors: { free: 'Say a little more' },
    });
    assert.deepEqual(fake.views(ALICE)[0]?.errors, { free: 'Say a little more' });

    const good = await fake.submitView({
      viewId: String(modal?.id),
      user: ALICE,
      values: { free: { text: 'a real answer' } },
    });
    assert.equal(good.acked, true);
    assert.deepEqual(fake.views(ALICE), [], 'an empty ack closes the modal');
    assert.deepEqual(submissions, ['batch-7:no', 'batch-7:a real answer']);
    assert.deepEqual(fake.failures, []);
  });

  it('returns the options Bolt answers to a block_suggestion and lets the user pick one', async () => {
    const { fake, app } = await startPair();
    app.options('search', async ({ ack, payload }) => {
      await ack({
        options: [
          { text: plain(`${payload.value} (exact)`), value: payload.value },
          { text: plain('something else'), value: 'else' },
        ],
      });
    });
    const picked: unknown[] = [];
    app.action<BlockAction>('search', async ({ ack, action }) => {
      await ack();
      picked.push(action);
    });
    const ts = await postQuestion(fake);

    const suggestion = await fake.suggest({
      channel: CHANNEL,
      ts,
      actionId: 'search',
      value: 'red',
      user: ALICE,
    });
    assert.equal(suggestion.acked, true);
    assert.deepEqual(
      suggestion.options.map((o) => o.value),
      ['red', 'else'],
    );
    await fake.selectOption({
      channel: CHANNEL,
      ts,
      actionId: 'search',
      value: 'red',
      user: ALICE,
    });
    assert.deepEqual(picked, [
      {
        type: 'external_select',
        action_id: 'search',
        block_id: 'q1',
        selected_option: { text: plain('red (exact)'), value: 'red' },
        placeholder: plain('Find'),
        action_ts: (picked[0] as { action_ts: string }).action_ts,
      },
    ]);
  });

  it('signs Events API JSON bodies and slash-command form bodies too', async () => {
    const { fake, app } = await startPair();
    const seen: string[] = [];
    app.event('app_home_opened', async ({ event }) => {
      seen.push(`event:${event.user}`);
    });
    app.command('/o7', async ({ ack, command }) => {
      await ack();
      seen.push(`command:${command.text}`);
    });

    const event = await fake.sendEvent({ type: 'app_home_opened', user: ALICE, tab: 'home' });
    assert.equal(event.acked, true);
    await sendO7Command(fake, 'status', ALICE, CHANNEL);
    await waitFor(() => seen.length === 2, 'the command and the event');
    assert.deepEqual(seen.sort(), ['command:status', `event:${ALICE}`]);
  });

  it('is refused by Bolt when signed with another secret, which is recorded as a failure', async () => {
    const { fake, app } = await startPair('not-the-signing-secret');
    let reached = false;
    app.action('open', async ({ ack }) => {
      reached = true;
      await ack();
    });
    const ts = await postQuestion(fake);

    const click = await fake.clickButton({ channel: CHANNEL, ts, actionId: 'open', user: ALICE });
    assert.equal(click.acked, false);
    assert.equal(reached, false);
    assert.equal(fake.failures[0]?.kind, DELIVERY_FAILURE_KINDS.httpStatus);
    assert.match(String(fake.failures[0]?.detail), /HTTP 401/);
  });

  it('posts a raw body exactly as given, signed as Slack signs, with honest or skewed timestamps', async () => {
    const fake = await startFakeSlack();
    fakes.push(fake);
    const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(400);
        res.end('refused');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      fake.setRequestUrl(`http://127.0.0.1:${port}/slack/events`);
      const contentType = 'application/x-www-form-urlencoded';

      const answer = await fake.postSignedBody({ body: 'payload=null', contentType });
      assert.deepEqual(answer, { kind: 'answered', status: 400, text: 'refused' });
      fake.skewRequestTimestamps(600);
      await fake.postSignedBody({ body: 'null', contentType: 'application/json' });

      const [honest, skewed] = seen;
      assert.ok(honest && skewed);
      assert.equal(honest.body, 'payload=null');
      assert.equal(honest.headers['content-type'], contentType);
      assert.equal(skewed.body, 'null');
      const stamp = (s: typeof honest) => Number(s.headers['x-slack-request-timestamp']);
      const nowSec = Date.now() / 1000;
      assert.ok(Math.abs(stamp(honest) - nowSec) < 60, 'honest timestamp is now');
      assert.ok(Math.abs(stamp(skewed) - (nowSec + 600)) < 60, 'skewed timestamp is 10 min ahead');
      for (const { headers, body } of seen) {
        const valid = isValidSlackRequest({
          signingSecret: fake.signingSecret,
          body,
          headers: {
            'x-slack-signature': String(headers['x-slack-signature']),
            'x-slack-request-timestamp': Number(headers['x-slack-request-timestamp']),
          },
        });
        assert.equal(valid, true, `signature of ${body}`);
      }
      assert.deepEqual(fake.failures, [], 'raw posts are not recorded as failed deliveries');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
