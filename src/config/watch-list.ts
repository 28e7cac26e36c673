import path from 'node:path';
import { err, ok, type Result } from '../core/result.js';
import { SLACK_CHANNEL_ID } from '../core/slack/controls/slack-id-shapes.js';

/** One `RELAY_WATCH` entry: a folder, and the channel it names, if it names one. */
export interface WatchEntry {
  /** as written (relative paths are resolved later, against the working folder) */
  path: string;
  channel?: string;
}

/** The grammar in a few words, for error messages. */
const ENTRY_FORMAT =
  'comma-separated folders, each optionally followed by =CHANNEL_ID (/srv/a/.7/runs=C0123ABCD)';

const quote = (text: string): string =>
  JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text);

/**
 * Reads `RELAY_WATCH`: folders separated by commas (so a folder's path cannot hold one), each
 * optionally ending in `=CHANNEL_ID`. Only what follows the last `=` can be a channel, and
 * only when it holds no `/`: a folder whose own name has an `=` (`/srv/a=b`) is written with
 * a trailing slash (`/srv/a=b/`). Problems are returned as data; each completes a sentence
 * that starts with "RELAY_WATCH".
 */
export function parseWatchList(text: string): Result<WatchEntry[], string[]> {
  const entries: WatchEntry[] = [];
  const problems: string[] = [];
  const channelOf = new Map<string, { channel: string | undefined; written: string }>();
  for (const written of text.split(',').map((part) => part.trim())) {
    if (written === '') continue;
    const read = readWatchEntry(written);
    if ('problem' in read) {
      problems.push(read.problem);
      continue;
    }
    // the same folder twice is harmless, but not with two channels
    const folder = path.normalize(read.path).replace(/(.)\/+$/, '$1');
    const before = channelOf.get(folder);
    if (before && before.channel !== read.channel) {
      problems.push(
        `lists the folder ${quote(folder)} twice, as ${quote(before.written)} and ${quote(written)}; a folder's runs go to one channel, so keep one of them`,
      );
      continue;
    }
    if (before) continue;
    channelOf.set(folder, { channel: read.channel, written });
    entries.push(read);
  }
  if (problems.length > 0) return err(problems);
  if (entries.length === 0) {
    return err([
      `lists no folders; give ${ENTRY_FORMAT}, or leave it unset to watch $RUN_STATE_DIR, else .7/runs`,
    ]);
  }
  return ok(entries);
}

/** One entry of `RELAY_WATCH`, trimmed and not empty: what it says, or what is wrong with it. */
export function readWatchEntry(written: string): WatchEntry | { problem: string } {
  const at = written.lastIndexOf('=');
  if (at < 0) return { path: written };
  const tail = written.slice(at + 1).trim();
  // a slash after the last `=` makes it part of a folder's name, not a channel
  if (tail.includes('/')) return { path: written };
  const folder = written.slice(0, at).trim();
  if (tail === '') {
    return {
      problem: `has ${quote(written)}, which ends in = with no channel after it; add the channel ID (C0123ABCD), or, for a folder whose name ends in =, end the path with /`,
    };
  }
  if (!SLACK_CHANNEL_ID.test(tail)) {
    return {
      problem: `has ${quote(written)}, whose ${quote(`=${tail}`)} is not a channel ID; end an entry with =CHANNEL_ID, an ID like C0123ABCD (channel details → About → Channel ID), not a name, or, for a folder whose name has = in it, end the path with /`,
    };
  }
  if (folder === '') {
    return {
      problem: `has ${quote(written)}, which names a channel but no folder; write the folder before the = (${ENTRY_FORMAT})`,
    };
  }
  return { path: folder, channel: tail };
}
