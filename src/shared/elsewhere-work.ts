import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { BatchRecord } from '../core/batch/batch-record.js';
import type { CancelOutcome, SubmitOutcome } from '../core/batch/outcomes.js';
import type { CancelInput, ElsewhereWork, SubmitInput } from '../queue/batch-actions.js';
import type { RedisConnection } from '../redis/redis-connection.js';
import type { RedisKeys } from '../redis/redis-keys.js';
import type { SharedQuestions } from './shared-questions.js';
import { decodeReply, encodeRequest, type WireOutcome, type WorkRequest } from './work-messages.js';

/**
 * How long the relay that got a click waits for the relay holding the run to say it wrote the
 * answers; the person was answered at once (the click is acknowledged), this is for the note.
 */
const REPLY_WAIT_MS = 10_000;

/**
 * Shared mode, on the relay that got a click on a batch whose run is on another machine: its
 * questions come from Redis, and Submit and Cancel go to that machine's relay through its work
 * stream. When that relay is not running the request waits in the stream and is done when it
 * is back; the person is told so either way.
 */
export async function createElsewhereWork(deps: {
  connection: RedisConnection;
  keys: RedisKeys;
  node: string;
  questions: SharedQuestions;
  /** the relay's copy of the records, for the record an outcome is about */
  current: (key: string) => BatchRecord | undefined;
  log: Logger;
  replyWaitMs?: number;
}): Promise<ElsewhereWork & { close(): Promise<void> }> {
  const { connection, keys, node, log } = deps;
  const replyWaitMs = deps.replyWaitMs ?? REPLY_WAIT_MS;
  const waiting = new Map<string, (outcome: WireOutcome) => void>();

  const onReply = (message: string) => {
    const reply = decodeReply(message);
    if (!reply) return;
    waiting.get(reply.id)?.(reply.outcome);
  };
  await connection.call('subscribing to replies', (client) =>
    client.subscribe(keys.replies, onReply),
  );

  /** Whether the relay holding `owner`'s runs is running (its lease is held). */
  const isRunning = (owner: string) =>
    connection.call(
      'looking up a node',
      async (client) => (await client.exists(keys.lease(owner))) > 0,
    );

  async function ask(record: BatchRecord, request: WorkRequest): Promise<WireOutcome> {
    const owner = record.node as string;
    const replied = new Promise<WireOutcome>((resolve) => waiting.set(request.id, resolve));
    try {
      const running = await isRunning(owner);
      await connection.call(`asking ${owner} to ${request.kind}`, (client) =>
        client.xAdd(keys.work(owner), '*', encodeRequest(request)),
      );
      log.info(
        { key: record.key, owner, kind: request.kind, running },
        'asked the relay holding the run',
      );
      if (!running) return { kind: 'owner-offline', node: owner };
      let timer: NodeJS.Timeout | undefined;
      const slow = new Promise<WireOutcome>((resolve) => {
        timer = setTimeout(() => resolve({ kind: 'owner-slow', node: owner }), replyWaitMs);
      });
      const outcome = await Promise.race([replied, slow]);
      clearTimeout(timer);
      return outcome;
    } finally {
      waiting.delete(request.id);
    }
  }

  /** The outcome with the record it is about, from this relay's copy. */
  const withRecord = <T>(record: BatchRecord, outcome: WireOutcome): T => {
    const fresh = deps.current(record.key) ?? record;
    return (
      outcome.kind === 'answered' ||
      outcome.kind === 'answered-elsewhere' ||
      outcome.kind === 'cancelled'
        ? { kind: outcome.kind, record: fresh }
        : outcome
    ) as T;
  };

  return {
    holds: (record) => (record.node ?? node) === node,
    batchOf: (record) => deps.questions.batchOf(record),
    async submit(record: BatchRecord, input: SubmitInput): Promise<SubmitOutcome> {
      const request: WorkRequest = {
        id: randomUUID(),
        kind: 'submit',
        key: record.key,
        from: node,
        input,
      };
      return withRecord<SubmitOutcome>(record, await ask(record, request));
    },
    async cancel(record: BatchRecord, input: CancelInput): Promise<CancelOutcome> {
      const request: WorkRequest = {
        id: randomUUID(),
        kind: 'cancel',
        key: record.key,
        from: node,
        input,
      };
      return withRecord<CancelOutcome>(record, await ask(record, request));
    },
    async close() {
      if (connection.ready) {
        await connection.client.unsubscribe(keys.replies, onReply).catch(() => undefined);
      }
    },
  };
}
