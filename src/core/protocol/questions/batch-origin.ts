import type { QuestionBatch } from './question.js';

/**
 * Where a batch the relay itself wrote comes from (a Claude Code hook, say), in its top-level
 * `origin` field: the title its message shows instead of the run folder's name, the line
 * under it, and the project folder whose `RELAY_WATCH` entry picks its channel.
 */
export interface BatchOrigin {
  title: string;
  detail: string;
  /** absolute path; its channel is the one of the watched folder holding it */
  project?: string;
  /**
   * A terminal waits on the batch too (a Claude Code hook): withdrawn then means the question
   * went back there, answered or dismissed, and the message says so.
   */
  inTerminal?: boolean;
}

/** The top-level field of a q-out file that holds its {@link BatchOrigin}. */
export const ORIGIN_FIELD = 'origin';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * The origin of a batch, read defensively. Only a batch the relay wrote (`writtenByRelay`)
 * has one: in a run folder any agent could claim a title or another project's channel.
 */
export function readOrigin(batch: QuestionBatch): BatchOrigin | undefined {
  if (batch.writtenByRelay !== true) return undefined;
  const field: unknown = batch.source[ORIGIN_FIELD];
  if (typeof field !== 'object' || field === null) return undefined;
  const { title, detail, project, inTerminal } = field as Record<string, unknown>;
  const shownTitle = text(title);
  if (shownTitle === undefined) return undefined;
  const where = text(project);
  return {
    title: shownTitle,
    detail: text(detail) ?? '',
    ...(where !== undefined ? { project: where } : {}),
    ...(inTerminal === true ? { inTerminal } : {}),
  };
}
