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

/**
 * POSTs a payload to the app's request URL, signed like Slack signs it. A 200 answer within
 * the timeout is the ack; its body (JSON when it parses) is the ack payload.
 */
export function deliverOverHttp(
  envelopeType: EnvelopeType,
  payload: JsonObject,
  options: HttpDeliveryOptions,
): Promise<AckResult> {
  const payloadType = String(payload.type ?? payload.command ?? envelopeType);
  const { body, contentType } = encodeForRequestUrl(envelopeType, payload);
  const target = new URL(options.url);
  const send = target.protocol === 'https:' ? httpsRequest : request;

  return new Promise<AckResult>((settle) => {
    let settled = false;
    const resolve = (result: AckResult) => {
      if (settled) return;
      settled = true;
      settle(result);
    };
    const failure = (kind: DeliveryFailure['kind'], detail: string): AckResult => {
      if (!settled) options.recordFailure({ kind, envelopeType, payloadType, detail });
      return { acked: false };
    };
    const req = send(
      target,
      {
        method: 'POST',
        agent: false,
        timeout: options.timeoutMs,
        headers: {
          'content-type': contentType,
          'content-length': Buffer.byteLength(body),
          'x-slack-request-timestamp': String(options.timestampSec),
          'x-slack-signature': slackSignature(options.signingSecret, options.timestampSec, body),
          'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
          connection: 'close',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) {
            resolve(
              failure(
                DELIVERY_FAILURE_KINDS.httpStatus,
                `request URL ${options.url} answered HTTP ${res.statusCode}: ${text.slice(0, 200)}`,
              ),
            );
            return;
          }
          const ack = parseAck(text);
          resolve(ack === undefined ? { acked: true } : { acked: true, ackPayload: ack });
        });
      },
    );
    req.on('timeout', () => {
      req.destroy();
      resolve(
        failure(
          DELIVERY_FAILURE_KINDS.noAck,
          `request URL ${options.url} did not answer within ${options.timeoutMs} ms`,
        ),
      );
    });
    req.on('error', (error) => {
      resolve(
        failure(
          DELIVERY_FAILURE_KINDS.httpError,
          `request URL ${options.url} failed: ${error.message}`,
        ),
      );
    });
    req.end(body);
  });
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
