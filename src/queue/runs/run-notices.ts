import path from 'node:path';
import type { Logger } from 'pino';
import {
  lookAlikeFix,
  PROTOCOL_NAMES_RULE,
} from '../../core/protocol/questions/look-alike-names.js';
import { qaDirOf } from '../../core/protocol/run-folder.js';
import { FOLDER_FIX, type FolderRefusal } from '../../fs/folder-guard.js';
import type { NoticeBook, NoticeKind } from '../../store/notice-book.js';

export interface RunNoticesDeps {
  notices: NoticeBook;
  /**
   * Posts a notice for people (in the channel of the path it is `about`); without it notices
   * go to the log only.
   */
  post?: (text: string, about: string) => Promise<void>;
  log: Logger;
  now: () => Date;
  /**
   * How long new look-alike names are collected before they are told: an agent writing
   * several at once gets one notice, not one per file.
   */
  gatherMs: number;
}

/** What people are told, once, about the watched folders outside any batch. */
export interface RunNotices {
  /**
   * Points out the files of a run's `qa/` folder (`names`) that look like protocol files but
   * are not (`q-out-0001.json`): an agent waiting for their answers would wait for ever.
   * Resolves to when to look again: in so many ms (new names are still being gathered),
   * after a back-off (the post failed), or never.
   */
  lookAlikes(runDir: string, names: readonly string[]): Promise<number | 'back-off' | undefined>;
  /**
   * Says that the relay may not read `where` (a file or folder), with what to do. A folder
   * above or below one already told about is the same problem (an unreadable run folder
   * makes its `qa/` unreadable too): it is not told again.
   */
  unreadable(where: string, code: string): Promise<boolean>;
  /**
   * Says that a run folder or `qa/` folder is not used (see `createFolderGuard`): a link out
   * of the watched folder, with what to do.
   */
  refusedFolder(refusal: FolderRefusal): Promise<boolean>;
  /** The run's folders pass the folder guard: a later refusal is told again. */
  usable(runDir: string): Promise<void>;
  /** `where` (and so every folder above it) was read: a later failure is told again. */
  readable(where: string): Promise<void>;
  /**
   * The run is gone: what was told about it is forgotten. Only its own folder and `qa/`
   * count: a watched runs folder is looked at as a run too, and its runs are not gone.
   */
  forgetRun(runDir: string): Promise<void>;
}

/** Whether `inner` is `outer` or lies below it. */
const isWithin = (inner: string, outer: string): boolean =>
  inner === outer || inner.startsWith(`${outer}${path.sep}`);

/**
 * Tells people, once, about things in the watched folders that no batch message can show:
 * files named almost like protocol files, and files or folders the relay may not read. Each
 * is logged as a warning and posted once, then remembered (across restarts too) until its
 * cause is gone. Each method resolves to false when the post failed; the caller tries again.
 */
export function createRunNotices(deps: RunNoticesDeps): RunNotices {
  const { notices, log } = deps;
  /** When untold look-alike names were first seen in a run. */
  const gathering = new Map<string, number>();

  async function tell(
    kind: NoticeKind,
    about: string,
    paths: readonly string[],
    text: string,
    fields: Record<string, unknown>,
    message: string,
  ): Promise<boolean> {
    log.warn(fields, message);
    try {
      await deps.post?.(text, about);
    } catch (err) {
      log.warn({ err, ...fields }, 'could not post the notice to Slack; will try again');
      return false;
    }
    for (const about of paths) await notices.add(kind, about);
    return true;
  }

  return {
    async lookAlikes(runDir, names) {
      const qa = qaDirOf(runDir);
      const odd = names.flatMap((name) => {
        const fix = lookAlikeFix(name);
        return fix === undefined ? [] : [{ name, fix, path: path.join(qa, name) }];
      });
      const present = new Set(odd.map((o) => o.path));
      await notices.remove('look-alike', (p) => path.dirname(p) === qa && !present.has(p));
      const fresh = odd
        .filter((o) => !notices.has('look-alike', o.path))
        .sort((a, b) => a.name.localeCompare(b.name));
      if (fresh.length === 0) {
        gathering.delete(runDir);
        return undefined;
      }
      const at = deps.now().getTime();
      const since = gathering.get(runDir) ?? at;
      gathering.set(runDir, since);
      if (at - since < deps.gatherMs) return since + deps.gatherMs - at;
      const count = fresh.length === 1 ? '1 file' : `${fresh.length} files`;
      const text = [
        `Run ${path.basename(runDir)}: ${count} in ${qa} ${fresh.length === 1 ? 'looks' : 'look'} like Q&A files but ${fresh.length === 1 ? 'is' : 'are'} not, so the relay ignores ${fresh.length === 1 ? 'it' : 'them'} and an agent waiting for an answer would wait for ever.`,
        ...fresh.map((o) => `• ${o.name}: ${o.fix}.`),
        `${PROTOCOL_NAMES_RULE}.`,
      ].join('\n');
      const told = await tell(
        'look-alike',
        runDir,
        fresh.map((o) => o.path),
        text,
        {
          runDir,
          files: fresh.map(({ name, fix }) => ({ name, fix })),
          expected: PROTOCOL_NAMES_RULE,
        },
        'files in qa/ look like Q&A files but are not; ignoring them',
      );
      if (!told) return 'back-off';
      gathering.delete(runDir);
      return undefined;
    },

    async unreadable(where, code) {
      const told = notices.paths('unreadable');
      if (told.some((p) => isWithin(where, p) || isWithin(p, where))) return true;
      const text = `The relay may not read ${where} (${code}), so questions in it cannot be shown. Grant the user running the relay read permission on it (and search permission on its folders), or stop watching it.`;
      return tell(
        'unreadable',
        where,
        [where],
        text,
        { path: where, code },
        'cannot read a watched path',
      );
    },

    async refusedFolder(refusal) {
      const { folder, reason } = refusal;
      if (notices.has('refused-folder', folder)) return true;
      const text = `${folder} ${reason}, so the relay reads no questions there and writes no answers there. ${FOLDER_FIX}.`;
      return tell(
        'refused-folder',
        folder,
        [folder],
        text,
        { path: folder, reason },
        'not using a run folder: it is a link, or outside the watched folders',
      );
    },

    async usable(runDir) {
      const qa = qaDirOf(runDir);
      const cleared = notices.paths('refused-folder').filter((p) => p === runDir || p === qa);
      if (cleared.length === 0) return;
      log.info({ paths: cleared }, 'these folders are real folders again');
      await notices.remove('refused-folder', (p) => cleared.includes(p));
    },

    async readable(where) {
      const cleared = notices.paths('unreadable').filter((p) => isWithin(where, p));
      if (cleared.length === 0) return;
      log.info({ paths: cleared }, 'can read these paths again');
      await notices.remove('unreadable', (p) => cleared.includes(p));
    },

    async forgetRun(runDir) {
      gathering.delete(runDir);
      const qa = qaDirOf(runDir);
      await notices.remove('look-alike', (p) => path.dirname(p) === qa);
      await notices.remove('unreadable', (p) => p === runDir || p === qa);
      await notices.remove('refused-folder', (p) => p === runDir || p === qa);
    },
  };
}
