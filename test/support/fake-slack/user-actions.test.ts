import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { App, BlockAction } from '@slack/bolt';
import type { SocketModeClient } from '@slack/socket-mode';
import { waitFor } from '../wait.js';
import { type FakeSlack, type JsonObject, startFakeSlack, TRIGGER_LIFETIME_MS } from './index.js';
import { sendO7Command, socketAppFor, socketClientFor, webClientFor } from './slack-clients.js';

const CHANNEL = 'C0RELAY01';
const ALICE = 'U0ALICE01';
const BOB = 'U0BOB0001';
const plain = (text: string) => ({ type: 'plain_text' as const, text });
const option = (value: string) => ({ text: plain(value.toUpperCase()), value });

const selectBlock = {
  type: 'section',
  block_id: 'pick',
  text: { type: 'mrkdwn', text: 'Which one?' },
  accessory: {
    type: 'static_select',
    action_id: 'choice',
    options: [option('a'), option('b')],
    initial_option: option('b'),
  },
};
const checkboxBlock = (options: string[]) => ({
  type: 'actions',
  block_id: 'many',
  elements: [
    {
      type: 'checkboxes',
      action_id: 'ticks',
      options: options.map(option),
      initial_options: [option('x')],
    },
    { type: 'radio_buttons', action_id: 'radio', options: [option('p'), option('q')] },
  ],
});
const submitBlock = {
  type: 'actions',
  block_id: 'go',
  elements: [
    { type: 'button', action_id: 'send', text: plain('Send'), value: 'batch-1', style: 'primary' },
  ],
};

const answerModal = (extra: JsonObject = {}) => ({
  type: 'modal' as const,
  callback_id: 'answer',
  private_metadata: '{"seq":3}',
  title: plain('Answer'),
  submit: plain('Send'),
  close: plain('Cancel'),
  blocks: [
    {
      type: 'input',
      block_id: 'free',
      label: plain('Your answer'),
      element: { type: 'plain_text_input', action_id: 'text', initial_value: 'draft' },
    },
    {
      type: 'input',
      block_id: 'pick',
      optional: true,
      label: plain('Pick'),
      element: { type: 'checkboxes', action_id: 'ticks', options: [option('x'), option('y')] },
    },
  ],
  ...extra,
});

/** Posts `text` with the Send button as the bot (in a thread when `threadTs` is given); returns its ts. */
async function postWithSend(fake: FakeSlack, text = 'q', threadTs?: string): Promise<string> {
  const posted = await webClientFor(fake).chat.postMessage({
    channel: CHANNEL,
    text,
    blocks: [submitBlock],
    ...(threadTs ? { thread_ts: threadTs } : {}),
  });
  return String(posted.ts);
}

/** Alice clicks Send on the message at `ts`. */
function clickSend(fake: FakeSlack, ts: string) {
  return fake.clickButton({ channel: CHANNEL, ts, actionId: 'send', user: ALICE });
}

/** Waits until Alice has exactly one modal open, and returns it. */
async function aliceModal(fake: FakeSlack): Promise<JsonObject | undefined> {
  const [modal] = await waitFor(
    () => fake.views(ALICE).length === 1 && fake.views(ALICE),
    'the modal',
  );
  return modal;
}

