import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import * as z from 'zod';
import {
  type AskFolder,
  askFolder,
  asksRoot,
  type BatchFile,
  batchText,
  deliverBatch,
} from '../ask/ask-folder.js';
import { stateOfOutcome } from '../ask/ask-state.js';
import { readOutcome, waitForOutcome, withdrawAsk } from '../ask/wait-for-outcome.js';
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
 * The file beside an ask's `qa/` that says who put it through the ask API, its `seq`, its
 * deadline and, once withdrawn, why: only that token's holder may read or withdraw it, after a
 * restart too. It is in the folder from the moment the folder is.
 */
const ASKER_FILE = 'asked-by.json';

const askerSchema = z.object({
  by: z.string(),
  seq: z.number().int().positive(),
  deadline: z.iso.datetime().optional(),
  withdrawn: z.string().optional(),
});
type Asker = z.infer<typeof askerSchema>;

const askerText = (asker: Asker) => `${JSON.stringify(asker)}\n`;

/** A refusal: the HTTP status and what to say. */
export interface Refusal {
  status: 400 | 404 | 409 | 429;
  error: string;
}

/** How long an ask waits for its asker to look again before it is withdrawn. */
export const ABANDONED_MS = 10 * 60_000;

/** An ask put through the API and not over yet. */
interface OpenAsk {
  asker: Asker;
  folder: AskFolder;
  deadlineMs?: number;
  /** when its asker last asked after it (a poll began or ended) */
  seenMs: number;
  /** polls held open now; aborted when the ask is withdrawn */
  polls: Set<AbortController>;
}

/** The asks that came through the ask API, on top of the relay's own `asks/` folder. */
export interface RemoteAsks {
  /** Asks, unless `by` has `maxOpen` asks waiting already; the same id again is the same ask. */
  put(
    id: string,
    by: string,
    put: AskPut,
    maxOpen: number,
  ): Promise<{ created: boolean } | Refusal>;
  /** Where the ask stands, waiting up to `waitMs` for it to end. */
  state(id: string, by: string, waitMs: number, signal: AbortSignal): Promise<AskState | Refusal>;
  withdraw(id: string, by: string): Promise<AskState | Refusal>;
  /** Withdraws asks past their deadline or left alone too long; the server calls it often. */
  sweep(): Promise<void>;
}

const notHere = (id: string): Refusal => ({
  status: 404,
  error: `This relay has no ask ${id} of this token's (asks are removed an hour after they end)`,
});

