import { join } from 'node:path';
import type { Logger } from 'pino';
import * as z from 'zod';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { createCoalescingWriter } from './coalescing-writer.js';

/**
 * What a notice was about: a file name the protocol does not define, something unreadable, or
 * a folder the folder guard refuses.
 */
export const NOTICE_KINDS = ['look-alike', 'unreadable', 'refused-folder'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * Notices given to people about things outside any batch, kept so that each is given once:
 * not at every event, and not again after a restart. A notice is dropped once its cause is
 * gone, so the cause coming back is told again.
 */
export interface NoticeBook {
  has(kind: NoticeKind, path: string): boolean;
  /** The paths notices of `kind` were given about. */
  paths(kind: NoticeKind): string[];
  /** Records that a notice was given; resolves once that is on disk. */
  add(kind: NoticeKind, path: string): Promise<void>;
  /** Drops the notices of `kind` about paths `drop` picks; resolves once that is on disk. */
  remove(kind: NoticeKind, drop: (path: string) => boolean): Promise<void>;
  /** Resolves when no write is under way. */
  idle(): Promise<void>;
}

const NOTICES_FILE = 'notices.json';
const NOTICES_MAX_BYTES = 16 * 1024 * 1024;

const noticesFileSchema = z.object({
  version: z.literal(1),
  notices: z.array(z.object({ kind: z.enum(NOTICE_KINDS), path: z.string(), at: z.string() })),
});

const keyOf = (kind: NoticeKind, path: string) => `${kind}\n${path}`;

/**
 * Opens `<stateDir>/notices.json` (absent until the first notice). A file that is not ours
 * (a FIFO, garbage) is logged and replaced at the next notice, never fatal: the worst case is
 * a notice given twice.
 */
export async function openNoticeBook(
  stateDir: string,
  log: Logger,
  now: () => Date,
): Promise<NoticeBook> {
  const path = join(stateDir, NOTICES_FILE);
  const given = new Map<string, { kind: NoticeKind; path: string; at: string }>();
  const found = await readGuardedFile(path, { maxBytes: NOTICES_MAX_BYTES, oneLinkOnly: false });
  if (found.kind === 'refused') {
    log.warn({ path, reason: found.reason }, 'not reading the notices file; starting without it');
  } else if (found.kind === 'ok') {
    let parsed: ReturnType<typeof noticesFileSchema.safeParse> | undefined;
    try {
      parsed = noticesFileSchema.safeParse(JSON.parse(found.bytes.toString('utf8')));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) {
      for (const notice of parsed.data.notices) given.set(keyOf(notice.kind, notice.path), notice);
    } else {
      log.warn({ path }, 'the notices file is not valid; starting without it');
    }
  }
  const writer = createCoalescingWriter(() =>
    writeFileAtomic(
      path,
      `${JSON.stringify({ version: 1, notices: [...given.values()] }, null, 2)}\n`,
    ),
  );
  return {
    has: (kind, about) => given.has(keyOf(kind, about)),
    paths: (kind) => [...given.values()].filter((n) => n.kind === kind).map((n) => n.path),
    add(kind, about) {
      given.set(keyOf(kind, about), { kind, path: about, at: now().toISOString() });
      return writer.request();
    },
    async remove(kind, drop) {
      let changed = false;
      for (const [key, notice] of given) {
        if (notice.kind === kind && drop(notice.path)) {
          given.delete(key);
          changed = true;
        }
      }
      if (changed) await writer.request();
    },
    idle: () => writer.idle(),
  };
}
