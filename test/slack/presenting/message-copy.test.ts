import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { webApi } from '@slack/bolt';
import { pino } from 'pino';
import { createMessageCopies, type Message } from '../../../src/slack/presenting/message-copy.js';
import type { MessageCopy } from '../../../src/slack/presenting/slack-presentation.js';
import type { FakeSlack } from '../../support/fake-slack/index.js';
import { fakeSlackPerTest, silentLogger } from '../../support/fake-slack/slack-clients.js';

const CHANNEL = 'C0RELAY01';

const part = (text: string): Message => ({
  text,
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
});

function copiesOn(fake: FakeSlack) {
  const client = new webApi.WebClient(fake.botToken, {
    slackApiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
    logger: silentLogger,
  });
  const copies = createMessageCopies({ client, log: pino({ level: 'silent' }) });
  /** every copy `created` was told of, in order */
  const created: MessageCopy[] = [];
  const sync = (existing: Partial<MessageCopy>, messages: Message[], iteration: number) =>
    copies.sync(CHANNEL, { replies: [], ...existing }, messages, iteration, async (copy) => {
      created.push(copy);
    });
  return { client, copies, created, sync };
}

describe('message copy', () => {
  const slack = fakeSlackPerTest();

  it('posts the first message and the rest as its thread replies, telling each post as it is made', async () => {
    const fake = slack();
    const { sync, created } = copiesOn(fake);
    const copy = await sync({}, [part('one'), part('two'), part('three')], 1);
    const [main] = fake.messages(CHANNEL);
    assert.equal(main?.ts, copy.ts);
    assert.deepEqual(
      main?.replies.map((r) => r.text),
      ['two', 'three'],
    );
    assert.deepEqual(
      copy.replies,
      main?.replies.map((r) => r.ts),
    );
    assert.deepEqual(copy.stamps, [1, 1, 1]);
    assert.deepEqual(
      created.map((c) => c.replies.length),
      [0, 1, 2],
      'told after the first message and after each reply',
    );
  });

  it('edits only the messages whose content changed, stamped with the new iteration', async () => {
    const fake = slack();
    const { sync } = copiesOn(fake);
    const first = await sync({}, [part('one'), part('two')], 1);
    const before = fake.calls.length;
    const second = await sync(first, [part('one'), part('two, changed')], 2);
    const calls = fake.calls.slice(before);
    assert.deepEqual(
      calls.map((c) => [c.method, c.args.ts]),
      [['chat.update', first.replies[0]]],
    );
    assert.deepEqual(second.stamps, [1, 2]);
    assert.equal(fake.messages(CHANNEL)[0]?.text, 'one');
  });

  it('says so in the replies a shorter batch no longer needs', async () => {
    const fake = slack();
    const { sync } = copiesOn(fake);
    const long = await sync({}, [part('one'), part('two'), part('three')], 1);
    const short = await sync(long, [part('one, answered')], 2);
    assert.deepEqual(short.replies, long.replies, 'the replies stay where they are');
    assert.deepEqual(
      fake.messages(CHANNEL)[0]?.replies.map((r) => r.text),
      [
        '(This part of the batch is no longer needed.)',
        '(This part of the batch is no longer needed.)',
      ],
    );
  });

  it('posts a deleted reply again, and the whole copy again when its first message is gone', async () => {
    const fake = slack();
    const { sync, client } = copiesOn(fake);
    const first = await sync({}, [part('one'), part('two')], 1);
    await client.chat.delete({ channel: CHANNEL, ts: first.replies[0] as string });
    const mended = await sync(first, [part('one'), part('two, changed')], 2);
    assert.equal(mended.ts, first.ts);
    assert.notEqual(mended.replies[0], first.replies[0]);
    assert.deepEqual(
      fake.messages(CHANNEL)[0]?.replies.map((r) => r.text),
      ['two, changed'],
    );

    await client.chat.delete({ channel: CHANNEL, ts: first.ts });
    const reposted = await sync(mended, [part('one, changed'), part('two, changed')], 3);
    assert.notEqual(reposted.ts, first.ts);
    assert.deepEqual(
      fake.messages(CHANNEL).map((m) => [m.text, m.replies.map((r) => r.text)]),
      [['one, changed', ['two, changed']]],
    );
  });

  it('leaves a message as it is when Slack refuses it for a reason of its own', async () => {
    const fake = slack();
    const { sync } = copiesOn(fake);
    const first = await sync({}, [part('one')], 1);
    fake.failNext('chat.update', { error: 'is_archived' });
    await assert.rejects(sync(first, [part('one, changed')], 2), (err: unknown) => {
      assert.equal((err as { data?: { error?: string } }).data?.error, 'is_archived');
      return true;
    });
    assert.equal(fake.messages(CHANNEL).length, 1, 'not posted anew: the channel is the problem');
  });
});
