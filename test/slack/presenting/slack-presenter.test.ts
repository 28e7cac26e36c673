import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { webApi } from '@slack/bolt';
import { pino } from 'pino';
import type { BatchRecord } from '../../../src/core/batch/batch-record.js';
import { parseQuestionFile } from '../../../src/core/protocol/questions/parse-question-file.js';
import type { QuestionBatch } from '../../../src/core/protocol/questions/question.js';
import { CopyRefused, type PresentContext, PresentRefused } from '../../../src/queue/presenter.js';
import { readPresentation } from '../../../src/slack/presenting/slack-presentation.js';
import { createSlackPresenter } from '../../../src/slack/presenting/slack-presenter.js';
import type { FakeSlack } from '../../support/fake-slack/index.js';
import { fakeSlackPerTest, silentLogger } from '../../support/fake-slack/slack-clients.js';
import { makeRecord } from '../../support/make-record.js';
import { sampleBatch } from '../../support/temp-dir.js';

const CHANNEL = 'C0RELAY01';
const ALICE = 'U0ALICE01';
const BOB = 'U0BOB0001';
const RUN = '/runs/run-a';
const QUESTION_FILE = `${RUN}/qa/q-out-001.json`;

function parsedBatch(extra: Record<string, unknown> = {}): QuestionBatch {
  const parsed = parseQuestionFile(JSON.stringify(sampleBatch(1, extra)), QUESTION_FILE);
  assert.ok(parsed.ok);
  return parsed.value;
}

/** A presenter on a real WebClient pointed at the stand-in, and the record it shows. */
function showing(fake: FakeSlack, record: BatchRecord, batch = parsedBatch()) {
  const client = new webApi.WebClient(fake.botToken, {
    slackApiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
    logger: silentLogger,
  });
  const presenter = createSlackPresenter({
    client,
    channelFor: () => CHANNEL,
    log: pino({ level: 'silent' }),
  });
  let current = record;
  /** what the presenter asked to keep, in order, before its sync returned */
  const saved: Record<string, unknown>[] = [];
  const ctx: PresentContext = { batch, questionFile: QUESTION_FILE };
  return {
    client,
    presenter,
    saved,
    get record() {
      return current;
    },
    /** Shows the record changed by `change` (as it is, without one), as the queue does. */
    async sync(change: (r: BatchRecord) => BatchRecord = (r) => r) {
      current = change(current);
      const presentation = await presenter.sync(current, ctx, async (partial) => {
        saved.push(partial);
      });
      current = { ...current, ...(presentation ? { presentation } : {}) };
      return readPresentation(current.presentation);
    },
  };
}

/** Web API calls of `method` made from `from` on. */
const callsOf = (fake: FakeSlack, method: string, from = 0) =>
  fake.calls.slice(from).filter((call) => call.method === method);

