import type { Logger } from 'pino';
import * as z from 'zod';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { parseQuestionFile } from '../core/protocol/questions/parse-question-file.js';
import type { QuestionBatch } from '../core/protocol/questions/question.js';
import { questionPath } from '../core/protocol/run-folder.js';
import type { Presenter } from '../queue/presenter.js';
import type { RedisConnection } from '../redis/redis-connection.js';
import type { RedisKeys } from '../redis/redis-keys.js';

/** A batch's questions as stored for the other relays. */
const storedQuestions = z.object({
  fingerprint: z.string(),
  /** the question file's JSON, as its relay read it */
  file: z.unknown(),
  writtenByRelay: z.boolean().optional(),
});

/** Batches' questions shared through Redis, for the relays that do not hold their runs. */
export interface SharedQuestions {
  /** Shares the questions of a batch of this relay, unless this version was shared already. */
  share(record: BatchRecord, batch: QuestionBatch): Promise<void>;
  /** The questions of another relay's batch at the record's version; undefined if unknown. */
  batchOf(record: BatchRecord): Promise<QuestionBatch | undefined>;
}

/**
 * Shared mode: the questions of every batch, in Redis, so a relay whose machine does not hold
 * a batch's run can still decode a click on it, answer a type-ahead and open its forms. The
 * relay that reads a question file shares it (once per version); the others read it back and
 * check it like a file of their own.
 */
export function createSharedQuestions(deps: {
  connection: RedisConnection;
  keys: RedisKeys;
  log: Logger;
}): SharedQuestions {
  const { connection, keys, log } = deps;
  /** what was shared already: batch key → fingerprint */
  const shared = new Map<string, string>();
  /** questions read back: batch key → the version they are of */
  const read = new Map<string, { fingerprint: string; batch: QuestionBatch }>();

  return {
    async share(record, batch) {
      if (shared.get(record.key) === record.fingerprint) return;
      const value = JSON.stringify({
        fingerprint: record.fingerprint,
        file: batch.source,
        ...(batch.writtenByRelay ? { writtenByRelay: true } : {}),
      });
      await connection.call(`sharing the questions of batch ${record.key}`, (client) =>
        client.hSet(keys.questions, record.key, value),
      );
      shared.set(record.key, record.fingerprint);
    },

    async batchOf(record) {
      const known = read.get(record.key);
      if (known?.fingerprint === record.fingerprint) return known.batch;
      const value = await connection.call(
        `reading the questions of batch ${record.key}`,
        (client) => client.hGet(keys.questions, record.key),
      );
      if (value === null || value === undefined) return undefined;
      let parsed: z.infer<typeof storedQuestions>;
      try {
        parsed = storedQuestions.parse(JSON.parse(String(value)));
      } catch (error) {
        log.warn({ err: error, key: record.key }, 'the shared questions of a batch cannot be read');
        return undefined;
      }
      if (parsed.fingerprint !== record.fingerprint) return undefined; // not this version yet
      // checked like any question file: another relay wrote it, but Redis is an edge
      const file = parseQuestionFile(
        JSON.stringify(parsed.file),
        questionPath(record.runDir, record.seq),
      );
      if (!file.ok) {
        log.warn({ key: record.key }, 'the shared questions of a batch are not a valid batch');
        return undefined;
      }
      const batch = parsed.writtenByRelay
        ? { ...file.value, writtenByRelay: true as const }
        : file.value;
      read.set(record.key, { fingerprint: record.fingerprint, batch });
      return batch;
    },
  };
}

/**
 * A presenter that shares a batch's questions before it shows the batch: once people can click
 * on it, any relay may have to decode the click.
 */
export function withSharedQuestions(inner: Presenter, questions: SharedQuestions): Presenter {
  return {
    async sync(record, ctx, save) {
      if (ctx.batch && record.status === 'open') await questions.share(record, ctx.batch);
      return inner.sync(record, ctx, save);
    },
    tellRefused: (record, refusal, questionFile) =>
      inner.tellRefused(record, refusal, questionFile),
  };
}
