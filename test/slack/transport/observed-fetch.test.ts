import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  observedFetch,
  retryAfterSec,
  type WebApiOutcome,
  webApiErrorCode,
  webApiMethodOf,
} from '../../../src/slack/transport/observed-fetch.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack/index.js';
import { webClientFor } from '../../support/fake-slack/slack-clients.js';
import { CHANNEL, freePort } from '../../support/relay-harness.js';

describe('webApiMethodOf', () => {
  const api = 'http://127.0.0.1:9/api/';
  test('the method of a Web API URL; nothing for other URLs or odd names', () => {
    assert.equal(webApiMethodOf(`${api}chat.postMessage`, api), 'chat.postMessage');
    assert.equal(webApiMethodOf(`${api}apps.connections.open?x=1`, api), 'apps.connections.open');
    assert.equal(webApiMethodOf('http://127.0.0.1:9/upload/F1', api), undefined);
    assert.equal(webApiMethodOf(`${api}../../etc`, api), undefined);
    assert.equal(webApiMethodOf(`${api}chat`, api), undefined);
  });
});

describe('retryAfterSec and webApiErrorCode', () => {
  test('Retry-After read as the Web API client reads it', () => {
    assert.equal(retryAfterSec('3'), 3);
    assert.equal(retryAfterSec(null), undefined);
    assert.equal(retryAfterSec('soon'), undefined);
  });
  test('one code per kind of failure, none for a success', () => {
    const method = 'chat.update';
    assert.equal(webApiErrorCode({ method, kind: 'ok' }), undefined);
    assert.equal(
      webApiErrorCode({ method, kind: 'refused', code: 'not_in_channel' }),
      'not_in_channel',
    );
    assert.equal(
      webApiErrorCode({ method, kind: 'rate-limited', retryAfterSec: 1 }),
      'ratelimited',
    );
    assert.equal(webApiErrorCode({ method, kind: 'http-error', status: 502 }), 'http_502');
    assert.equal(webApiErrorCode({ method, kind: 'network', message: 'x' }), 'network_error');
  });
});

describe('observedFetch under a real WebClient, against the stand-in', () => {
  let slack: FakeSlack;
  let outcomes: WebApiOutcome[];
  before(async () => {
    slack = await startFakeSlack();
  });
  after(() => slack.close());

  const client = (retries = 0) => {
    outcomes = [];
    return webClientFor(slack, {
      fetch: observedFetch(slack.apiUrl, (o) => outcomes.push(o)),
      retryConfig: { retries, factor: 1, minTimeout: 10, maxTimeout: 10 },
    });
  };

  test('a success is reported, and the SDK gets Slack’s answer unchanged', async () => {
    const web = client();
    const res = await web.chat.postMessage({ channel: CHANNEL, text: 'hello' });
    assert.equal(res.ok, true);
    assert.equal(typeof res.ts, 'string');
    assert.deepEqual(outcomes, [{ method: 'chat.postMessage', kind: 'ok' }]);
  });

  test('a refusal with its code, and the SDK still throws it', async () => {
    const web = client();
    const lift = slack.refuse('chat.postMessage', 'not_in_channel');
    try {
      await assert.rejects(web.chat.postMessage({ channel: CHANNEL, text: 'x' }), /not_in_channel/);
    } finally {
      lift();
    }
    assert.deepEqual(outcomes, [
      { method: 'chat.postMessage', kind: 'refused', code: 'not_in_channel' },
    ]);
  });

  test('a 429 with Retry-After, then the retry that goes through: each request reported', async () => {
    const web = client(1);
    slack.failNext('chat.update', { status: 429, retryAfter: 1 });
    const { ts } = await web.chat.postMessage({ channel: CHANNEL, text: 'a' });
    outcomes.length = 0;
    await web.chat.update({ channel: CHANNEL, ts: String(ts), text: 'b' });
    assert.deepEqual(outcomes, [
      { method: 'chat.update', kind: 'rate-limited', retryAfterSec: 1 },
      { method: 'chat.update', kind: 'ok' },
    ]);
  });

  test('an HTTP error, and no answer at all', async () => {
    const web = client();
    slack.failNext('conversations.info', { status: 503 });
    await assert.rejects(web.conversations.info({ channel: CHANNEL }));
    assert.deepEqual(outcomes, [{ method: 'conversations.info', kind: 'http-error', status: 503 }]);

    const closed = `http://127.0.0.1:${await freePort()}/api/`;
    const seen: WebApiOutcome[] = [];
    const unreachable = webClientFor(slack, {
      slackApiUrl: closed,
      fetch: observedFetch(closed, (o) => seen.push(o)),
      retryConfig: { retries: 0 },
    });
    await assert.rejects(unreachable.auth.test());
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.method, 'auth.test');
    assert.equal(seen[0]?.kind, 'network');
  });

  test('a URL outside the Web API is fetched but not reported; a report that throws breaks nothing', async () => {
    let reported = 0;
    const fetchIt = observedFetch(slack.apiUrl, () => {
      reported += 1;
      throw new Error('a broken counter');
    });
    const other = await fetchIt(slack.apiUrl.replace(/api\/$/, 'nowhere'));
    await other.text();
    assert.equal(reported, 0);
    const res = await fetchIt(`${slack.apiUrl}auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slack.botToken}` },
    });
    assert.equal(((await res.json()) as { ok: boolean }).ok, true);
    assert.equal(reported, 1);
  });
});
