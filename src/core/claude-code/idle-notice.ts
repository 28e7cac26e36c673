import * as z from 'zod';
import { shownId } from './hook-origin.js';
import { maskSecrets } from './mask-secrets.js';

/** The longest message a notice keeps: Claude Code's are a line ("Claude is waiting for …"). */
const MESSAGE_KEPT = 500;

/**
 * What `hook` leaves for the relay when Claude Code says it waits for the person (its
 * `Notification` hook, `idle_prompt`): the project (`cwd`), the session and Claude's message.
 * The relay reads it from a file anyone with the state folder could write: checked here.
 */
export const idleNoticeSchema = z.object({
  project: z.string().min(1),
  session: z.string(),
  message: z.string().transform((text) => text.slice(0, MESSAGE_KEPT)),
  /** When the hook left it (ISO 8601) */
  at: z.iso.datetime(),
  /**
   * The holder of the ask API token it came with, when it came from another machine: its
   * project is a folder there, so it is posted in the default channel.
   */
  askedBy: z.string().optional(),
});
export type IdleNotice = z.infer<typeof idleNoticeSchema>;

/**
 * How long an idle notice is worth posting: one the relay finds later (it was down, or Slack
 * refused the post until a restart) would say Claude waits when it may long have gone on.
 */
export const IDLE_NOTICE_FRESH_MS = 10 * 60_000;

/** Whether `notice` is too old to post at `now` (see {@link IDLE_NOTICE_FRESH_MS}). */
export const isStaleNotice = (notice: IdleNotice, now: Date): boolean =>
  now.getTime() - Date.parse(notice.at) > IDLE_NOTICE_FRESH_MS;

/**
 * The plain text posted for an idle notice (the poster escapes it): which project and session
 * wait, and Claude's own words, with secrets masked as in every hook batch.
 */
export function idleNoticeText(notice: IdleNotice): string {
  const said = notice.message.replace(/\s+/g, ' ').trim();
  const on = notice.askedBy === undefined ? '' : ` on ${notice.askedBy}`;
  const where = `project ${notice.project}${on} · session ${shownId(notice.session)}`;
  const text = `Claude Code is waiting for you in the terminal (${where})${said === '' ? '.' : `: ${said}`}`;
  return maskSecrets(text).text;
}
