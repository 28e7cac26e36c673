import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import * as z from 'zod';
import { describeIssues } from '../../core/zod-issues.js';
import { errnoCode } from '../../fs/errno.js';
import { writeFileAtomic } from '../../fs/write-file-atomic.js';

/** The digest message of one channel: its ts, and the batches it listed when last changed. */
export interface KeptDigest {
  ts: string;
  keys: string[];
}

/**
 * Where each channel's digest message is, kept across restarts: in the state folder, or in
 * shared mode in Redis, where every relay reads it (`cluster/shared-digests.ts`).
 */
export interface DigestMessages {
  get(channel: string): Promise<KeptDigest | undefined>;
  /** Records (or, with `undefined`, forgets) a channel's digest, durably. */
  set(channel: string, message: KeptDigest | undefined): Promise<void>;
  channels(): Promise<string[]>;
}

/** The file in `RELAY_STATE_DIR`. */
export const DIGESTS_FILE = 'digests.json';

/** One channel's kept digest, as stored. */
export const keptDigestSchema = z.object({
  ts: z.string().max(64),
  keys: z.array(z.string().max(255)),
});

const fileSchema = z.record(z.string().max(255), keptDigestSchema);

/**
 * The digests file of `stateDir`. One that cannot be read is said in the log and started
 * afresh: the digests it named stay in Slack as they were, and new ones are posted.
 */
export async function openDigestMessages(stateDir: string, log: Logger): Promise<DigestMessages> {
  const file = path.join(stateDir, DIGESTS_FILE);
  const held = new Map<string, KeptDigest>();
  try {
    const parsed = fileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (parsed.success)
      for (const [channel, message] of Object.entries(parsed.data)) held.set(channel, message);
    else throw new Error(describeIssues(parsed.error, { most: 3, root: '(file)' }));
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') {
      log.warn(
        { file, error: error instanceof Error ? error.message : String(error) },
        'the digests file cannot be read; the digests it named stay in Slack as they were, and new ones are posted',
      );
    }
  }
  let writing = Promise.resolve();
  return {
    get: async (channel) => held.get(channel),
    channels: async () => [...held.keys()],
    set(channel, message) {
      if (message) held.set(channel, message);
      else held.delete(channel);
      // one write at a time, each of the whole map as it is then
      writing = writing
        .catch(() => undefined)
        .then(() => writeFileAtomic(file, JSON.stringify(Object.fromEntries(held))));
      return writing;
    },
  };
}
