// The ask API's client against a call given in its place: what it does with each answer the
// relay (or a proxy in front of it) can give. The real server is in test/e2e/remote-relay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AskApiReply, AskApiRequest } from '../../src/ask/ask-api-call.js';
import { remoteAsker } from '../../src/ask/remote-asker.js';
import { sampleBatch } from '../support/temp-dir.js';

/** A reply; `drop`, a dropped connection; `hold`, a long poll held open until the call is stopped. */
type Answer =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | 'drop'
  | 'hold';

/** A call that answers each request in turn from `script` (by method), keeping what it was sent. */
function scripted(script: Record<string, Answer[]>) {
  const sent: { method: string; url: string; token: string }[] = [];
  const call = async (req: AskApiRequest): Promise<AskApiReply> => {
    sent.push({ method: req.method, url: req.url.href, token: req.token });
    const next = script[req.method]?.shift();
    if (next === undefined) throw new Error(`no answer scripted for ${req.method} ${req.url.href}`);
    if (next === 'drop') return { lost: 'ECONNRESET' };
    if (next === 'hold') {
      await new Promise((stopped) => req.signal.addEventListener('abort', stopped, { once: true }));
      return { lost: 'stopped' };
    }
    const retryAfter = Number(next.headers?.['retry-after']);
    return {
      status: next.status,
      body: next.body,
      ...(retryAfter > 0 ? { retryAfterSec: retryAfter } : {}),
    };
  };
  return { call, sent };
}

const relay = {
  url: new URL('https://relay.example:8443/'),
  token: 'tok-0123456789abcdef0123456789abcdef',
};
const PUT_OK = { status: 201, body: { id: 'x', by: 'ann' } };
const ANSWER = { state: 'answered', text: '{"seq":1,"answers":[]}' };

function asker(script: Record<string, Answer[]>) {
  const { call, sent } = scripted(script);
  const reports: string[] = [];
  const ask = remoteAsker(relay, { report: (line) => reports.push(line), call });
  return { ask, sent, reports };
}

test("puts, long-polls and returns the answer; a dropped poll and a proxy's 502 are said and waited out", async () => {
  const { ask, sent, reports } = asker({
    PUT: ['drop', PUT_OK],
    GET: [
      { status: 200, body: { state: 'waiting' } },
      'drop',
      { status: 502 },
      { status: 200, body: ANSWER },
    ],
  });
  const said: string[] = [];
  const outcome = await ask({ batch: sampleBatch(1), onDelivered: (where) => said.push(where) });
  assert.equal(outcome.kind, 'answered');
  assert.deepEqual(
    sent.map((s) => s.method),
    ['PUT', 'PUT', 'GET', 'GET', 'GET', 'GET'],
  );
  const [first, again] = sent;
  assert.equal(first?.url, again?.url, 'the same id put again');
  assert.match(
    String(first?.url),
    /^https:\/\/relay\.example:8443\/v1\/asks\/\d{8}T\d{9}Z-[0-9a-f]{32}$/,
  );
  assert.ok(sent.every((s) => s.token === relay.token));
  assert.equal(reports.length, 3);
  assert.match(reports[0] ?? '', /while asking \(ECONNRESET\); trying again in 1 s/);
  assert.match(reports[2] ?? '', /\(HTTP 502\); trying again in 2 s/);
  assert.ok(!reports.join('\n').includes(relay.token), 'the token is never said');
  assert.match(
    said[0] ?? '',
    /^through the relay at https:\/\/relay\.example:8443 as ann; waiting for an answer to ask /,
  );
});

test("a flood's 429 waits its Retry-After; an open-asks 429 (no Retry-After) is final and said", async () => {
  const flood = asker({
    PUT: [{ status: 429, body: { error: 'Too many' }, headers: { 'retry-after': '1' } }, PUT_OK],
    GET: [{ status: 200, body: ANSWER }],
  });
  assert.equal((await flood.ask({ batch: sampleBatch(1) })).kind, 'answered');
  assert.match(flood.reports[0] ?? '', /\(HTTP 429\); trying again in 1 s/);
  const full = asker({ PUT: [{ status: 429, body: { error: 'ann has 20 asks waiting' } }] });
  assert.deepEqual(await full.ask({ batch: sampleBatch(1) }), {
    kind: 'refused',
    reason:
      'The relay at https://relay.example:8443 refused the ask (HTTP 429): ann has 20 asks waiting',
  });
});

test('a token revoked mid-wait: the ask is withdrawn, and the refusal said', async () => {
  const { ask, sent } = asker({
    PUT: [PUT_OK],
    GET: [{ status: 403, body: { error: 'The token of ann was revoked' } }],
    DELETE: [{ status: 403, body: { error: 'The token of ann was revoked' } }],
  });
  const outcome = await ask({ batch: sampleBatch(1) });
  assert.equal(outcome.kind, 'refused');
  assert.match(
    outcome.kind === 'refused' ? outcome.reason : '',
    /HTTP 403\): The token of ann was revoked/,
  );
  assert.deepEqual(
    sent.map((s) => s.method),
    ['PUT', 'GET', 'DELETE'],
  );
});

test('the timeout withdraws it; an answer the DELETE finds still counts', async () => {
  const late = asker({
    PUT: [PUT_OK],
    GET: ['hold'],
    DELETE: [{ status: 200, body: ANSWER }],
  });
  assert.equal((await late.ask({ batch: sampleBatch(1), timeoutMs: 50 })).kind, 'answered');
  const none = asker({
    PUT: [PUT_OK],
    GET: ['hold'],
    DELETE: [{ status: 200, body: { state: 'withdrawn', why: 'withdrawn by its asker' } }],
  });
  assert.equal((await none.ask({ batch: sampleBatch(1), timeoutMs: 50 })).kind, 'timed-out');
  const stopped = new AbortController();
  const aborted = asker({
    PUT: [PUT_OK],
    GET: ['hold'],
    DELETE: ['drop'],
  });
  setTimeout(() => stopped.abort('SIGTERM'), 30);
  const outcome = await aborted.ask({ batch: sampleBatch(1), signal: stopped.signal });
  assert.deepEqual(outcome.kind, 'aborted');
  assert.match(
    aborted.reports.at(-1) ?? '',
    /could not withdraw ask .* it withdraws it itself at its deadline/,
  );
});

test('nothing listening there: said at once, with what to check, and nothing retried', async () => {
  const reports: string[] = [];
  const ask = remoteAsker(relay, {
    report: (l) => reports.push(l),
    call: async () => ({ lost: 'ECONNREFUSED' }),
  });
  const outcome = await ask({ batch: sampleBatch(1) });
  assert.deepEqual(outcome, {
    kind: 'refused',
    reason:
      'The relay at https://relay.example:8443 cannot be reached (ECONNREFUSED). Check RELAY_URL (or --relay), that the relay serves RELAY_ASK_PORT there, and the network between.',
  });
  assert.deepEqual(reports, []);
});
