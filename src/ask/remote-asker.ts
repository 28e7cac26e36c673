import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import {
  ASK_API,
  type AskState,
  askStateSchema,
  MOST_WAIT_SEC,
  refusalSchema,
} from '../core/remote/ask-wire.js';
import { stopReason } from '../stop-signals.js';
import { newAskId } from './ask-folder.js';
import type { Asker, AskInput, RelayAsk } from './ask-relay.js';
import { readOwnBatch } from './ask-relay.js';
import type { AskOutcome } from './wait-for-outcome.js';

/** Where the relay on another machine is, and this caller's token for it. */
export interface RemoteRelay {
  url: URL;
  /** sent as a bearer token; never printed */
  token: string;
}

/** What a remote ask needs besides the relay: how to say a lost connection, and `fetch`. */
export interface RemoteAskerDeps {
  /** One line to stderr: a dropped connection being tried again, said each time. */
  report: (line: string) => void;
  fetch?: typeof fetch;
}

/** Back-offs after a dropped connection while waiting: 1 s doubling to 10 s, until the deadline. */
const RETRY_FIRST_MS = 1000;
const RETRY_MOST_MS = 10_000;

/** Connection errors that mean the request never reached a relay: no use trying again. */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
]);

/** A request's answer: its status and JSON body, or why there was none. */
type Reply = { status: number; body: unknown } | { lost: string };

const outcomeOf = (state: AskState): AskOutcome | undefined => {
  if (state.state === 'answered') return { kind: 'answered', text: state.text };
  if (state.state === 'cancelled') return { kind: 'cancelled', cancellation: state.cancellation };
  return undefined;
};

/**
 * Asks through the relay at `relay.url` over its ask API (`core/remote/ask-wire.ts`), as
 * {@link localAsker} asks through this machine's: the batch is put under an id picked here (a
 * retry puts it once), its state is long-polled, a dropped connection is said and tried again
 * until the deadline, and a timeout or abort withdraws it (the relay withdraws it at the
 * deadline on its own too, should this process be gone).
 */
