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
import { errnoCode } from '../fs/errno.js';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

/** `<stateDir>/notices`: where `hook` leaves idle notices for the running relay. */
export const noticesDir = (stateDir: string): string => path.join(stateDir, 'notices');

/** A notice's file name: `newAskId`'s, so names sort by time; temp files never match. */
const NOTICE_NAME = /^\d{8}T\d{9}Z-[0-9a-f]+\.json$/;

/** The most a notice file may hold; the relay's own are a few hundred bytes. */
const NOTICE_MAX_BYTES = 4096;

/** Leaves `notice` for the relay of `stateDir`, whole or not at all (an atomic rename). */
export async function leaveIdleNotice(
  stateDir: string,
  notice: Omit<IdleNotice, 'at'>,
  now = new Date(),
): Promise<string> {
  const dir = noticesDir(stateDir);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${newAskId(now, randomBytes(4).toString('hex'))}.json`);
  await writeFileAtomic(file, JSON.stringify({ ...notice, at: now.toISOString() }));
  return file;
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
export function watchIdleNotices(deps: IdleNoticeDeps): {
  ready: Promise<void>;
  close(): Promise<void>;
} {
  const { dir, log } = deps;
  let queue = Promise.resolve();
  const handle = async (file: string) => {
    const read = await readGuardedFile(file, { maxBytes: NOTICE_MAX_BYTES, oneLinkOnly: true });
    if (read.kind === 'missing') return;
    let notice: IdleNotice | undefined;
    let problem: string | undefined;
    if (read.kind === 'refused') problem = read.reason;
    else {
      try {
        const parsed = idleNoticeSchema.safeParse(JSON.parse(read.bytes.toString('utf8')));
        if (parsed.success) notice = parsed.data;
        else problem = `its fields do not fit (${parsed.error.issues[0]?.message ?? 'unknown'})`;
      } catch {
        problem = 'it is not JSON';
      }
    }
    if (notice === undefined) {
      log.warn(
        { file, problem },
        'a file in the notices folder is not a notice hook left; removed',
      );
      await remove(file);
      return;
    }
    if (isStaleNotice(notice, (deps.now ?? (() => new Date()))())) {
      log.info(
        { file, at: notice.at },
        `an idle notice older than ${IDLE_NOTICE_FRESH_MS / 60_000} min was not posted (Claude may no longer wait); removed`,
      );
      await remove(file);
      return;
    }
    try {
      await deps.post(notice);
    } catch (err) {
      log.warn(
        { err, file },
        'could not post an idle notice to Slack; it stays, and is posted at the next start',
      );
      return;
    }
    await remove(file);
  };
  const remove = (file: string) =>
    unlink(file).catch((error: unknown) => {
      if (errnoCode(error) !== 'ENOENT')
        log.warn({ err: error, file }, 'could not remove a notice');
    });
  const watcher = watch(dir, { depth: 0, usePolling: deps.usePolling ?? false });
  watcher.on('add', (file) => {
    if (!NOTICE_NAME.test(path.basename(file))) return;
    queue = queue.then(() =>
      handle(file).catch((err: unknown) => log.warn({ err, file }, 'an idle notice failed')),
    );
  });
  watcher.on('error', (err) => log.warn({ err, dir }, 'watching the notices folder failed'));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async close() {
      await watcher.close();
      await queue;
    },
  };
}
