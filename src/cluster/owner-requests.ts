import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { BatchRecord } from '../core/batch/batch-record.js';
import type { CancelOutcome, SubmitOutcome } from '../core/batch/outcomes.js';
import type { CancelInput, SubmitInput } from '../queue/actions/action-inputs.js';
import type { RunOwners } from '../queue/runs/run-owners.js';
import type { RedisConnection } from '../redis/redis-connection.js';
import type { RedisKeys } from '../redis/redis-keys.js';
import type { SharedQuestions } from './shared-questions.js';
import { decodeReply, encodeRequest, type WireOutcome, type WorkRequest } from './work-messages.js';

/**
 * How long the relay that got a click waits for the relay holding the run to say it wrote the
 * answers; the person was answered at once (the click is acknowledged), this is for the note.
 */
const REPLY_WAIT_MS = 10_000;
/** How long a batch stays marked as told that it waits for its relay. */
const WAITING_NOTE_TTL_S = 24 * 3600;

/** Whether the relay holding a run is not running, or running but has not answered in time. */
export type AwayKind = 'offline' | 'slow';

/** Tells people that a batch's answers wait for the relay holding its run. */
export type OwnerAway = (record: BatchRecord, owner: string, how: AwayKind) => Promise<void>;

/** The run owners as this relay reaches them, through Redis, until `close`. */
export interface OwnerRequests extends RunOwners {
  /** Stops listening for the owners' replies. */
  close(): Promise<void>;
}

/**
 * Shared mode, on the relay that got a click on a batch whose run is on another machine: its
 * questions come from Redis, and Submit and Cancel go to that machine's relay through its work
 * stream. When that relay is not running the request waits in the stream and is done when it
 * is back; the person is told so either way.
 */
export async function createOwnerRequests(deps: {
  connection: RedisConnection;
  keys: RedisKeys;
  node: string;
  questions: SharedQuestions;
  /** the relay's copy of the records, for the record an outcome is about */
  current: (key: string) => BatchRecord | undefined;
  log: Logger;
  replyWaitMs?: number;
  /**
   * Told once per batch (for as long as Redis remembers: a day) that its Submit or Cancel
   * waits for a relay that is not running, so people can be told in the batch's thread.
   */
  ownerAway?: OwnerAway;
}): Promise<OwnerRequests> {
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

  /** Tells of a batch waiting for its relay, once: the first relay to mark it tells. */
  async function tellAway(record: BatchRecord, owner: string, how: AwayKind): Promise<void> {
    const tell = deps.ownerAway;
    if (!tell) return;
    try {
      const first = await connection.call('marking a batch as waiting', (client) =>
        client.set(keys.waitingNote(record.key), owner, { NX: true, EX: WAITING_NOTE_TTL_S }),
      );
      if (first === 'OK') await tell(record, owner, how);
    } catch (error) {
      log.warn(
        { err: error, key: record.key, owner },
        'could not say the batch waits for its relay',
      );
    }
  }

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
      if (!running) {
        await tellAway(record, owner, 'offline');
        return { kind: 'owner-offline', node: owner };
      }
      let timer: NodeJS.Timeout | undefined;
      const slow = new Promise<WireOutcome>((resolve) => {
        timer = setTimeout(() => resolve({ kind: 'owner-slow', node: owner }), replyWaitMs);
      });
      const outcome = await Promise.race([replied, slow]);
      clearTimeout(timer);
      if (outcome.kind === 'owner-slow') await tellAway(record, owner, 'slow');
      return outcome;
    } finally {
      waiting.delete(request.id);
    }
  }

  /** Asks the relay holding `record`'s run to do `work`; the outcome comes with the record. */
  async function askFor<T>(
    record: BatchRecord,
    work: Pick<WorkRequest, 'kind' | 'input'>,
  ): Promise<T> {
    const request = { id: randomUUID(), key: record.key, from: node, ...work } as WorkRequest;
    return withRecord<T>(record, await ask(record, request));
  }

  /** The outcome with the record it is about, from this relay's copy. */
  const withRecord = <T>(record: BatchRecord, outcome: WireOutcome): T => {
    const fresh = deps.current(record.key) ?? record;
    return (
      outcome.kind === 'answered' ||
      outcome.kind === 'held' ||
      outcome.kind === 'answered-elsewhere' ||
      outcome.kind === 'cancelled'
        ? { kind: outcome.kind, record: fresh }
        : outcome
    ) as T;
  };

  return {
    holds: (record) => (record.node ?? node) === node,
    batchOf: (record) => deps.questions.batchOf(record),
    submit: (record: BatchRecord, input: SubmitInput) =>
      askFor<SubmitOutcome>(record, { kind: 'submit', input }),
    cancel: (record: BatchRecord, input: CancelInput) =>
      askFor<CancelOutcome>(record, { kind: 'cancel', input }),
    async close() {
      if (connection.ready) {
        await connection.client.unsubscribe(keys.replies, onReply).catch(() => undefined);
      }
    },
  };
}
