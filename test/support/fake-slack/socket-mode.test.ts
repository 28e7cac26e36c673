import assert from 'node:assert/strict';
import { once } from 'node:events';
import { afterEach, describe, it } from 'node:test';
import type { SocketModeClient } from '@slack/socket-mode';
import WebSocket from 'ws';
import { waitFor } from '../wait.js';
import {
  DELIVERY_FAILURE_KINDS,
  type FakeSlack,
  type JsonObject,
  startFakeSlack,
} from './index.js';
import { postActionsMessage, socketClientFor, webClientFor } from './slack-clients.js';

const CHANNEL = 'C0RELAY01';
const ALICE = 'U0ALICE01';

interface SlackEventArgs {
  ack(response?: Record<string, unknown>): Promise<void>;
  envelope_id: string;
  type: string;
  body: JsonObject;
  accepts_response_payload: boolean;
  retry_num?: number;
  retry_reason?: string;
}

/** A deterministic [0, 1) source, so tests of "random" delivery do not depend on luck. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** A question with one button (yes); returns its ts. */
const postButtonMessage = (fake: FakeSlack) =>
  postActionsMessage(fake, { channel: CHANNEL, blockId: 'answer' }, [
    { type: 'button', action_id: 'yes', text: { type: 'plain_text', text: 'Yes' }, value: 'y' },
  ]);