export function remoteAsker(relay: RemoteRelay, deps: RemoteAskerDeps): Asker {
  const doFetch = deps.fetch ?? fetch;
  const base = relay.url.href.replace(/\/+$/, '');
  const shown = relay.url.origin;
  const call = async (
    method: string,
    path: string,
    body: object | undefined,
    signal: AbortSignal,
  ): Promise<Reply> => {
    try {
      const res = await doFetch(`${base}${ASK_API}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${relay.token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal,
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, body: parsed };
    } catch (error) {
      if (signal.aborted) return { lost: stopReason(signal.reason) };
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { lost: cause?.code ?? cause?.message ?? (error as Error).message };
    }
  };
  const refusal = (reply: { status: number; body: unknown }) => {
    const said = refusalSchema.safeParse(reply.body);
    return `The relay at ${shown} refused the ask (HTTP ${reply.status}): ${said.success ? said.data.error : 'no reason given'}`;
  };
  const read = <T>(schema: z.ZodType<T>, reply: { status: number; body: unknown }) => {
    const parsed = schema.safeParse(reply.body);
    return parsed.success ? parsed.data : undefined;
  };

  return async (input: AskInput): Promise<RelayAsk> => {
    const now = input.now ?? (() => new Date());
    const id = newAskId(now(), randomBytes(16).toString('hex'));
    const own = readOwnBatch(input.batch, 'the batch');
    const answerFile = `the answer to ask ${id} from ${shown}`;
    const stop = new AbortController();
    const signal = input.signal ? AbortSignal.any([input.signal, stop.signal]) : stop.signal;
    const deadline = input.timeoutMs !== undefined ? Date.now() + input.timeoutMs : undefined;
    const timer =
      input.timeoutMs !== undefined
        ? setTimeout(() => stop.abort('timeout'), input.timeoutMs)
        : undefined;
    const ended = (outcome: AskOutcome): RelayAsk => ({ ...outcome, batch: own, answerFile });
    try {
      const put = {
        batch: input.batch,
        ...(input.timeoutMs !== undefined
          ? { waitMs: Math.max(1, Math.round(input.timeoutMs)) }
          : {}),
      };
      let putReply = await call('PUT', `/asks/${id}`, put, signal);
      // nothing reached the relay: said at once, as a local ask says no relay runs
      if ('lost' in putReply && !signal.aborted && NEVER_SENT.has(putReply.lost)) {
        return {
          kind: 'refused',
          reason: `The relay at ${shown} cannot be reached (${putReply.lost}). Check RELAY_URL (or --relay), that the relay serves RELAY_ASK_PORT there, and the network between.`,
        };
      }
      // dropped on the way back, maybe after the relay had it: the same id puts it once
      let retryMs = RETRY_FIRST_MS;
      while ('lost' in putReply) {
        if (signal.aborted) return ended(await withdrawn(id, signal));
        deps.report(
          `o7-slack-relay: lost the connection to the relay at ${shown} while asking (${putReply.lost}); trying again in ${retryMs / 1000} s`,
        );
        await sleep(retryMs, undefined, { signal }).catch(() => undefined);
        retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
        putReply = await call('PUT', `/asks/${id}`, put, signal);
      }
      if (putReply.status !== 200 && putReply.status !== 201)
        return { kind: 'refused', reason: refusal(putReply) };
      const by = (putReply.body as { by?: unknown } | undefined)?.by;
      input.onDelivered?.(
        `through the relay at ${shown}${typeof by === 'string' ? ` as ${by}` : ''}; waiting for an answer to ask ${id}`,
      );
      retryMs = RETRY_FIRST_MS;
      for (;;) {
        if (signal.aborted) return ended(await withdrawn(id, signal));
        const left =
          deadline === undefined ? MOST_WAIT_SEC : Math.ceil((deadline - Date.now()) / 1000);
        const reply = await call(
          'GET',
          `/asks/${id}?wait=${Math.max(0, Math.min(MOST_WAIT_SEC, left))}`,
          undefined,
          signal,
        );
        if ('lost' in reply) {
          if (signal.aborted) continue;
          deps.report(
            `o7-slack-relay: lost the connection to the relay at ${shown} while waiting for ask ${id} (${reply.lost}); trying again in ${retryMs / 1000} s`,
          );
          await sleep(retryMs, undefined, { signal }).catch(() => undefined);
          retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
          continue;
        }
        retryMs = RETRY_FIRST_MS;
        if (reply.status === 429) {
          await sleep(1000, undefined, { signal }).catch(() => undefined);
          continue;
        }
        const state = reply.status === 200 ? read(askStateSchema, reply) : undefined;
        if (!state) return { kind: 'refused', reason: refusal(reply) };
        if (state.state === 'withdrawn')
          return {
            kind: 'refused',
            reason: `The relay at ${shown} withdrew ask ${id}: ${state.why}`,
          };
        const outcome = outcomeOf(state);
        if (outcome) return ended(outcome);
      }
    } finally {
      if (timer) clearTimeout(timer);
    }

    /** Withdraws the ask on the way out; an answer given just before still counts. */
    async function withdrawn(askId: string, why: AbortSignal): Promise<AskOutcome> {
      const reply = await call('DELETE', `/asks/${askId}`, undefined, AbortSignal.timeout(5000));
      const state = 'lost' in reply ? undefined : read(askStateSchema, reply);
      const late = state && outcomeOf(state);
      if (late) return late;
      if ('lost' in reply)
        deps.report(
          `o7-slack-relay: could not withdraw ask ${askId} from the relay at ${shown} (${reply.lost}); it withdraws it itself at its deadline`,
        );
      return why.reason === 'timeout' && !input.signal?.aborted
        ? { kind: 'timed-out' }
        : { kind: 'aborted', reason: stopReason(input.signal?.reason) };
    }
  };
}

/**
 * Tells the relay at `relay.url` that Claude Code waits for its person (the ask API's
 * notices); returns why it could not, or undefined once the relay has it.
 */
export async function leaveRemoteNotice(
  relay: RemoteRelay,
  notice: { project: string; session: string; message: string },
  doFetch: typeof fetch = fetch,
): Promise<string | undefined> {
  const shown = relay.url.origin;
  try {
    const res = await doFetch(`${relay.url.href.replace(/\/+$/, '')}${ASK_API}/notices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${relay.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(notice),
      signal: AbortSignal.timeout(10_000),
    });
    if (res.ok) return undefined;
    const said = refusalSchema.safeParse(await res.json().catch(() => undefined));
    return `the relay at ${shown} refused the notice (HTTP ${res.status}: ${said.success ? said.data.error : 'no reason given'})`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return `the relay at ${shown} cannot be reached (${cause?.code ?? (error as Error).message})`;
  }
}