describe('fake Slack acting as users', () => {
  let fake: FakeSlack | undefined;
  const apps: App[] = [];
  const clients: SocketModeClient[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.stop()));
    await Promise.all(clients.splice(0).map((c) => c.disconnect()));
    await fake?.close();
  });

  /** A Bolt App in Socket Mode, connected to the stand-in. */
  async function startSocketApp(target: FakeSlack): Promise<App> {
    const app = socketAppFor(target);
    apps.push(app);
    await app.start();
    return app;
  }

  /** A Socket Mode app that acks every click on Send and keeps its payload. */
  async function recordSendClicks(target: FakeSlack): Promise<BlockAction[]> {
    const app = await startSocketApp(target);
    const bodies: BlockAction[] = [];
    app.action<BlockAction>('send', async ({ ack, body }) => {
      await ack();
      bodies.push(body);
    });
    return bodies;
  }

  /** A bare SocketModeClient that acks everything with an empty payload. */
  async function startAckingClient(target: FakeSlack): Promise<void> {
    const client = socketClientFor(target);
    clients.push(client);
    client.on('slack_event', async ({ ack }: { ack: () => Promise<void> }) => ack());
    await client.start();
  }

  it('builds block_actions payloads like Slack, with the full message and a response_url', async () => {
    fake = await startFakeSlack();
    const bodies = await recordSendClicks(fake);
    const posted = await webClientFor(fake).chat.postMessage({
      channel: CHANNEL,
      text: 'Run 42 asks',
      blocks: [selectBlock, submitBlock],
    });

    const result = await fake.clickButton({
      channel: CHANNEL,
      ts: String(posted.ts),
      actionId: 'send',
      user: ALICE,
    });
    assert.equal(result.acked, true);
    const body = bodies[0] as unknown as JsonObject;
    assert.ok(body);
    assert.equal(body.type, 'block_actions');
    assert.deepEqual(body.user, {
      id: ALICE,
      username: 'alice',
      name: 'alice',
      team_id: fake.teamId,
    });
    assert.equal(body.api_app_id, fake.appId);
    assert.equal(typeof body.token, 'string');
    assert.deepEqual(body.container, {
      type: 'message',
      message_ts: posted.ts,
      channel_id: CHANNEL,
      is_ephemeral: false,
    });
    assert.match(String(body.trigger_id), /^\d+\.\d+\.[0-9a-f]{32}$/);
    assert.deepEqual(body.team, { id: fake.teamId, domain: 'fake-o7' });
    assert.equal(body.enterprise, null);
    assert.equal(body.is_enterprise_install, false);
    assert.deepEqual(body.channel, { id: CHANNEL, name: 'o7-relay' });
    const message = body.message as JsonObject;
    assert.equal(message.ts, posted.ts);
    assert.equal(message.bot_id, fake.botId);
    assert.deepEqual(message.blocks, fake.message(CHANNEL, String(posted.ts))?.blocks);
    assert.match(String(body.response_url), /^http:\/\/127\.0\.0\.1:\d+\/actions\//);
    const [action] = body.actions as JsonObject[];
    assert.deepEqual(
      { ...action, action_ts: undefined },
      {
        action_id: 'send',
        block_id: 'go',
        text: plain('Send'),
        value: 'batch-1',
        style: 'primary',
        type: 'button',
        action_ts: undefined,
      },
    );
  });

  it('a thread parent carries thread_ts equal to its own ts in payloads, as in Slack', async () => {
    fake = await startFakeSlack();
    const bodies = await recordSendClicks(fake);
    const parent = await postWithSend(fake, 'p');
    const reply = await postWithSend(fake, 'r', parent);
    await clickSend(fake, parent);
    await clickSend(fake, reply);
    const [onParent, onReply] = bodies.map((b) => b.message as unknown as JsonObject);
    assert.equal(onParent?.ts, parent);
    assert.equal(onParent?.thread_ts, parent, 'a parent with replies names its own thread');
    assert.equal(onReply?.ts, reply);
    assert.equal(onReply?.thread_ts, parent);
  });

  it("tracks each user's element state per message: kept while a block id survives an update, reset by a new block id", async () => {
    fake = await startFakeSlack();
    await startAckingClient(fake);
    const web = webClientFor(fake);
    const posted = await web.chat.postMessage({
      channel: CHANNEL,
      text: 'q',
      blocks: [selectBlock, checkboxBlock(['x', 'y']), submitBlock],
    });
    const ts = String(posted.ts);
    const stateOf = async (user: string) => {
      const click = await fake!.clickButton({ channel: CHANNEL, ts, actionId: 'send', user });
      return (click.payload.state as { values: Record<string, Record<string, JsonObject>> }).values;
    };

    assert.deepEqual(await stateOf(ALICE), {
      pick: { choice: { type: 'static_select', selected_option: option('b') } },
      many: {
        ticks: { type: 'checkboxes', selected_options: [option('x')] },
        radio: { type: 'radio_buttons', selected_option: null },
      },
    });

    const picked = await fake.selectOption({
      channel: CHANNEL,
      ts,
      actionId: 'choice',
      value: 'a',
      user: ALICE,
    });
    assert.deepEqual((picked.payload.actions as JsonObject[])[0]?.selected_option, option('a'));
    const ticked = await fake.selectOptions({
      channel: CHANNEL,
      ts,
      actionId: 'ticks',
      values: ['x', 'y'],
      user: ALICE,
    });
    assert.deepEqual((ticked.payload.actions as JsonObject[])[0]?.selected_options, [
      option('x'),
      option('y'),
    ]);
    await fake.selectOption({ channel: CHANNEL, ts, actionId: 'radio', value: 'q', user: ALICE });

    const alice = await stateOf(ALICE);
    assert.deepEqual(alice.pick?.choice?.selected_option, option('a'));
    assert.deepEqual(alice.many?.ticks?.selected_options, [option('x'), option('y')]);
    assert.deepEqual(alice.many?.radio?.selected_option, option('q'));
    assert.deepEqual(
      (await stateOf(BOB)).pick?.choice?.selected_option,
      option('b'),
      "Bob's client is his own",
    );

    // Slack's clients keep a person's picks in blocks whose id survives an update, whatever
    // the new initial values say; other people see the new initial values.
    const update = (blocks: JsonObject[]) =>
      web.chat.update({ channel: CHANNEL, ts, text: 'q', blocks: blocks as never });
    const selectNowA = {
      ...selectBlock,
      accessory: { ...selectBlock.accessory, initial_option: option('a') },
    };
    await update([selectNowA, checkboxBlock(['x', 'y', 'z']), submitBlock]);
    const afterUpdate = await stateOf(ALICE);
    assert.deepEqual(afterUpdate.pick?.choice?.selected_option, option('a'));
    assert.deepEqual(
      afterUpdate.many?.ticks?.selected_options,
      [option('x'), option('y')],
      'a changed block with the same id keeps her ticks',
    );
    assert.deepEqual(afterUpdate.many?.radio?.selected_option, option('q'));
    assert.deepEqual((await stateOf(BOB)).pick?.choice?.selected_option, option('a'));

    const renamed = { ...checkboxBlock(['x', 'y', 'z']), block_id: 'many-2' };
    await update([selectBlock, renamed, submitBlock]);
    const afterNewId = await stateOf(ALICE);
    assert.deepEqual(
      afterNewId['many-2']?.ticks?.selected_options,
      [option('x')],
      'a new block id shows the initial ticks',
    );
    assert.equal(afterNewId['many-2']?.radio?.selected_option, null);
    assert.deepEqual(
      afterNewId.pick?.choice?.selected_option,
      option('a'),
      'the kept block keeps her pick',
    );

    await update([selectBlock, checkboxBlock(['x', 'y']), submitBlock]);
    assert.deepEqual(
      (await stateOf(ALICE)).many?.ticks?.selected_options,
      [option('x')],
      'a block id that went away and came back starts from its initial value',
    );

    await assert.rejects(
      fake.selectOption({ channel: CHANNEL, ts, actionId: 'choice', value: 'nope', user: ALICE }),
      /no option with value "nope"/,
    );
    await assert.rejects(
      fake.clickButton({ channel: CHANNEL, ts, actionId: 'choice', user: ALICE }),
      /is a static_select/,
    );
  });

  it('hands out fresh trigger_ids that open one view within 3 s of the injected clock', async () => {
    let clock = 1_700_000_000_000;
    fake = await startFakeSlack({ now: () => clock });
    await startAckingClient(fake);
    const web = webClientFor(fake, { retryConfig: { retries: 0 } });
    const posted = await postWithSend(fake);
    assert.equal(posted, '1700000000.000000');
    const click = async () => String((await clickSend(fake!, posted)).payload.trigger_id);
    const open = async (triggerId: string) => {
      try {
        const opened = await web.views.open({ trigger_id: triggerId, view: answerModal() });
        return opened.ok ? 'ok' : String(opened.error);
      } catch (error) {
        return String((error as { data?: { error?: string } }).data?.error);
      }
    };

    const first = await click();
    const second = await click();
    assert.notEqual(first, second);
    clock += TRIGGER_LIFETIME_MS;
    assert.equal(await open(first), 'ok', 'still valid at exactly 3 s');
    assert.equal(await open(first), 'exchanged_trigger_id');
    clock += 1;
    assert.equal(await open(second), 'expired_trigger_id');
    assert.equal(await open('123.456.deadbeef'), 'invalid_trigger_id');
    assert.equal(fake.views(ALICE).length, 1);
  });

  it('submits modals with state, private_metadata, callback_id and hash, and follows response_action', async () => {
    fake = await startFakeSlack();
    const app = await startSocketApp(fake);
    let answer: JsonObject = {};
    const submissions: JsonObject[] = [];
    app.view('answer', async ({ ack, body }) => {
      submissions.push(body as unknown as JsonObject);
      await ack(answer as never);
    });
    const closed: string[] = [];
    app.view({ callback_id: 'answer', type: 'view_closed' }, async ({ ack, body }) => {
      await ack();
      closed.push(body.view.id);
    });
    app.action<BlockAction>('send', async ({ ack, body, client }) => {
      await ack();
      await client.views.open({
        trigger_id: body.trigger_id,
        view: answerModal({ notify_on_close: true }),
      });
    });
    const posted = await postWithSend(fake);
    await clickSend(fake, posted);
    const modal = await aliceModal(fake);
    const viewId = String(modal?.id);

    answer = {
      response_action: 'update',
      view: answerModal({ title: plain('Thanks'), notify_on_close: true }),
    };
    await fake.submitView({ viewId, user: ALICE, values: { pick: { ticks: ['y'] } } });
    const submitted = submissions[0]?.view as JsonObject;
    assert.equal(submissions[0]?.type, 'view_submission');
    assert.match(String(submissions[0]?.trigger_id), /^\d+\.\d+\.[0-9a-f]{32}$/);
    assert.equal(submitted.callback_id, 'answer');
    assert.equal(submitted.private_metadata, '{"seq":3}');
    assert.equal(submitted.hash, modal?.hash);
    assert.deepEqual((submitted.state as JsonObject).values, {
      free: { text: { type: 'plain_text_input', value: 'draft' } },
      pick: { ticks: { type: 'checkboxes', selected_options: [option('y')] } },
    });
    const [updated] = fake.views(ALICE);
    assert.equal(updated?.id, viewId, 'update keeps the view id');
    assert.notEqual(updated?.hash, modal?.hash, 'update changes the hash');
    assert.deepEqual(updated?.title, plain('Thanks'));

    answer = { response_action: 'push', view: answerModal({ callback_id: 'answer' }) };
    await fake.submitView({ viewId, user: ALICE });
    assert.equal(fake.views(ALICE).length, 2);
    const top = fake.views(ALICE)[1];
    assert.equal(top?.root_view_id, viewId);
    assert.equal(top?.previous_view_id, viewId);

    await assert.rejects(fake.submitView({ viewId, user: ALICE }), /not the top modal/);
    await assert.rejects(
      fake.submitView({ viewId: String(top?.id), user: ALICE, values: { free: { text: '' } } }),
      /required input free\/text is empty/,
    );
    answer = { response_action: 'clear' };
    await fake.submitView({
      viewId: String(top?.id),
      user: ALICE,
      values: { free: { text: 'done' } },
    });
    assert.deepEqual(fake.views(ALICE), []);

    await clickSend(fake, posted);
    const again = await aliceModal(fake);
    const closing = await fake.closeView({ viewId: String(again?.id), user: ALICE });
    assert.equal(closing.notified, true);
    assert.equal(closing.acked, true);
    assert.deepEqual(closed, [again?.id]);
    assert.deepEqual(fake.views(ALICE), []);
    assert.deepEqual(fake.failures, []);
  });

  it('sends a modal once: a second submit while the first waits for its ack is refused', async () => {
    fake = await startFakeSlack();
    const app = await startSocketApp(fake);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let submissions = 0;
    app.view('answer', async ({ ack }) => {
      submissions += 1;
      await held;
      await ack();
    });
    app.action<BlockAction>('send', async ({ ack, body, client }) => {
      await ack();
      await client.views.open({ trigger_id: body.trigger_id, view: answerModal() });
    });
    await clickSend(fake, await postWithSend(fake));
    const viewId = String((await aliceModal(fake))?.id);
    const first = fake.submitView({ viewId, user: ALICE });
    await assert.rejects(
      fake.submitView({ viewId, user: ALICE }),
      /is being submitted already; Slack's client sends a form once/,
    );
    release();
    assert.equal((await first).acked, true);
    assert.equal(submissions, 1);
    assert.deepEqual(fake.views(ALICE), []);
  });

  it('records a response_action view that Slack would reject as a failure and keeps the modal', async () => {
    fake = await startFakeSlack();
    const app = await startSocketApp(fake);
    app.action<BlockAction>('send', async ({ ack, body, client }) => {
      await ack();
      await client.views.open({ trigger_id: body.trigger_id, view: answerModal() });
    });
    app.view('answer', async ({ ack }) => {
      await ack({
        response_action: 'update',
        view: { ...answerModal(), blocks: [{ type: 'markdown', text: 'not in modals' }] },
      } as never);
    });
    const posted = await postWithSend(fake);
    await clickSend(fake, posted);
    const modal = await aliceModal(fake);

    const result = await fake.submitView({ viewId: String(modal?.id), user: ALICE });
    assert.equal(result.acked, true);
    assert.equal(fake.views(ALICE)[0]?.hash, modal?.hash);
    assert.equal(fake.failures[0]?.kind, 'invalid_ack_payload');
    assert.match(String(fake.failures[0]?.detail), /unsupported type: markdown/);
  });

  it('applies response_url posts: replace the original, reply ephemerally, refuse invalid blocks', async () => {
    fake = await startFakeSlack();
    const app = await startSocketApp(fake);
    const outcomes: string[] = [];
    app.action<BlockAction>('send', async ({ ack, respond }) => {
      await ack();
      await respond({
        replace_original: true,
        text: 'Answered',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Answered*' } }],
      });
      await respond({ text: 'only you can see this' });
      try {
        await respond({
          replace_original: true,
          text: 'x',
          blocks: [{ type: 'header', text: plain('') }],
        });
        outcomes.push('accepted');
      } catch (error) {
        outcomes.push(String((error as { statusCode?: number }).statusCode));
      }
    });
    const posted = await postWithSend(fake);
    await clickSend(fake, posted);
    const target = fake;

    await waitFor(() => outcomes.length === 1, 'the outcome');
    assert.deepEqual(outcomes, ['400']);
    const [message] = target.messages(CHANNEL);
    assert.equal(message?.text, 'Answered');
    assert.deepEqual(
      message?.history.map((h) => h.text),
      ['q'],
    );
    assert.deepEqual(
      target.ephemerals(ALICE).map((e) => e.text),
      ['only you can see this'],
    );
  });

  it('delivers Events API events and slash commands to a Bolt App', async () => {
    fake = await startFakeSlack();
    const app = await startSocketApp(fake);
    app.event('app_home_opened', async ({ event, client }) => {
      await client.views.publish({
        user_id: event.user,
        view: {
          type: 'home',
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Pending: 0' } }],
        },
      });
    });
    const commands: string[] = [];
    app.command('/o7', async ({ ack, command }) => {
      await ack();
      commands.push(`${command.user_id}:${command.text}`);
    });
    const target = fake;

    const event = await fake.sendEvent({
      type: 'app_home_opened',
      user: ALICE,
      channel: 'D0ALICE',
      tab: 'home',
    });
    assert.equal(event.acked, true);
    await waitFor(() => target.homeView(ALICE), 'the Home view');
    assert.equal(fake.homeView(ALICE)?.type, 'home');

    await sendO7Command(fake, 'status', ALICE, CHANNEL);
    assert.deepEqual(commands, [`${ALICE}:status`]);
  });
});