describe('fake Slack Socket Mode', () => {
  let fake: FakeSlack | undefined;
  const clients: SocketModeClient[] = [];
  const sockets: WebSocket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) {
      // terminate() on a refused socket reports an error we do not care about
      socket.on('error', () => {});
      socket.terminate();
    }
    await Promise.all(clients.splice(0).map((c) => c.disconnect()));
    await fake?.close();
  });

  async function openRawSocket(
    target: FakeSlack,
  ): Promise<{ socket: WebSocket; hello: JsonObject; url: string }> {
    const opened = await webClientFor(target).apps.connections.open({ token: target.appToken });
    const url = String(opened.url);
    const socket = new WebSocket(url);
    sockets.push(socket);
    const [data] = (await once(socket, 'message')) as [Buffer];
    return { socket, hello: JSON.parse(data.toString()) as JsonObject, url };
  }

  it('greets with hello, refuses a reused URL, answers pings and pings the client', async () => {
    fake = await startFakeSlack({ pingIntervalMs: 50 });
    const { socket, hello, url } = await openRawSocket(fake);
    assert.equal(hello.type, 'hello');
    assert.equal(hello.num_connections, 1);
    assert.deepEqual(hello.connection_info, { app_id: fake.appId });
    const debug = hello.debug_info as JsonObject;
    assert.equal(typeof debug.host, 'string');
    assert.equal(typeof debug.approximate_connection_time, 'number');

    const second = await openRawSocket(fake);
    assert.equal(second.hello.num_connections, 2);

    const reused = new WebSocket(url);
    sockets.push(reused);
    const [, response] = (await once(reused, 'unexpected-response')) as [
      unknown,
      { statusCode: number },
    ];
    assert.equal(response.statusCode, 401);

    socket.ping('are you there');
    const [pong] = (await once(socket, 'pong')) as [Buffer];
    assert.equal(pong.toString(), 'are you there');
    await once(socket, 'ping');
  });

  it('holds hellos on demand: a connection waiting for its hello is not open and gets no envelope', async () => {
    fake = await startFakeSlack();
    const target = fake;
    const release = target.holdHellos();
    const opened = await webClientFor(target).apps.connections.open({ token: target.appToken });
    const socket = new WebSocket(String(opened.url));
    sockets.push(socket);
    const frames: JsonObject[] = [];
    socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()) as JsonObject));
    await once(socket, 'open');
    await waitFor(() => target.connectionsOpened === 1, 'the socket accepted');
    assert.equal(target.connectionCount, 0, 'not open before its hello');
    const ts = await postButtonMessage(target);
    const click = await target.clickButton({ channel: CHANNEL, ts, actionId: 'yes', user: ALICE });
    assert.equal(click.acked, false);
    assert.deepEqual(
      target.failures.map((f) => f.kind),
      [DELIVERY_FAILURE_KINDS.noConnection],
    );
    assert.equal(frames.length, 0, 'nothing sent before the hello');

    release();
    const hello = await waitFor(() => frames[0], 'the hello, once released');
    assert.equal(hello.type, 'hello');
    assert.equal(hello.num_connections, 1);
    assert.equal(target.connectionCount, 1);
  });

  it('delivers an interactive envelope to a real SocketModeClient and returns its ack payload', async () => {
    fake = await startFakeSlack();
    const client = socketClientFor(fake);
    clients.push(client);
    const seen: SlackEventArgs[] = [];
    client.on('slack_event', async (args: SlackEventArgs) => {
      seen.push(args);
      await args.ack({ note: 'thanks' });
    });
    await client.start();
    const ts = await postButtonMessage(fake);

    const result = await fake.clickButton({ channel: CHANNEL, ts, actionId: 'yes', user: ALICE });
    assert.equal(result.acked, true);
    assert.deepEqual(result.ackPayload, { note: 'thanks' });
    const [event] = seen;
    assert.ok(event);
    assert.equal(event.type, 'interactive');
    assert.equal(event.accepts_response_payload, true);
    assert.equal(event.retry_num, 0);
    assert.equal(event.retry_reason, '');
    assert.match(event.envelope_id, /^[0-9a-f-]{36}$/);
    assert.equal(event.body.type, 'block_actions');
    assert.deepEqual(event.body, result.payload);
    assert.deepEqual(fake.failures, []);
  });

  it('records an envelope that is not acked in time as a failure and reports acked: false', async () => {
    fake = await startFakeSlack({ ackTimeoutMs: 300 });
    const client = socketClientFor(fake);
    clients.push(client);
    client.on('slack_event', () => {
      // never acks
    });
    await client.start();
    const ts = await postButtonMessage(fake);

    const result = await fake.clickButton({ channel: CHANNEL, ts, actionId: 'yes', user: ALICE });
    assert.equal(result.acked, false);
    assert.deepEqual(
      fake.failures.map((f) => [f.kind, f.envelopeType, f.payloadType]),
      [[DELIVERY_FAILURE_KINDS.noAck, 'interactive', 'block_actions']],
    );
  });

  it('fails deliveries when no app is connected', async () => {
    fake = await startFakeSlack();
    const ts = await postButtonMessage(fake);
    const result = await fake.clickButton({ channel: CHANNEL, ts, actionId: 'yes', user: ALICE });
    assert.equal(result.acked, false);
    assert.equal(fake.failures[0]?.kind, DELIVERY_FAILURE_KINDS.noConnection);
  });

  it('sends disconnect (refresh_requested, warning, link_disabled) and the real client reconnects', async () => {
    fake = await startFakeSlack();
    const client = socketClientFor(fake, { clientPingTimeout: 2000 });
    clients.push(client);
    let connected = 0;
    client.on('connected', () => {
      connected += 1;
    });
    client.on('slack_event', async ({ ack }: SlackEventArgs) => ack());
    await client.start();
    const ts = await postButtonMessage(fake);
    const target = fake;

    for (const reason of ['refresh_requested', 'warning', 'link_disabled'] as const) {
      const before = connected;
      await target.disconnectAll(reason);
      await waitFor(
        () => connected > before && target.connectionCount === 1,
        `reconnect after disconnect (${reason})`,
      );
      const result = await target.clickButton({
        channel: CHANNEL,
        ts,
        actionId: 'yes',
        user: ALICE,
      });
      assert.equal(result.acked, true, `delivery after reconnect (${reason})`);
    }
    const opens = target.calls.filter((c) => c.method === 'apps.connections.open');
    assert.equal(opens.length, 4, 'one apps.connections.open per (re)connection');
  });

  it('hands each envelope to exactly one of several open connections, spread between them', async () => {
    fake = await startFakeSlack({ random: seeded(7) });
    const received = new Map<string, string[]>();
    for (const name of ['first', 'second']) {
      const client = socketClientFor(fake);
      clients.push(client);
      received.set(name, []);
      client.on('slack_event', async ({ ack, envelope_id }: SlackEventArgs) => {
        received.get(name)?.push(envelope_id);
        await ack();
      });
      await client.start();
    }
    assert.equal(fake.connectionCount, 2);
    const ts = await postButtonMessage(fake);

    const clicks = 30;
    for (let i = 0; i < clicks; i += 1) {
      const result = await fake.clickButton({ channel: CHANNEL, ts, actionId: 'yes', user: ALICE });
      assert.equal(result.acked, true);
    }
    const first = received.get('first') ?? [];
    const second = received.get('second') ?? [];
    assert.equal(first.length + second.length, clicks);
    assert.equal(new Set([...first, ...second]).size, clicks, 'no envelope went to both');
    assert.ok(first.length > 0 && second.length > 0, `split ${first.length}/${second.length}`);
    assert.equal(new Set(fake.deliveries.map((d) => d.connectionId)).size, 2);
  });

  it('drops one connection (disconnect message, or cut) and hands the next envelopes to the others', async () => {
    fake = await startFakeSlack();
    const target = fake;
    const frames = new Map<WebSocket, JsonObject[]>();
    const open = async () => {
      const { socket } = await openRawSocket(target);
      frames.set(socket, []);
      socket.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as JsonObject;
        frames.get(socket)?.push(frame);
        if (typeof frame.envelope_id === 'string') {
          socket.send(JSON.stringify({ envelope_id: frame.envelope_id }));
        }
      });
      return socket;
    };
    const sockets = [await open(), await open(), await open()];
    const ts = await postButtonMessage(target);
    const click = () => target.clickButton({ channel: CHANNEL, ts, actionId: 'yes', user: ALICE });

    for (const [n, how] of (['refresh_requested', 'cut'] as const).entries()) {
      const before = target.openConnectionIds;
      const dropped = await target.dropConnection({ connectionId: before[0], how });
      assert.equal(dropped, before[0]);
      assert.deepEqual(target.openConnectionIds, before.slice(1), `after ${how}`);
      const socket = sockets[n] as WebSocket;
      await waitFor(() => socket.readyState === WebSocket.CLOSED, `socket ${dropped} closed`);
      const told = (frames.get(socket) ?? []).filter((f) => f.type === 'disconnect');
      assert.deepEqual(
        told.map((f) => f.reason),
        how === 'cut' ? [] : [how],
        'a disconnect message unless the connection was cut',
      );
      const delivered = target.deliveries.length;
      for (let i = 0; i < 4; i += 1) assert.equal((await click()).acked, true);
      for (const d of target.deliveries.slice(delivered)) {
        assert.ok(before.slice(1).includes(d.connectionId), `delivered on ${d.connectionId}`);
        assert.equal(d.openConnections, before.length - 1);
      }
    }
    assert.deepEqual(target.failures, []);
    await assert.rejects(
      target.dropConnection({ connectionId: 1 }),
      /no open Socket Mode connection 1 \(open: 3\)/,
    );
  });

  it('takes an ack only on the connection its envelope went out on', async () => {
    let pick = 0;
    fake = await startFakeSlack({ ackTimeoutMs: 500, pickConnection: () => pick });
    const first = await openRawSocket(fake);
    const second = await openRawSocket(fake);
    const envelopes: string[] = [];
    first.socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as JsonObject;
      if (typeof frame.envelope_id === 'string') envelopes.push(frame.envelope_id);
    });
    const ts = await postButtonMessage(fake);
    pick = 0; // the oldest open connection: the first socket
    const click = fake.clickButton({ channel: CHANNEL, ts, actionId: 'yes', user: ALICE });
    const envelopeId = await waitFor(() => envelopes[0], 'the envelope on the first socket');
    second.socket.send(JSON.stringify({ envelope_id: envelopeId }));
    const result = await click;
    assert.equal(result.acked, false, 'the ack on the other connection did not count');
    assert.deepEqual(
      fake.failures.map((f) => f.kind),
      [DELIVERY_FAILURE_KINDS.noAck],
    );
  });

  it('measures each ack: how long it took, and the Web API calls made before it', async () => {
    fake = await startFakeSlack();
    const target = fake;
    const client = socketClientFor(target);
    clients.push(client);
    const web = webClientFor(target);
    client.on('slack_event', async ({ ack, body }: SlackEventArgs) => {
      if (body.type === 'block_actions') {
        // slow work first: the ack is late by one call
        await web.chat.postMessage({ channel: CHANNEL, text: 'working on it' });
      }
      await ack();
    });
    await client.start();
    const ts = await postButtonMessage(target);

    const clicked = await target.clickButton({
      channel: CHANNEL,
      ts,
      actionId: 'yes',
      user: ALICE,
    });
    const opened = await target.sendEvent({ type: 'app_home_opened', user: ALICE, tab: 'home' });
    for (const result of [clicked, opened]) {
      assert.equal(result.acked, true);
      assert.ok(result.timing && result.timing.ms >= 0 && result.timing.ms < 3000);
    }
    const calls = (r: typeof clicked) =>
      target.calls.slice(r.timing?.callsAtSend, r.timing?.callsAtAck).map((c) => c.method);
    assert.deepEqual(calls(clicked), ['chat.postMessage'], 'the call made before the ack');
    assert.deepEqual(calls(opened), []);
    assert.deepEqual(
      target.deliveredPayloads.map((p) => [p.envelopeType, p.payloadType, p.subject, p.acked]),
      [
        ['interactive', 'block_actions', 'yes', true],
        ['events_api', 'event_callback', 'app_home_opened', true],
      ],
    );
  });

  it('sends a raw frame as given and reports whether an ack with its envelope_id came back', async () => {
    fake = await startFakeSlack({ ackTimeoutMs: 300 });
    assert.deepEqual(await fake.sendSocketFrame('null'), { sent: false, acked: false });
    const { socket } = await openRawSocket(fake);
    const frames: string[] = [];
    socket.on('message', (data: Buffer) => {
      const text = data.toString();
      frames.push(text);
      if (text.includes('ack-me')) socket.send(JSON.stringify({ envelope_id: 'ack-me' }));
    });

    assert.deepEqual(await fake.sendSocketFrame('{not json'), { sent: true, acked: false });
    const acked = '{"envelope_id":"ack-me","type":"interactive","payload":null}';
    assert.deepEqual(await fake.sendSocketFrame(acked, { envelopeId: 'ack-me' }), {
      sent: true,
      acked: true,
    });
    const ignored = '{"envelope_id":"left","type":"interactive","payload":null}';
    assert.deepEqual(await fake.sendSocketFrame(ignored, { envelopeId: 'left' }), {
      sent: true,
      acked: false,
    });
    assert.deepEqual(frames, ['{not json', acked, ignored]);
    assert.deepEqual(fake.failures, [], 'raw frames are not recorded as failed deliveries');
  });
});
