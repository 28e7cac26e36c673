// What reaches the ask API (RELAY_ASK_PORT) from anyone on the network, sent raw: missing,
// wrong and revoked tokens, floods, bodies that do not fit, other holders' ids, a tokens file
// edited or broken while the relay runs. Each gets its status and a sentence, changes nothing,
// and the relay keeps serving; nothing of a token reaches the log.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { newAskId } from '../../src/ask/ask-folder.js';
import { relayStarter } from '../e2e/relay-steps.js';
import { captureLog } from '../support/log-capture.js';
import { CHANNEL, freePort, visibleText } from '../support/relay-harness.js';
import { sampleBatch } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const ANN = `ann-${randomBytes(20).toString('hex')}`;
const BOB = `bob-${randomBytes(20).toString('hex')}`;
const tokensText = (annMark = '') => `ann-laptop ${ANN} ${annMark}\nbob-ci ${BOB}\n`;

const newId = () => newAskId(new Date(), randomBytes(16).toString('hex'));

describe('the ask API, sent raw by whoever reaches it', () => {
  const startRelay = relayStarter();

  async function start() {
    const capture = captureLog('info');
    const port = await freePort();
    let tokensFile = '';
    const h = await startRelay({
      log: capture.log,
      prepare: async (_slack, root) => {
        tokensFile = path.join(root, 'ask-tokens');
        await writeFile(tokensFile, tokensText());
        return { askServer: { port, tokensFile, maxOpen: 2 } };
      },
    });
    const base = `http://127.0.0.1:${port}/v1`;
    const send = async (
      method: string,
      where: string,
      opts: { token?: string | undefined; body?: string; type?: string } = {},
    ) => {
      const token = 'token' in opts ? opts.token : ANN;
      const res = await fetch(`${base}${where}`, {
        method,
        headers: {
          ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
          ...(opts.body !== undefined ? { 'content-type': opts.type ?? 'application/json' } : {}),
        },
        ...(opts.body !== undefined ? { body: opts.body } : {}),
      });
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as Record<string, unknown>,
      };
    };
    const put = (id: string, batch: object, token?: string, extra: object = {}) =>
      send('PUT', `/asks/${id}`, {
        token: token ?? ANN,
        body: JSON.stringify({ batch, ...extra }),
      });
    const posted = () => h.slack.messages(CHANNEL).length;
    return { h, capture, send, put, posted, tokensFile };
  }

  test('no token, a wrong one, a revoked one: 401 and 403 with what to do; nothing asked', async () => {
    const { send, put, posted, tokensFile, capture } = await start();
    const none = await send('GET', `/asks/${newId()}`, { token: undefined });
    assert.equal(none.status, 401);
    assert.match(String(none.body.error), /^No bearer token: send "Authorization: Bearer <token>"/);
    const wrong = await put(newId(), sampleBatch(1), 'x'.repeat(40));
    assert.equal(wrong.status, 401);
    assert.match(String(wrong.body.error), /The token is not one this relay knows/);
    // revoked while the relay runs: the next request already knows
    await writeFile(tokensFile, tokensText('revoked'));
    const revoked = await put(newId(), sampleBatch(1));
    assert.equal(revoked.status, 403);
    assert.equal(
      revoked.body.error,
      "The token of ann-laptop was revoked; ask the relay's operator for a new one",
    );
    assert.equal(
      (await put(newId(), sampleBatch(1), BOB)).status,
      201,
      'the other token still asks',
    );
    await waitFor(() => posted() === 1 || undefined, "bob-ci's batch posted");
    const logged = JSON.stringify(capture.records);
    assert.ok(!logged.includes(ANN) && !logged.includes(BOB) && !logged.includes('x'.repeat(40)));
  });

  test('a tokens file broken by an edit lets nobody in (503, told in the log) until it is fixed', async () => {
    const { put, tokensFile, capture } = await start();
    await writeFile(tokensFile, `ann-laptop ${ANN}\nbob-ci short\n`);
    const broken = await put(newId(), sampleBatch(1));
    assert.equal(broken.status, 503);
    const told = capture.records.find((r) =>
      r.msg.startsWith('the ask tokens file cannot be used'),
    );
    assert.match(
      String(told?.problem),
      /line 2: the token \(the second word\) must be at least 32 characters/,
    );
    await writeFile(tokensFile, tokensText());
    assert.equal((await put(newId(), sampleBatch(1))).status, 201);
  });

  test('bodies that do not fit are refused by status, and none reaches Slack', async () => {
    const { send, put, posted, h } = await start();
    const id = newId();
    const cases: [
      string,
      Promise<{ status: number; body: Record<string, unknown> }>,
      number,
      RegExp,
    ][] = [
      [
        'not JSON',
        send('PUT', `/asks/${id}`, { body: '{"batch":' }),
        400,
        /^The body is not JSON \(9 bytes\)$/,
      ],
      [
        'a form',
        send('PUT', `/asks/${id}`, { body: 'a=1', type: 'application/x-www-form-urlencoded' }),
        415,
        /application\/json/,
      ],
      [
        'too big',
        send('PUT', `/asks/${id}`, { body: `"${'x'.repeat(5 * 1024 * 1024)}"` }),
        413,
        /The body is over \d+ bytes/,
      ],
      [
        'nested deep',
        send('PUT', `/asks/${id}`, { body: `${'['.repeat(200)}${']'.repeat(200)}` }),
        400,
        /nests more than 64 levels/,
      ],
      [
        'no batch',
        send('PUT', `/asks/${id}`, { body: '{"waitMs":5}' }),
        400,
        /^The body does not fit: batch: /,
      ],
      [
        'a question the protocol refuses',
        put(id, { seq: 1, questions: [{ id: 'q', type: 'pick-any' }] }),
        400,
        /q-out-001\.json/,
      ],
      [
        'a deadline of a year',
        put(id, sampleBatch(1), ANN, { waitMs: 365 * 86_400_000 }),
        400,
        /^The body does not fit: waitMs: /,
      ],
      ['an id that is a path', send('GET', '/asks/..%2F..%2Fetc'), 400, /is not an ask id/],
      ['another path', send('GET', '/admin'), 404, /the ask API is under \/v1\/asks/],
      ['another method', send('POST', `/asks/${id}`, { body: '{}' }), 405, /PUT, GET or DELETE/],
    ];
    for (const [what, reply, status, said] of cases) {
      const { status: got, body } = await reply;
      assert.equal(got, status, `${what}: ${JSON.stringify(body)}`);
      assert.match(String(body.error), said, what);
    }
    assert.equal((await put(id, sampleBatch(1))).status, 201, 'the same id, now whole, is asked');
    await waitFor(() => posted() === 1 || undefined, 'the one batch posted');
    assert.match(
      visibleText(h.slack.messages(CHANNEL)[0] as never),
      /asked by ann-laptop over the ask API/,
    );
  });

  test("a PUT sent again asks once; an id is only its holder's; DELETE withdraws it", async () => {
    const { send, put, posted, h } = await start();
    const id = newId();
    assert.equal((await put(id, sampleBatch(1))).status, 201);
    assert.deepEqual((await put(id, sampleBatch(1))).body, { id, by: 'ann-laptop' });
    assert.equal((await put(id, sampleBatch(1))).status, 200, 'again: the same ask');
    assert.equal((await put(id, sampleBatch(1), BOB)).status, 409, "another holder's id is taken");
    const peek = await send('GET', `/asks/${id}?wait=0`, { token: BOB });
    assert.equal(peek.status, 404, 'and not shown to them');
    assert.deepEqual((await send('GET', `/asks/${id}?wait=0`)).body, { state: 'waiting' });
    await waitFor(() => posted() === 1 || undefined, 'posted once');
    assert.equal((await send('DELETE', `/asks/${id}`, { token: BOB })).status, 404);
    assert.deepEqual((await send('DELETE', `/asks/${id}`)).body, {
      state: 'withdrawn',
      why: 'withdrawn by its asker',
    });
    await waitFor(
      () =>
        /Withdrawn by the agent/.test(visibleText(h.slack.messages(CHANNEL)[0] as never)) ||
        undefined,
      'the message says withdrawn',
    );
    assert.equal(posted(), 1);
  });

  test('floods: past its burst a token gets 429 with Retry-After, past RELAY_ASK_MAX_OPEN too; others are not slowed', async () => {
    const { send, put } = await start();
    assert.equal((await put(newId(), sampleBatch(1))).status, 201);
    assert.equal((await put(newId(), sampleBatch(1))).status, 201);
    const third = await put(newId(), sampleBatch(1));
    assert.equal(third.status, 429);
    assert.match(
      String(third.body.error),
      /^ann-laptop has 2 asks waiting in Slack already \(RELAY_ASK_MAX_OPEN\)/,
    );
    const replies = await Promise.all(
      Array.from({ length: 40 }, () => send('GET', `/asks/${newId()}?wait=0`)),
    );
    const limited = replies.filter((r) => r.status === 429);
    assert.ok(limited.length >= 40 - 30 + 3 - 3, `${limited.length} of 40 refused`);
    assert.ok(limited.every((r) => Number(r.retryAfter) >= 1));
    assert.match(
      String(limited[0]?.body.error),
      /^Too many requests from ann-laptop: at most 30 at once/,
    );
    const bob = await send('GET', `/asks/${newId()}?wait=0`, { token: BOB });
    assert.equal(bob.status, 404, "bob-ci's allowance is his own");
  });

  test('an asker that sets a deadline and goes away: the relay withdraws it at the deadline', async () => {
    const { send, put, h } = await start();
    const id = newId();
    assert.equal((await put(id, sampleBatch(1), ANN, { waitMs: 500 })).status, 201);
    await waitFor(
      () =>
        /Withdrawn by the agent/.test(
          visibleText(h.slack.messages(CHANNEL)[0] ?? ({ text: '', blocks: [] } as never)),
        ) || undefined,
      'withdrawn by the sweep',
    );
    assert.deepEqual((await send('GET', `/asks/${id}?wait=0`)).body, {
      state: 'withdrawn',
      why: 'its deadline passed',
    });
  });
});
