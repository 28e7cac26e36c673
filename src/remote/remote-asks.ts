import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';
import {
  type AskFolder,
  askFolder,
  asksRoot,
  type BatchFile,
  batchText,
  deliverBatch,
} from '../ask/ask-folder.js';
import {
  type AskOutcome,
  readOutcome,
  waitForOutcome,
  withdrawAsk,
} from '../ask/wait-for-outcome.js';
import { formatProtocolError } from '../core/protocol/protocol-error.js';
import { ORIGIN_FIELD } from '../core/protocol/questions/batch-origin.js';
import { parseQuestionFile } from '../core/protocol/questions/parse-question-file.js';
import {
  type AskPut,
  type AskState,
  REMOTE_ASK_ID,
  remoteOrigin,
} from '../core/remote/ask-wire.js';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

/**
 * The file beside an ask's `qa/` that says who put it through the ask API, its `seq`, and its
 * deadline: only that token's holder may read or withdraw it, after a restart too.
 */
const ASKER_FILE = 'asked-by.json';

const askerSchema = z.object({
  by: z.string(),
  seq: z.number().int().positive(),
  deadline: z.iso.datetime().optional(),
});

/** A refusal: the HTTP status and what to say. */
export interface Refusal {
  status: 400 | 404 | 409 | 429;
  error: string;
}

/** How long an ask waits for its asker to look again before it is withdrawn. */
export const ABANDONED_MS = 10 * 60_000;

/** An ask put through the API and not over yet. */
interface OpenAsk {
  by: string;
  folder: AskFolder;
  deadlineMs?: number;
  /** when its asker last asked after it (a poll began or ended) */
  seenMs: number;
  /** polls held open now; aborted when the ask is withdrawn */
  polls: Set<AbortController>;
}

/** The asks that came through the ask API, on top of the relay's own `asks/` folder. */
export interface RemoteAsks {
  put(id: string, by: string, put: AskPut): Promise<{ created: boolean } | Refusal>;
  /** Where the ask stands, waiting up to `waitMs` for it to end. */
  state(id: string, by: string, waitMs: number, signal: AbortSignal): Promise<AskState | Refusal>;
  withdraw(id: string, by: string): Promise<AskState | Refusal>;
  /** How many of `by`'s asks are waiting in Slack. */
  openCount(by: string): number;
  /** Withdraws asks past their deadline or left alone too long; the server calls it often. */
  sweep(): Promise<void>;
}

const stateOf = (outcome: AskOutcome): AskState | undefined => {
  if (outcome.kind === 'answered') return { state: 'answered', text: outcome.text };
  if (outcome.kind === 'cancelled')
    return {
      state: 'cancelled',
      ...(outcome.cancellation ? { cancellation: outcome.cancellation } : {}),
    };
  return undefined;
};

const NOT_HERE = (id: string): Refusal => ({
  status: 404,
  error: `This relay has no ask ${id} of this token's (asks are removed an hour after they end)`,
});

/**
 * Asks through the API go into the relay's own `asks/` folder exactly as a local `ask` puts
 * them, so everything else (Slack, shared mode, restarts, pruning) treats them alike; what is
 * kept here is whose each one is, its deadline and who still waits for it. `now` is the clock.
 */
