// The relay's Slack listeners on a real Bolt app against the Slack stand-in, with one batch's
// message posted in the channel as the relay renders it: for tests of one handler at a time.
import { randomBytes } from 'node:crypto';
import type { App } from '@slack/bolt';
import { pino } from 'pino';
import type { BatchRecord } from '../../../src/core/batch/batch-record.js';
import type { QuestionBatch } from '../../../src/core/protocol/questions/question.js';
import { renderBatchMessages } from '../../../src/core/slack/messages/render-batch-messages.js';
import type { BatchActions } from '../../../src/queue/actions/batch-actions.js';
import type { AllowList } from '../../../src/slack/access/allow-list.js';
import type { GroupMemberSource } from '../../../src/slack/access/allow-list-groups.js';
import { createModalSeal, type ModalSeal } from '../../../src/slack/access/modal-seal.js';
import { submittedViewsInMemory } from '../../../src/slack/access/submitted-views.js';
import type { AppHome } from '../../../src/slack/home/app-home.js';
import { registerListeners } from '../../../src/slack/listeners/register-listeners.js';
import type { FullPreviews } from '../../../src/slack/presenting/full-preview.js';
import { makeView } from '../../core/slack/fixtures.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack/index.js';
import { socketAppFor, webClientFor } from '../../support/fake-slack/slack-clients.js';
import { makeRecord } from '../../support/make-record.js';
import { CHANNEL } from '../../support/relay-harness.js';

/** The batch on the message: its questions can be read unless a test says otherwise. */
export const BATCH: QuestionBatch = {
  seq: 1,
  questions: [
    { id: 'format', type: 'choose-one', prompt: 'Format?', options: ['JSON', 'CSV'] },
    { id: 'ship', type: 'yes-no', prompt: 'Ship it?' },
  ],
  source: {},
};

/** The revision of the batch in the message's block ids. */
export const REVISION = 'abcd1234';

/** The relay's listeners, running, and the batch message they answer for. */
export interface ListenerApp {
  slack: FakeSlack;
  /** the batch message's ts in `CHANNEL` */
  ts: string;
  /** the batch's record as the message was posted (its revision is in the block ids) */
  record: BatchRecord;
  seal: ModalSeal;
  close(): Promise<void>;
}

/** What a test changes of the relay around the listeners. */
export interface ListenerAppOptions {
  /** what the queue does; `lookup` defaults to the posted batch, as `record` says it is now */
  actions?: Partial<BatchActions>;
  /** the record `lookup` gives, from the one the message was posted for (default: that one) */
  record?: (posted: BatchRecord) => BatchRecord;
  /** who the message shows on the batch ("Release" then); default: nobody ("I'm on it") */
  claimedBy?: string;
  /** whether `lookup` can read the batch's questions (default: yes) */
  readable?: boolean;
  allowList?: AllowList;
  /** the allow list's groups, as last fetched (default: none) */
  groups?: GroupMemberSource;
}

const NO_GROUPS: GroupMemberSource = {
  current: () => new Map(),
  refreshOnMiss: async () => {},
  start: async () => {},
  stop: () => {},
};

/**
 * Starts a stand-in, posts a batch message with the team controls as the relay renders it,
 * and answers it with `registerListeners` on a real Bolt app in Socket Mode.
 */
export async function startListenerApp(options: ListenerAppOptions = {}): Promise<ListenerApp> {
  const slack = await startFakeSlack();
  let app: App | undefined;
  try {
    const { claimedBy } = options;
    const draft = makeRecord('/runs/run-a', 1, {
      fingerprint: 'abcd1234ef567890',
      ...(claimedBy ? { claimedBy } : {}),
    });
    const view = makeView(BATCH.questions, {
      key: draft.key,
      revision: REVISION,
      seq: draft.seq,
      team: { handoffs: [], ...(claimedBy ? { claimedBy } : {}) },
    });
    const [message] = renderBatchMessages(view);
    if (!message) throw new Error('the batch rendered no message');
    const posted = await webClientFor(slack).chat.postMessage({ channel: CHANNEL, ...message });
    const ts = String(posted.ts);
    const record = { ...draft, presentation: { channel: CHANNEL, ts, replies: [] } };
    const seal = createModalSeal(randomBytes(32));
    const current = options.record ?? ((r: BatchRecord) => r);
    const lookup = async () => ({
      record: current(record),
      batch: options.readable === false ? undefined : BATCH,
    });
    const actions = { lookup, ...options.actions } as BatchActions;
    app = socketAppFor(slack);
    registerListeners(app, {
      actions,
      log: pino({ level: 'silent' }),
      seal,
      fullPreviews: {} as FullPreviews,
      now: () => new Date(),
      home: { opened: async () => {} } as unknown as AppHome,
      allowList: options.allowList,
      groups: options.groups ?? NO_GROUPS,
      submittedViews: submittedViewsInMemory(),
    });
    await app.start();
    const started = app;
    return {
      slack,
      ts,
      record,
      seal,
      async close() {
        await started.stop();
        await slack.close();
      },
    };
  } catch (error) {
    await app?.stop().catch(() => {});
    await slack.close();
    throw error;
  }
}
