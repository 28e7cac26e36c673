import * as z from 'zod';
import { type BatchOrigin, ORIGIN_FIELD } from '../protocol/questions/batch-origin.js';

/**
 * The ask API (`RELAY_ASK_PORT`): what `hook`, `mcp` and `ask` on another machine send the
 * relay and what it answers, checked by zod at both ends. Its paths are under {@link ASK_API}.
 *
 * - `PUT /v1/asks/<id>` with {@link askPutSchema}: put a batch to people. The caller picks the
 *   id, so a retry after a dropped connection puts the batch once.
 * - `GET /v1/asks/<id>?wait=<s>`: the ask's {@link AskState}, held open up to `wait` seconds
 *   while it waits; asked again after a dropped connection, it carries on.
 * - `DELETE /v1/asks/<id>`: withdraw it from Slack; answers the final state (an answer just
 *   before still counts).
 * - `POST /v1/notices` with {@link noticeSchema}: Claude Code waits for its person.
 *
 * Every refusal is `{ "error": "<what happened and what to do>" }` with its HTTP status.
 */
export const ASK_API = '/v1';

/** An id callers pick: newAskId's form (time, `-`, hex) with 128 random bits. */
export const REMOTE_ASK_ID = /^\d{8}T\d{9}Z-[0-9a-f]{32}$/;

/** The longest a long poll is held open, in seconds: under common proxies' 60 s idle cut. */
export const MOST_WAIT_SEC = 25;

/** The longest deadline an ask may set: a day. */
export const MOST_DEADLINE_MS = 24 * 60 * 60_000;

/** The origin a caller may suggest; the relay adds who asked and leaves out the project. */
const suggestedOrigin = z.object({
  title: z.string().max(300),
  detail: z.string().max(1000).optional(),
  inTerminal: z.boolean().optional(),
});

/** `PUT /v1/asks/<id>`'s body. */
export const askPutSchema = z.object({
  /** `q-out-NNN.json`'s content; the protocol's parser checks it as any question file */
  batch: z
    .object({
      seq: z.number(),
      questions: z.array(z.unknown()),
      [ORIGIN_FIELD]: suggestedOrigin.optional(),
    })
    .loose(),
  /** withdrawn from Slack after this long even if the caller is gone (its `--wait`/`--timeout`) */
  waitMs: z.number().int().positive().max(MOST_DEADLINE_MS).optional(),
});

export type AskPut = z.infer<typeof askPutSchema>;

const cancellation = z.object({
  seq: z.number(),
  cancelledBy: z.string(),
  cancelledAt: z.string(),
});

/** `PUT`'s answer: the ask's id and the holder of the token it was asked with. */
export const putReplySchema = z.object({ id: z.string(), by: z.string() });

/** Where an ask stands, as `GET` and `DELETE` answer it. */
export const askStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('waiting') }),
  /** `text` is the answer file's content */
  z.object({ state: z.literal('answered'), text: z.string() }),
  z.object({ state: z.literal('cancelled'), cancellation: cancellation.optional() }),
  /** withdrawn from Slack: by `DELETE`, its deadline, or its caller gone too long */
  z.object({ state: z.literal('withdrawn'), why: z.string() }),
]);

export type AskState = z.infer<typeof askStateSchema>;

/** `POST /v1/notices`'s body: Claude Code's "waiting for your input" from another machine. */
export const noticeSchema = z.object({
  project: z.string().min(1).max(4096),
  session: z.string().min(1).max(200),
  message: z.string().max(2000),
});

/** A refusal's body. */
export const refusalSchema = z.object({ error: z.string() });

/**
 * The origin the relay writes into a batch asked through the API: the caller's title (else
 * one naming the token's holder) and a line that always starts with who asked. The caller's
 * project is not kept: a token may not pick another project's channel.
 */
export function remoteOrigin(
  name: string,
  suggested:
    | { title: string; detail?: string | undefined; inTerminal?: boolean | undefined }
    | undefined,
): BatchOrigin {
  const title = suggested?.title.trim() || `Questions from ${name}`;
  const detail = suggested?.detail?.trim();
  return {
    title,
    detail: [`asked by ${name} over the ask API`, ...(detail ? [detail] : [])].join(' · '),
    // a hook's terminal waits on it too: its message says where a withdrawn question went
    ...(suggested?.inTerminal === true ? { inTerminal: true } : {}),
  };
}
