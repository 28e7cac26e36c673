import type { Logger } from 'pino';
import type { BatchActions } from '../queue/actions/batch-actions.js';
import type { RedisConnection } from '../redis/redis-connection.js';
import type { RedisKeys } from '../redis/redis-keys.js';
import { decodeRequest, encodeReply, type WorkRequest } from './work-messages.js';

/** The consumer group every node's work stream is read by (one relay per node reads it). */
const GROUP = 'relay';
/** How long one read waits for work before it looks again (and notices a stop). */
const BLOCK_MS = 2000;
/** How long to wait before reading again after Redis was away. */
const AWAY_PAUSE_MS = 1000;

/** The work other relays ask of this node's runs, being done until `stop`. */
export interface OwnerWork {
  /** Stops reading the work stream; the work under way is finished first. */
  stop(): Promise<void>;
}

/**
 * Shared mode, on the relay holding runs: does what other relays ask of this node's runs
 * (Submit, Cancel: they need the run's files), and answers on the replies channel. A request
 * is acknowledged only once done (the answer file is durable); requests left by a crash are
 * claimed again at the next start (XAUTOCLAIM) and done then. Doing one twice is harmless: the
 * batch is closed by then, and answer files are never overwritten.
 */
export function startOwnerWork(deps: {
  /** a connection of its own: reading the stream blocks it */
  reader: RedisConnection;
  /** where the replies are published */
  connection: RedisConnection;
  keys: RedisKeys;
  node: string;
  actions: Pick<BatchActions, 'submit' | 'cancel'>;
  log: Logger;
}): OwnerWork {
  const { reader, connection, keys, node, actions } = deps;
  const log = deps.log.child({ component: 'owner-work' });
  const stream = keys.work(node);
  let stopped = false;
  let pause: { timer: NodeJS.Timeout; done: () => void } | undefined;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        pause = undefined;
        resolve();
      }, ms);
      pause = { timer, done: resolve };
    });

  async function ensureGroup(): Promise<void> {
    try {
      // from the start of the stream: work asked while this relay never ran is done too
      await reader.call('creating the work group', (client) =>
        client.xGroupCreate(stream, GROUP, '0', { MKSTREAM: true }),
      );
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) throw error;
    }
  }

  async function handle(entryId: string, fields: Record<string, unknown>): Promise<void> {
    const request = decodeRequest(fields);
    if (typeof request === 'string') {
      log.warn({ entryId, problem: request }, 'dropping work this relay cannot read');
    } else {
      await doWork(request);
    }
    await reader.call('acknowledging work', async (client) => {
      await client.xAck(stream, GROUP, entryId);
      await client.xDel(stream, entryId);
    });
  }

  async function doWork(request: WorkRequest): Promise<void> {
    const context = { key: request.key, from: request.from, kind: request.kind };
    let outcome: Awaited<ReturnType<BatchActions['submit'] | BatchActions['cancel']>>;
    try {
      outcome =
        request.kind === 'submit'
          ? await actions.submit(request.key, request.input)
          : await actions.cancel(request.key, request.input);
    } catch (error) {
      // told once, never retried in a loop: the person can press again
      log.error({ err: error, ...context }, 'could not do the work another relay asked for');
      outcome = { kind: 'write-failed', message: 'the relay holding the run failed; see its log' };
    }
    log.info({ ...context, outcome: outcome.kind }, 'did the work another relay asked for');
    await connection
      .call('replying to another relay', (client) =>
        client.publish(keys.replies, encodeReply(request.id, outcome)),
      )
      .catch((error: unknown) => log.warn({ err: error, ...context }, 'could not reply'));
  }

  type Entry = { id: string; message: Record<string, unknown> };

  async function run(): Promise<void> {
    let claimed = false;
    while (!stopped) {
      try {
        await ensureGroup();
        if (!claimed) {
          // what a crashed run of this relay took and did not finish
          const left = await reader.call('claiming unfinished work', (client) =>
            client.xAutoClaim(stream, GROUP, node, 0, '0-0', { COUNT: 100 }),
          );
          for (const entry of (left?.messages ?? []) as (Entry | null)[]) {
            if (entry && !stopped) await handle(entry.id, entry.message);
          }
          claimed = true;
        }
        const read = await reader.call(
          'reading work',
          (client) =>
            client.xReadGroup(
              GROUP,
              node,
              { key: stream, id: '>' },
              { COUNT: 10, BLOCK: BLOCK_MS },
            ),
          { deadlineMs: BLOCK_MS + 2000 },
        );
        const streams = (read ?? []) as { messages: (Entry | null)[] }[];
        for (const { messages } of streams) {
          for (const entry of messages) {
            if (entry && !stopped) await handle(entry.id, entry.message);
          }
        }
      } catch (error) {
        if (stopped) return;
        log.debug({ err: error }, 'work stream not readable now; trying again');
        await wait(AWAY_PAUSE_MS);
      }
    }
  }

  const running = run();
  return {
    async stop() {
      stopped = true;
      if (pause) {
        clearTimeout(pause.timer);
        pause.done();
      }
      await reader.close().catch(() => undefined);
      await running;
    },
  };
}
