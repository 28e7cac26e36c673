import { randomBytes } from 'node:crypto';
import { mkdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { watch } from 'chokidar';
import type { Logger } from 'pino';
import { newAskId } from '../ask/ask-folder.js';
import {
  IDLE_NOTICE_FRESH_MS,
  type IdleNotice,
  idleNoticeSchema,
  isStaleNotice,
} from '../core/claude-code/idle-notice.js';
import { isDurableTempName } from '../fs/durable-io.js';
import { errnoCode } from '../fs/errno.js';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

/** `<stateDir>/notices`: where `hook` leaves idle notices for the running relay. */
export const noticesDir = (stateDir: string): string => path.join(stateDir, 'notices');

/** The most a notice file may hold; the relay's own are a few hundred bytes. */
const NOTICE_MAX_BYTES = 4096;

/** Leaves `notice` for the relay of `stateDir`, whole or not at all (an atomic rename). */
export async function leaveIdleNotice(
  stateDir: string,
  notice: Omit<IdleNotice, 'at'>,
  now = new Date(),
): Promise<void> {
  const dir = noticesDir(stateDir);
  await mkdir(dir, { recursive: true });
  // named as ask's folders are, so they sort by time
  const file = path.join(dir, `${newAskId(now, randomBytes(4).toString('hex'))}.json`);
  await writeFileAtomic(file, JSON.stringify({ ...notice, at: now.toISOString() }));
}

/** A notice file, read and checked: the notice, why it is none, or gone already. */
async function readNotice(
  file: string,
): Promise<{ notice: IdleNotice } | { problem: string } | undefined> {
  const read = await readGuardedFile(file, { maxBytes: NOTICE_MAX_BYTES, oneLinkOnly: true });
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'refused') return { problem: read.reason };
  let json: unknown;
  try {
    json = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return { problem: 'it is not JSON' };
  }
  const parsed = idleNoticeSchema.safeParse(json);
  return parsed.success
    ? { notice: parsed.data }
    : { problem: `its fields do not fit (${parsed.error.issues[0]?.message ?? 'unknown'})` };
}

/** What the relay's notice watcher needs. */
export interface IdleNoticeDeps {
  dir: string;
  /** Posts the notice to its project's channel; a throw leaves the file for the next start. */
  post: (notice: IdleNotice) => Promise<void>;
  log: Logger;
  usePolling?: boolean;
  now?: () => Date;
}

/**
 * The relay's side: posts each idle notice `hook` leaves in `dir` (those there at start too),
 * one at a time, and removes its file once posted. A file that is not a notice is logged with
 * why and removed; one Slack refused stays, logged, for the next start; one found too late to
 * be true (`isStaleNotice`) is logged and removed unposted.
 */
export function watchIdleNotices(deps: IdleNoticeDeps): { close(): Promise<void> } {
  const { dir, log, now = () => new Date() } = deps;
  const remove = (file: string) =>
    unlink(file).catch((error: unknown) => {
      if (errnoCode(error) !== 'ENOENT')
        log.warn({ err: error, file }, 'could not remove a notice');
    });
  const handle = async (file: string) => {
    const read = await readNotice(file);
    if (read === undefined) return;
    if ('problem' in read) {
      log.warn(
        { file, problem: read.problem },
        'a file in the notices folder is not a notice hook left; removed',
      );
      return remove(file);
    }
    const { notice } = read;
    if (isStaleNotice(notice, now())) {
      log.info(
        { file, at: notice.at },
        `an idle notice older than ${IDLE_NOTICE_FRESH_MS / 60_000} min was not posted (Claude may no longer wait); removed`,
      );
      return remove(file);
    }
    try {
      await deps.post(notice);
    } catch (err) {
      log.warn(
        { err, file },
        'could not post an idle notice to Slack; it stays for the next start, which posts it if still fresh',
      );
      return;
    }
    await remove(file);
  };
  let queue = Promise.resolve();
  const watcher = watch(dir, { depth: 0, usePolling: deps.usePolling ?? false });
  watcher.on('add', (file) => {
    // writeFileAtomic's temp file becomes the notice by a rename: the notice is what counts
    if (isDurableTempName(path.basename(file))) return;
    queue = queue.then(() =>
      handle(file).catch((err: unknown) => log.warn({ err, file }, 'an idle notice failed')),
    );
  });
  watcher.on('error', (err) => log.warn({ err, dir }, 'watching the notices folder failed'));
  return {
    async close() {
      await watcher.close();
      await queue;
    },
  };
}
