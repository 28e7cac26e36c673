import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ASK_API,
  askStateSchema,
  MOST_WAIT_SEC,
  putReplySchema,
  refusalSchema,
} from '../core/remote/ask-wire.js';
import { stopReason } from '../stop-signals.js';
import { type AskApiReply, type AskApiRequest, callAskApi } from './ask-api-call.js';
import { newAskId } from './ask-folder.js';
import type { Asker, AskInput, RelayAsk } from './ask-relay.js';
import { readOwnBatch } from './ask-relay.js';
import { outcomeOfState } from './ask-state.js';
import type { AskOutcome } from './wait-for-outcome.js';

/** Where the relay on another machine is, and this caller's token for it. */
export interface RemoteRelay {
  url: URL;
  /** sent as a bearer token; never printed */
  token: string;
}

/** What a remote ask needs besides the relay: how to say a lost connection, and how to call. */
export interface RemoteAskerDeps {
  /** One line to stderr: a dropped connection being tried again, said each time. */
  report: (line: string) => void;
  /** sends one request; tests pass their own */
  call?: (req: AskApiRequest) => Promise<AskApiReply>;
}

/** Back-offs after a dropped connection while waiting: 1 s doubling to 10 s, until the deadline. */
const RETRY_FIRST_MS = 1000;
const RETRY_MOST_MS = 10_000;

/** A request may take its long poll and this much more before it is taken for lost. */
const REQUEST_SLACK_MS = 15_000;

/** Connection errors that mean the request never reached a relay: no use trying again. */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
]);

/** Statuses a proxy or a relay starting or mid-edit gives for a while: waited out, not final. */
const FOR_A_WHILE = new Set([502, 503, 504]);

type Reply = AskApiReply;

/** `<relay>/v1<path>`: where a request of the ask API goes. */
const apiUrl = (relay: RemoteRelay, path: string) =>
  new URL(`${relay.url.href.replace(/\/+$/, '')}${ASK_API}${path}`);

/** The relay's sentence in a refusal, as the caller is told it. */
function reasonOf(reply: { body: unknown }): string {
  const said = refusalSchema.safeParse(reply.body);
  return said.success ? said.data.error : 'no reason given';
}

/**
 * Asks through the relay at `relay.url` over its ask API (`core/remote/ask-wire.ts`), as
 * `localAsker` asks through this machine's: the batch is put under an id picked here (a retry
 * puts it once), its state is long-polled, and a dropped connection, a proxy's 502–504 or a
 * flood's 429 is said and waited out until the deadline, each time on stderr. A timeout, an
 * abort or a refusal mid-wait withdraws it (the relay withdraws it at the deadline on its own
 * too, should this process be gone).
 */