const WITHDRAWN = 'it was withdrawn from Slack';

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
  /** ids being put right now, by holder: they count against the holder's open asks */
  const putting = new Map<string, string>();

  const askerOf = async (id: string): Promise<Asker | undefined> => {
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
    const asker = open.get(id)?.asker ?? (await askerOf(id));
    if (!asker || asker.by !== by) return undefined;
    return { asker, folder: askFolder(stateDir, id, asker.seq) };
  };

  const openCount = (by: string) =>
    [...open.values()].filter((ask) => ask.asker.by === by).length +
    [...putting.values()].filter((holder) => holder === by).length;

  const opened = (id: string, asker: Asker, folder: AskFolder) =>
    open.set(id, {
      asker,
      folder,
      ...(asker.deadline ? { deadlineMs: Date.parse(asker.deadline) } : {}),
      seenMs: now(),
      polls: new Set(),
    });

  /** Withdraws the ask from Slack, keeping why; an answer given just before still counts. */
  const withdraw = async (id: string, asker: Asker, folder: AskFolder, why: string) => {
    // why first: once the question file goes, anyone asking after the ask reads the reason
    // (an answer given just before still wins: the reason is read only for a withdrawn ask)
    if (asker.withdrawn === undefined)
      await writeFileAtomic(
        path.join(folder.dir, ASKER_FILE),
        askerText({ ...asker, withdrawn: why }),
      );
    const ended = stateOfOutcome(await withdrawAsk(folder));
    const ask = open.get(id);
    open.delete(id);
    for (const poll of ask?.polls ?? []) poll.abort();
    if (ended) return ended;
    return { state: 'withdrawn' as const, why: asker.withdrawn ?? why };
  };

  // asks still waiting from before a restart: their askers may well be polling again
  const names = await readdir(asksRoot(stateDir)).catch(() => [] as string[]);
  for (const id of names.filter((name) => REMOTE_ASK_ID.test(name))) {
    const asker = await askerOf(id);
    if (!asker) continue;
    const folder = askFolder(stateDir, id, asker.seq);
    if ((await readOutcome(folder)) !== undefined) continue;
    const asked = await readGuardedFile(folder.questionFile, { maxBytes: 1, oneLinkOnly: true });
    if (asked.kind === 'missing') continue;
    // a crash between recording why and withdrawing: withdrawn now
    if (asker.withdrawn !== undefined) await withdrawAsk(folder);
    else opened(id, asker, folder);
  }

  return {
    async put(id, by, put, maxOpen) {
      // decided before anything is awaited, so that puts at once cannot pass the limit
      const known = open.get(id)?.asker.by ?? putting.get(id);
      if (known !== undefined)
        return known === by
          ? { created: false }
          : { status: 409, error: `The ask id ${id} is taken; pick another one` };
      if (openCount(by) >= maxOpen)
        return {
          status: 429,
          error: `${by} has ${maxOpen} asks waiting in Slack already (RELAY_ASK_MAX_OPEN); let some be answered or withdrawn first`,
        };
      putting.set(id, by);
      try {
        const before = await askerOf(id);
        if (before)
          return before.by === by
            ? { created: false }
            : { status: 409, error: `The ask id ${id} is taken; pick another one` };
        const { [ORIGIN_FIELD]: suggested, ...rest } = put.batch;
        // checked as any question file below: its questions are objects once it parses
        const batch = { ...rest, [ORIGIN_FIELD]: remoteOrigin(by, suggested) } as BatchFile;
        const folder = askFolder(stateDir, id, Math.trunc(batch.seq) || 1);
        const parsed = parseQuestionFile(batchText(batch), path.basename(folder.questionFile));
        if (!parsed.ok) return { status: 400, error: formatProtocolError(parsed.error) };
        const asker: Asker = {
          by,
          seq: batch.seq,
          ...(put.waitMs !== undefined
            ? { deadline: new Date(now() + put.waitMs).toISOString() }
            : {}),
        };
        await deliverBatch(folder, batch, { [ASKER_FILE]: askerText(asker) });
        opened(id, asker, folder);
        log.info(
          { asker: by, ask: id, questions: parsed.value.questions.length },
          'questions asked through the ask API',
        );
        return { created: true };
      } finally {
        putting.delete(id);
      }
    },

    async state(id, by, waitMs, signal) {
      const found = await find(id, by);
      if (!found) return notHere(id);
      const ask = open.get(id);
      // over already: its folder says how (the wait below reads it first for an open one)
      if (!ask)
        return (
          stateOfOutcome(await readOutcome(found.folder)) ?? {
            state: 'withdrawn',
            why: found.asker.withdrawn ?? WITHDRAWN,
          }
        );
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
        const over = stateOfOutcome(waited);
        if (over) {
          open.delete(id);
          return over;
        }
        // withdrawn meanwhile: its deadline, or a DELETE on another connection
        if (!open.has(id))
          return { state: 'withdrawn', why: (await askerOf(id))?.withdrawn ?? WITHDRAWN };
        return { state: 'waiting' };
      } finally {
        ask.polls.delete(poll);
        ask.seenMs = now();
      }
    },

    async withdraw(id, by) {
      const found = await find(id, by);
      if (!found) return notHere(id);
      const state = await withdraw(id, found.asker, found.folder, 'withdrawn by its asker');
      if (state.state === 'withdrawn')
        log.info({ asker: by, ask: id }, 'ask withdrawn by its asker');
      return state;
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
        const state = await withdraw(id, ask.asker, ask.folder, why);
        if (state.state === 'withdrawn')
          log.info({ asker: ask.asker.by, ask: id, why }, 'ask withdrawn from Slack');
      }
    },
  };
}