describe('slack presenter', () => {
  const slack = fakeSlackPerTest();

  it('posts a batch once in its channel, then edits that message, and only when it changed', async () => {
    const fake = slack();
    const view = showing(fake, makeRecord(RUN, 1));
    const first = await view.sync();
    assert.ok(first?.ts, 'posted');
    assert.equal(first.channel, CHANNEL);
    assert.equal(fake.messages(CHANNEL).length, 1);
    assert.equal(view.saved.length, 1, 'the new message is kept at once, before the sync ends');

    const before = fake.calls.length;
    const same = await view.sync();
    assert.equal(same?.ts, first.ts);
    assert.deepEqual(
      fake.calls.slice(before).map((call) => call.method),
      [],
      'nothing changed: no call',
    );

    const drafted = await view.sync((r) => ({ ...r, drafts: { ...r.drafts, go: true } }));
    assert.equal(drafted?.ts, first.ts, 'edited in place');
    assert.equal(callsOf(fake, 'chat.update', before).length, 1);
    assert.equal(fake.messages(CHANNEL).length, 1);
    assert.equal(fake.messages(CHANNEL)[0]?.history.length, 1, 'one edit');
  });

  it('posts the batch again when its message was deleted', async () => {
    const fake = slack();
    const view = showing(fake, makeRecord(RUN, 1));
    const first = await view.sync();
    assert.ok(first);
    await view.client.chat.delete({ channel: CHANNEL, ts: first.ts });
    const again = await view.sync((r) => ({ ...r, drafts: { ...r.drafts, go: false } }));
    assert.ok(again?.ts);
    assert.notEqual(again.ts, first.ts);
    assert.deepEqual(
      fake.messages(CHANNEL).map((m) => m.ts),
      [again.ts],
    );
  });

  it('lays a batch Slack finds too long out smaller, and keeps how small', async () => {
    const fake = slack();
    fake.failNext('chat.postMessage', { error: 'msg_blocks_too_long' });
    const view = showing(fake, makeRecord(RUN, 1));
    const shown = await view.sync();
    assert.equal(shown?.split, 1);
    assert.equal(view.saved[0]?.split, 1, 'kept before the smaller layout is posted');
    assert.equal(fake.messages(CHANNEL).length, 1);
  });

  it('gives up on a batch still too long at the smallest layout: the refusal reaches the queue', async () => {
    const fake = slack();
    const restore = fake.refuse('chat.postMessage', 'msg_blocks_too_long');
    const view = showing(fake, makeRecord(RUN, 1));
    await assert.rejects(view.sync(), (err: unknown) => {
      assert.equal((err as { data?: { error?: string } }).data?.error, 'msg_blocks_too_long');
      return true;
    });
    restore();
    assert.equal(fake.messages(CHANNEL).length, 0);
  });

  it('sends a handed-off batch to the person, keeps that copy in step, and tells the hand-off once in the thread', async () => {
    const fake = slack();
    const handOff = { from: ALICE, to: BOB, at: '2025-01-01T00:01:00.000Z', note: 'yours' };
    const view = showing(fake, makeRecord(RUN, 1, { handoffs: [handOff], assignee: BOB }));
    const shown = await view.sync();
    const copy = shown?.copies?.[0];
    assert.equal(copy?.user, BOB);
    assert.ok(copy);
    const [dm] = fake.messages(copy.channel);
    assert.equal(dm?.ts, copy.ts);
    const [main] = fake.messages(CHANNEL);
    assert.equal(main?.replies.length, 1, 'one notice in the thread');
    assert.match(main?.replies[0]?.text ?? '', /handed this to <@U0BOB0001>/);
    assert.equal(shown?.announced, 1);

    await view.sync((r) => ({ ...r, drafts: { ...r.drafts, go: true } }));
    assert.equal(fake.messages(copy.channel).length, 1, 'the copy is edited, not posted again');
    assert.equal(fake.messages(copy.channel)[0]?.history.length, 1);
    assert.equal(fake.messages(CHANNEL)[0]?.replies.length, 1, 'the hand-off is told once');
  });

  it("refuses a copy that cannot reach its person with Slack's code", async () => {
    const fake = slack();
    const nobody = 'U0NOBODY1';
    const handOff = { from: ALICE, to: nobody, at: '2025-01-01T00:01:00.000Z' };
    const view = showing(fake, makeRecord(RUN, 1, { handoffs: [handOff], assignee: nobody }));
    await assert.rejects(view.sync(), (err: unknown) => {
      assert.ok(err instanceof CopyRefused);
      assert.equal(err.user, nobody);
      assert.equal(err.code, 'user_not_found');
      return true;
    });
    assert.equal(fake.messages(CHANNEL).length, 1, 'the channel message is posted all the same');
  });

  it('tells an undelivered hand-off in the thread, once, and sends that person nothing', async () => {
    const fake = slack();
    const handOff = {
      from: ALICE,
      to: BOB,
      at: '2025-01-01T00:01:00.000Z',
      undelivered: 'user_disabled',
    };
    const view = showing(fake, makeRecord(RUN, 1, { handoffs: [handOff] }));
    const shown = await view.sync();
    assert.deepEqual(shown?.copies ?? [], []);
    assert.equal(callsOf(fake, 'conversations.open').length, 0);
    assert.deepEqual(shown?.undeliveredTold, [0]);
    const replies = fake.messages(CHANNEL)[0]?.replies ?? [];
    assert.equal(replies.length, 2, 'the hand-off, then that it did not reach them');
    assert.match(replies[1]?.text ?? '', /could not reach them \(Slack said user_disabled\)/);
    await view.sync((r) => ({ ...r, drafts: { ...r.drafts, go: true } }));
    assert.equal(fake.messages(CHANNEL)[0]?.replies.length, 2);
  });

  it('posts nothing for a batch that ended before it was ever shown', async () => {
    const fake = slack();
    const view = showing(fake, makeRecord(RUN, 1, { status: 'withdrawn' }));
    await view.sync();
    assert.equal(fake.messages(CHANNEL).length, 0);
    assert.equal(callsOf(fake, 'chat.postMessage').length, 0);
  });

  it("tells a refusal in the batch's thread, but not where the channel itself is the problem", async () => {
    const fake = slack();
    const view = showing(fake, makeRecord(RUN, 1));
    await view.sync();
    const told = await view.presenter.tellRefused(
      view.record,
      new PresentRefused('invalid_blocks', 'shorten the question'),
      QUESTION_FILE,
    );
    assert.equal(told, true);
    const [main] = fake.messages(CHANNEL);
    assert.equal(main?.replies.length, 1);
    assert.match(main?.replies[0]?.text ?? '', /invalid_blocks/);

    const before = fake.calls.length;
    const inChannel = await view.presenter.tellRefused(
      view.record,
      new PresentRefused('not_in_channel', 'invite the app'),
      QUESTION_FILE,
    );
    assert.equal(inChannel, false);
    assert.equal(fake.calls.length, before, 'no post where none can land');
  });
});
