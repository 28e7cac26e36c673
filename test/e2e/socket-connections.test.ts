// The relay holds two Socket Mode connections of its app, and Slack hands each click to one of
// them: while one is away (Slack's disconnect, a cut link, the client's 5 s pause before it
// reconnects), the other takes every click, so a drop costs no click.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS, actionId, FREE_WRITE_INPUT } from '../../src/core/slack/controls/ids.js';
import type { FakeSlack } from '../support/fake-slack/index.js';
import { captureLog } from '../support/log-capture.js';
import { ALICE, allConnected } from '../support/relay-harness.js';
import { sampleBatch } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  choose,
  click,
  expectAnswerFile,
  healthyRelayPerTest,
  postBatch,
  pressSubmit,
  pressYesNo,
  relayStarter,
  waitForAnswered,
  waitForText,
} from './relay-steps.js';

/** The connection the stand-in handed its last envelope to. */
function lastConnection(slack: FakeSlack): number {
  const last = slack.deliveries.at(-1);
  assert.ok(last, 'an envelope was delivered');
  return last.connectionId;
}

describe('two Socket Mode connections', () => {
  const h = healthyRelayPerTest('socket');

  test('one connection dropped mid-click (cut, then a disconnect message): every click gets through the other, none is lost', async () => {
    const run = h.runDir('run-drop');
    const batch = sampleBatch(1);
    const { ts } = await postBatch(h, 'run-drop', batch);
    const held = await allConnected(h.slack);
    assert.equal(held, 2);

    // Mid-click: "Write answer" is acknowledged, and while the relay opens its form the
    // connection the click came on is cut.
    await click(h.slack, ts, actionId(ACTION_KINDS.freeWrite, 2));
    const cut = await h.slack.dropConnection({ connectionId: lastConnection(h.slack), how: 'cut' });
    const afterCut = h.slack.deliveries.length;
    const form = await waitFor(() => h.slack.views(ALICE)[0], 'the form the click opened');
    const sent = await h.slack.submitView({
      viewId: String(form.id),
      user: ALICE,
      values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: 'sent while cut' } },
    });
    assert.equal(sent.acked, true);
    await waitForText(h.slack, ts, 'sent while cut');
    await choose(h.slack, ts, 0, [1]);
    const whileCut = h.slack.deliveries.slice(afterCut);
    assert.ok(whileCut.length >= 2);
    assert.ok(
      whileCut.every((d) => d.connectionId !== cut),
      'nothing went to the cut connection',
    );
    // the client waits 5 s before it reconnects: the first clicks met one connection open
    assert.equal(whileCut[0]?.openConnections, 1, 'the form was sent while one connection was up');

    // The relay opens a new connection in place of the cut one; then Slack asks the other to
    // refresh (a disconnect message) right after a click was acknowledged on it.
    await allConnected(h.slack);
    await choose(h.slack, ts, 1, [0, 2]);
    const refreshed = await h.slack.dropConnection({
      connectionId: lastConnection(h.slack),
      how: 'refresh_requested',
    });
    const afterRefresh = h.slack.deliveries.length;
    await pressYesNo(h.slack, ts, 3, true);
    await pressSubmit(h.slack, ts);
    const [first] = h.slack.deliveries.slice(afterRefresh);
    assert.ok(first && first.connectionId !== refreshed, 'the next click went to the other');
    assert.equal(first.openConnections, 1);

    await expectAnswerFile(run, batch, {
      format: 'CSV',
      targets: ['web', 'android'],
      notes: 'sent while cut',
      go: true,
    });
    await waitForAnswered(h.slack, ts);
    assert.ok(
      h.slack.deliveredPayloads.every((p) => p.acked),
      'every click was acknowledged',
    );
    await allConnected(h.slack);
  });
});

describe('a connection still being asked for at stop', () => {
  const startRelay = relayStarter();

  test('the relay stopped while Slack answers 503 to its second connection: that one is never opened, and its tries end', async () => {
    const { log, records } = captureLog('debug');
    const h = await startRelay({ log, start: { socketStaggerMs: 300 } });
    const opens = () => h.slack.calls.filter((c) => c.method === 'apps.connections.open');
    // the second connection asks after the stagger, and the client retries the 503s itself
    h.slack.failNext('apps.connections.open', { status: 503 }, 1000);
    await waitFor(() => opens().some((c) => c.status === 503), 'the second connection refused');
    await h.restart(async () => {
      const asked = opens().length;
      h.slack.clearFailures('apps.connections.open'); // Slack would open it now
      await waitFor(
        () =>
          records.some(
            (r) => /^Failed to retrieve a new WSS URL/.test(r.msg) && /relay stopped/.test(r.msg),
          ),
        'the stopped connection giving up',
      );
      assert.equal(opens().length, asked, 'no request after the stop');
      assert.equal(h.slack.connectionCount, 0);
    });
    await allConnected(h.slack);
  });

  test("the relay stopped while a reconnecting connection waits for Slack's hello: it stops with no unhandled rejection", async () => {
    // The client reconnects by calling its own start() and leaves what it returns uncaught; a
    // stop at this moment made that start reject with undefined, which failed whatever test
    // stopped a relay just as the stand-in counted its connection back (the error: undefined).
    const { log, said } = captureLog('debug');
    const h = await startRelay({ log });
    const held = await allConnected(h.slack);
    // the stand-in counts a connection once it sent hello, the client its socket once it read
    // the upgrade: wait for both ends
    const opened = () => said(/^WebSocket open event received/).length;
    await waitFor(() => opened() === held, `${held} sockets open on the relay's side`);
    const sendHellos = h.slack.holdHellos();
    await h.slack.dropConnection({ how: 'cut' });
    // the client's 5 s pause, then a new URL and a socket open on both ends, with no hello (a
    // stop while still opening leaves @slack/socket-mode a 30 s timer holding the process)
    await waitFor(() => opened() === held + 1, 'the relay opening its connection again');
    const rejections: unknown[] = [];
    const rejected = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', rejected);
    try {
      await h.stop();
      // node reports a rejection nobody handled once the turn it happened in is over
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      process.off('unhandledRejection', rejected);
      sendHellos();
    }
    assert.deepEqual(rejections, [], 'no rejection left unhandled by the stop');
  });
});
