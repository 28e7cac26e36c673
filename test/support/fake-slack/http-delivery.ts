import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  type AckResult,
  DELIVERY_FAILURE_KINDS,
  type DeliveryFailure,
  type EnvelopeType,
  isJsonObject,
  type JsonObject,
} from './types.js';

/** Slack's request signature: `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<body>`. */
export function slackSignature(signingSecret: string, timestampSec: number, body: string): string {
  const digest = createHmac('sha256', signingSecret)
    .update(`v0:${timestampSec}:${body}`)
    .digest('hex');
  return `v0=${digest}`;
}

/** The body and content type Slack uses for each kind of payload. */
export function encodeForRequestUrl(
  envelopeType: EnvelopeType,
  payload: JsonObject,
): { body: string; contentType: string } {
  if (envelopeType === 'events_api') {
    return { body: JSON.stringify(payload), contentType: 'application/json' };
  }
  if (envelopeType === 'slash_commands') {
    const fields = Object.entries(payload).map(([k, v]): [string, string] => [k, String(v)]);
    return {
      body: new URLSearchParams(fields).toString(),
      contentType: 'application/x-www-form-urlencoded',
    };
  }
  return {
    body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    contentType: 'application/x-www-form-urlencoded',
  };
}

/** What posting to the app's request URL needs. */
export interface HttpDeliveryOptions {
  url: string;
  signingSecret: string;
  /** seconds for X-Slack-Request-Timestamp; the receiver checks it against its own clock */
  timestampSec: number;
  timeoutMs: number;
  recordFailure(failure: Omit<DeliveryFailure, 'at'>): void;
}

/** How the app's request URL answered one POST. */
export type RequestUrlAnswer =
  | { kind: 'answered'; status: number; text: string }
  | { kind: 'timeout' }
  | { kind: 'error'; message: string };

/** A body to POST to the app's request URL, and how to sign it. */
export interface SignedPost {
  url: string;
  body: string;
  contentType: string;
  signingSecret: string;
  timestampSec: number;
  timeoutMs: number;
}

/**
 * POSTs `body` as it is to the app's request URL with Slack's headers, signed with the
 * signing secret and `timestampSec`; resolves with the answer, a timeout or a network error.
 */
export function postSigned(post: SignedPost): Promise<RequestUrlAnswer> {
  const target = new URL(post.url);
  const send = target.protocol === 'https:' ? httpsRequest : request;
  return new Promise<RequestUrlAnswer>((settle) => {
    let settled = false;
    const resolve = (answer: RequestUrlAnswer) => {
      if (settled) return;
      settled = true;
      settle(answer);
    };
    const req = send(
      target,
      {
        method: 'POST',
        agent: false,
        timeout: post.timeoutMs,
        headers: {
          'content-type': post.contentType,
          'content-length': Buffer.byteLength(post.body),
          'x-slack-request-timestamp': String(post.timestampSec),
          'x-slack-signature': slackSignature(post.signingSecret, post.timestampSec, post.body),
          'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
          connection: 'close',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ kind: 'answered', status: res.statusCode ?? 0, text });
        });
      },
    );
    req.on('timeout', () => {
      req.destroy();
      resolve({ kind: 'timeout' });
    });
    req.on('error', (error) => resolve({ kind: 'error', message: error.message }));
    req.end(post.body);
  });
}

/**
 * POSTs a payload to the app's request URL, signed like Slack signs it. A 200 answer within
 * the timeout is the ack; its body (JSON when it parses) is the ack payload.
 */
export async function deliverOverHttp(
  envelopeType: EnvelopeType,
  payload: JsonObject,
  options: HttpDeliveryOptions,
): Promise<AckResult> {
  const payloadType = String(payload.type ?? payload.command ?? envelopeType);
  const answer = await postSigned({
    ...encodeForRequestUrl(envelopeType, payload),
    url: options.url,
    signingSecret: options.signingSecret,
    timestampSec: options.timestampSec,
    timeoutMs: options.timeoutMs,
  });
  if (answer.kind === 'answered' && answer.status === 200) {
    const ack = parseAck(answer.text);
    return ack === undefined ? { acked: true } : { acked: true, ackPayload: ack };
  }
  const failure = (kind: DeliveryFailure['kind'], detail: string): AckResult => {
    options.recordFailure({ kind, envelopeType, payloadType, detail });
    return { acked: false };
  };
  switch (answer.kind) {
    case 'answered':
      return failure(
        DELIVERY_FAILURE_KINDS.httpStatus,
        `request URL ${options.url} answered HTTP ${answer.status}: ${answer.text.slice(0, 200)}`,
      );
    case 'timeout':
      return failure(
        DELIVERY_FAILURE_KINDS.noAck,
        `request URL ${options.url} did not answer within ${options.timeoutMs} ms`,
      );
    case 'error':
      return failure(
        DELIVERY_FAILURE_KINDS.httpError,
        `request URL ${options.url} failed: ${answer.message}`,
      );
  }
}

/** The ack payload of an HTTP answer; an empty body or `{}` means none, as over Socket Mode. */
function parseAck(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isJsonObject(parsed) && Object.keys(parsed).length === 0 ? undefined : parsed;
  } catch {
    return text;
  }
}