export function remoteAsker(relay: RemoteRelay, deps: RemoteAskerDeps): Asker {
  const send = deps.call ?? callAskApi;
  const shown = relay.url.origin;
  const call = (
    method: AskApiRequest['method'],
    path: string,
    body: object | undefined,
    signal: AbortSignal,
    waitSec = 0,
  ): Promise<Reply> =>
    send({
      method,
      url: apiUrl(relay, path),
      token: relay.token,
      ...(body ? { body } : {}),
      signal,
      timeoutMs: waitSec * 1000 + REQUEST_SLACK_MS,
    });
  const refusal = (reply: { status: number; body: unknown }) =>
    `The relay at ${shown} refused the ask (HTTP ${reply.status}): ${reasonOf(reply)}`;

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
    let retryMs = RETRY_FIRST_MS;
    /** Waits out a lost connection or a passing refusal, said on stderr; false when stopped. */
    const waitOut = async (doing: string, reply: Reply) => {
      const why = 'lost' in reply ? reply.lost : `HTTP ${reply.status}`;
      const pause =
        'lost' in reply || reply.retryAfterSec === undefined ? retryMs : reply.retryAfterSec * 1000;
      deps.report(
        `o7-slack-relay: no answer from the relay at ${shown} while ${doing} (${why}); trying again in ${pause / 1000} s`,
      );
      await sleep(pause, undefined, { signal }).catch(() => undefined);
      retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
      return !signal.aborted;
    };
    const passing = (reply: Reply) =>
      'lost' in reply ||
      FOR_A_WHILE.has(reply.status) ||
      (reply.status === 429 && reply.retryAfterSec !== undefined);
    try {
      const put = {
        batch: input.batch,
        ...(input.timeoutMs !== undefined
          ? { waitMs: Math.max(1, Math.round(input.timeoutMs)) }
          : {}),
      };
      let putReply = await call('PUT', `/asks/${id}`, put, signal);
      // nothing reached a relay: said at once, as a local ask says no relay runs
      if ('lost' in putReply && !signal.aborted && NEVER_SENT.has(putReply.lost))
        return {
          kind: 'refused',
          reason: `The relay at ${shown} cannot be reached (${putReply.lost}). Check RELAY_URL (or --relay), that the relay serves RELAY_ASK_PORT there, and the network between.`,
        };
      // dropped on the way back, maybe after the relay had it: the same id puts it once
      while (passing(putReply)) {
        if (!(await waitOut('asking', putReply))) return ended(await withdrawn(signal));
        putReply = await call('PUT', `/asks/${id}`, put, signal);
      }
      if ('lost' in putReply) return ended(await withdrawn(signal)); // passing() saw to the rest
      if (putReply.status !== 200 && putReply.status !== 201)
        return { kind: 'refused', reason: refusal(putReply) };
      const by = putReplySchema.safeParse(putReply.body);
      input.onDelivered?.(
        `through the relay at ${shown}${by.success ? ` as ${by.data.by}` : ''}; waiting for an answer to ask ${id}`,
      );
      retryMs = RETRY_FIRST_MS;
      for (;;) {
        if (signal.aborted) return ended(await withdrawn(signal));
        const left =
          deadline === undefined ? MOST_WAIT_SEC : Math.ceil((deadline - Date.now()) / 1000);
        const waitSec = Math.max(0, Math.min(MOST_WAIT_SEC, left));
        const reply = await call('GET', `/asks/${id}?wait=${waitSec}`, undefined, signal, waitSec);
        if (signal.aborted) continue;
        if (passing(reply)) {
          await waitOut(`waiting for ask ${id}`, reply);
          continue;
        }
        retryMs = RETRY_FIRST_MS;
        const state =
          'status' in reply && reply.status === 200
            ? askStateSchema.safeParse(reply.body)
            : undefined;
        if (!state?.success) {
          // refused for good mid-wait (say, the token revoked): not left waiting in Slack
          await withdrawn(signal);
          return { kind: 'refused', reason: refusal(reply as { status: number; body: unknown }) };
        }
        if (state.data.state === 'withdrawn')
          return {
            kind: 'refused',
            reason: `The relay at ${shown} withdrew ask ${id}: ${state.data.why}`,
          };
        const outcome = outcomeOfState(state.data);
        if (outcome) return ended(outcome);
      }
    } finally {
      if (timer) clearTimeout(timer);
    }

    /** Withdraws the ask on the way out; an answer given just before still counts. */
    async function withdrawn(why: AbortSignal): Promise<AskOutcome> {
      const reply = await call('DELETE', `/asks/${id}`, undefined, AbortSignal.timeout(5000));
      const state = 'lost' in reply ? undefined : askStateSchema.safeParse(reply.body);
      const late = state?.success ? outcomeOfState(state.data) : undefined;
      if (late) return late;
      if ('lost' in reply)
        deps.report(
          `o7-slack-relay: could not withdraw ask ${id} from the relay at ${shown} (${reply.lost}); it withdraws it itself at its deadline`,
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
  send: (req: AskApiRequest) => Promise<AskApiReply> = callAskApi,
): Promise<string | undefined> {
  const shown = relay.url.origin;
  const reply = await send({
    method: 'POST',
    url: apiUrl(relay, '/notices'),
    token: relay.token,
    body: notice,
    signal: new AbortController().signal,
    timeoutMs: 10_000,
  });
  if ('lost' in reply) return `the relay at ${shown} cannot be reached (${reply.lost})`;
  if (reply.status === 202) return undefined;
  return `the relay at ${shown} refused the notice (HTTP ${reply.status}: ${reasonOf(reply)})`;
}