export async function openRemoteAsks(deps: {
  stateDir: string;
  log: Logger;
  now: () => number;
  pollMs?: number;
}): Promise<RemoteAsks> {
  const { stateDir, log, now } = deps;
  const open = new Map<string, OpenAsk>();

  const askerOf = async (id: string) => {
    const file = path.join(asksRoot(stateDir), id, ASKER_FILE);
    const found = await readGuardedFile(file, { maxBytes: 4096, oneLinkOnly: true });
    if (found.kind !== 'ok') return undefined;
    try {
      const parsed = askerSchema.safeParse(JSON.parse(found.bytes.toString('utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  };

  /** The ask `id` of `by`'s, with where its files are; undefined if it is not theirs. */
  const find = async (id: string, by: string) => {
    if (!REMOTE_ASK_ID.test(id)) return undefined;
    const asker = await askerOf(id);
    if (!asker || asker.by !== by) return undefined;
    return { asker, folder: askFolder(stateDir, id, asker.seq) };
  };

  const close = (id: string) => {
    const ask = open.get(id);
    open.delete(id);
    for (const poll of ask?.polls ?? []) poll.abort();
  };

  const withdrawn = async (id: string, folder: AskFolder, why: string): Promise<AskState> => {
    const late = await withdrawAsk(folder);
    close(id);
    return (late && stateOf(late)) ?? { state: 'withdrawn', why };
  };

  // asks still waiting from before a restart: their askers may well be polling again
  const names = await readdir(asksRoot(stateDir)).catch(() => [] as string[]);
  for (const id of names.filter((name) => REMOTE_ASK_ID.test(name))) {
    const asker = await askerOf(id);
    if (!asker) continue;
    const folder = askFolder(stateDir, id, asker.seq);
    if ((await readOutcome(folder)) !== undefined) continue;
    const stillAsked = await readGuardedFile(folder.questionFile, {
      maxBytes: 1,
      oneLinkOnly: true,
    });
    if (stillAsked.kind === 'missing') continue;
    open.set(id, {
      by: asker.by,
      folder,
      ...(asker.deadline ? { deadlineMs: Date.parse(asker.deadline) } : {}),
      seenMs: now(),
      polls: new Set(),
    });
  }

  return {
    async put(id, by, put) {
      const known = await askerOf(id);
      if (known) {
        return known.by === by
          ? { created: false }
          : { status: 409, error: `The ask id ${id} is taken; pick another one` };
      }
      const { [ORIGIN_FIELD]: suggested, ...rest } = put.batch;
      // checked as any question file below: its questions are objects once it parses
      const batch = { ...rest, [ORIGIN_FIELD]: remoteOrigin(by, suggested) } as BatchFile;
      const folder = askFolder(stateDir, id, Math.trunc(batch.seq) || 1);
      const parsed = parseQuestionFile(batchText(batch), path.basename(folder.questionFile));
      if (!parsed.ok) return { status: 400, error: formatProtocolError(parsed.error) };
      const deadlineMs = put.waitMs !== undefined ? now() + put.waitMs : undefined;
      await deliverBatch(folder, batch);
      await writeFileAtomic(
        path.join(folder.dir, ASKER_FILE),
        `${JSON.stringify({
          by,
          seq: batch.seq,
          ...(deadlineMs !== undefined ? { deadline: new Date(deadlineMs).toISOString() } : {}),
        })}\n`,
      );
      open.set(id, {
        by,
        folder,
        ...(deadlineMs !== undefined ? { deadlineMs } : {}),
        seenMs: now(),
        polls: new Set(),
      });
      log.info(
        { asker: by, ask: id, questions: parsed.value.questions.length },
        'questions asked through the ask API',
      );
      return { created: true };
    },

    async state(id, by, waitMs, signal) {
      const found = await find(id, by);
      if (!found) return NOT_HERE(id);
      const outcome = await readOutcome(found.folder);
      const ended = outcome && stateOf(outcome);
      if (ended) {
        close(id);
        return ended;
      }
      const ask = open.get(id);
      if (!ask) return { state: 'withdrawn', why: 'it was withdrawn from Slack' };
      const poll = new AbortController();
      ask.polls.add(poll);
      ask.seenMs = now();
      try {
        const waited = await waitForOutcome(found.folder, {
          timeoutMs: waitMs,
          signal: AbortSignal.any([signal, poll.signal]),
          leaveOnStop: true,
          ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}),
        });
        const now_ = stateOf(waited);
        if (now_) {
          close(id);
          return now_;
        }
        // withdrawn meanwhile (its deadline, or DELETE from a second connection)
        if (!open.has(id)) return { state: 'withdrawn', why: 'it was withdrawn from Slack' };
        return { state: 'waiting' };
      } finally {
        ask.polls.delete(poll);
        ask.seenMs = now();
      }
    },

    async withdraw(id, by) {
      const found = await find(id, by);
      if (!found) return NOT_HERE(id);
      const state = await withdrawn(id, found.folder, 'withdrawn by its asker');
      if (state.state === 'withdrawn')
        log.info({ asker: by, ask: id }, 'ask withdrawn by its asker');
      return state;
    },

    openCount(by) {
      let count = 0;
      for (const ask of open.values()) if (ask.by === by) count += 1;
      return count;
    },

    async sweep() {
      const at = now();
      for (const [id, ask] of [...open]) {
        const why =
          ask.deadlineMs !== undefined && at >= ask.deadlineMs
            ? 'its deadline passed'
            : ask.polls.size === 0 && at - ask.seenMs >= ABANDONED_MS
              ? `its asker did not ask after it for ${ABANDONED_MS / 60_000} minutes`
              : undefined;
        if (!why) continue;
        const state = await withdrawn(id, ask.folder, why);
        if (state.state === 'withdrawn')
          log.info({ asker: ask.by, ask: id, why }, 'ask withdrawn from Slack');
      }
    },
  };
}
