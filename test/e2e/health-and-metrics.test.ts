// RELAY_METRICS_PORT end to end: /metrics read by a Prometheus text-format parser after a
// batch is posted and answered through the real relay, /healthz following the Socket Mode
// connection, and the operator's log lines for each batch.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { captureLog, type LogRecord } from '../support/log-capture.js';
import {
  family,
  getHealth,
  histogramOf,
  type Scrape,
  sampleValue,
  scrapeMetrics,
} from '../support/ops-endpoints.js';
import { ALICE, allConnected, freePort, type Harness } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import {
  answerFile,
  assertSlackHealthy,
  E2E_MODE,
  GO,
  postBatch,
  pressSubmit,
  pressYesNo,
  relayStarter,
  waitForAnswered,
  writeAnswerFileAsOtherTool,
} from './relay-steps.js';

/** Two questions (one alone would be answered by a single tap, without Submit). */
const BATCH = {
  seq: 1,
  questions: [GO, { id: 'tests', type: 'yes-no', prompt: 'Run the tests?' }],
};

/** Polls /metrics until `ready` accepts a scrape. */
const scrapeUntil = (port: number, ready: (s: Scrape) => boolean, what: string) =>
  waitFor(async () => {
    const scrape = await scrapeMetrics(port);
    return ready(scrape) ? scrape : undefined;
  }, what);

/** Polls /healthz until it answers `status`. */
const healthUntil = (port: number, status: number, timeoutMs = 10_000) =>
  waitFor(
    async () => {
      const health = await getHealth(port);
      return health.status === status ? health : undefined;
    },
    `/healthz answering ${status}`,
    timeoutMs,
  );

/** A histogram as Prometheus needs it: buckets never go down, and +Inf holds every sample. */
function assertHistogram(scrape: Scrape, name: string, count: number) {
  const { buckets, count: total, sum } = histogramOf(scrape, name);
  assert.equal(total, count, `${name} count`);
  assert.ok(sum > 0, `${name} sum is positive (${sum})`);
  const counts = buckets.map(([, n]) => n);
  assert.ok(
    counts.every((n, i) => i === 0 || n >= (counts[i - 1] as number)),
    `${name} buckets are cumulative: ${counts.join(', ')}`,
  );
  assert.deepEqual(buckets.at(-1), [Number.POSITIVE_INFINITY, count]);
}

const logged = (records: readonly LogRecord[], msg: string, runDir: string) =>
  records.filter((r) => r.msg === msg && r.runDir === runDir);

const mode = E2E_MODE;
describe(`health and metrics (${mode} mode)`, () => {
  let h: Harness | undefined;
  const startRelay = relayStarter();

  test('a batch posted, answered, and another answered elsewhere: counted, timed and logged once each', async () => {
    const { log, records } = captureLog('info');
    const port = await freePort();
    h = await startRelay({ log, config: { metricsPort: port } });
    const ready = records.find((r) => r.msg === 'relay ready');
    assert.equal(ready?.metricsPort, port, '"relay ready" names the metrics port');
    const slack = h.config.slack;
    assert.equal(ready?.httpPort, slack.mode === 'http' ? slack.port : undefined);

    const healthy = await healthUntil(port, 200);
    assert.deepEqual(healthy.body, {
      ok: true,
      slack: { mode, connection: 'connected', apiReachable: true },
      watcher: 'watching',
    });

    // The first post is refused once (internal_error), so the queue tries it again.
    h.slack.failNext('chat.postMessage', { error: 'internal_error' });
    const run = h.runDir('run-metrics');
    const posted = await postBatch(h, 'run-metrics', BATCH);
    const open = await scrapeUntil(
      port,
      (s) => sampleValue(s, 'o7_relay_batches_posted_total') === 1,
      'the batch counted as posted',
    );
    assert.match(open.contentType, /^text\/plain; version=0\.0\.4/);
    assert.equal(family(open, 'o7_relay_open_batches').type, 'GAUGE');
    assert.equal(sampleValue(open, 'o7_relay_open_batches'), 1);
    assert.equal(sampleValue(open, 'o7_relay_watched_runs'), 1);
    assert.equal(sampleValue(open, 'o7_relay_slack_connected'), 1);
    assertHistogram(open, 'o7_relay_post_latency_seconds', 1);
    const postCalls = { method: 'chat.postMessage' };
    assert.equal(family(open, 'o7_relay_slack_api_calls_total').type, 'COUNTER');
    assert.equal(sampleValue(open, 'o7_relay_slack_api_calls_total', postCalls), 2);
    assert.equal(
      sampleValue(open, 'o7_relay_slack_api_errors_total', {
        method: 'chat.postMessage',
        code: 'internal_error',
      }),
      1,
    );
    assert.ok(family(open, 'process_cpu_user_seconds_total'), "Node's process metrics too");

    // The edit after the click is rate-limited once: the client waits Retry-After (1 s).
    h.slack.failNext('chat.update', { status: 429, retryAfter: 1 });
    await pressYesNo(h.slack, posted.ts, 0, true);
    await pressYesNo(h.slack, posted.ts, 1, false);
    await pressSubmit(h.slack, posted.ts);
    assert.equal((await answerFile(run)) !== undefined, true);
    await waitForAnswered(h.slack, posted.ts);
    const answered = await scrapeUntil(
      port,
      (s) => sampleValue(s, 'o7_relay_batches_answered_total') === 1,
      'the batch counted as answered',
    );
    assert.equal(sampleValue(answered, 'o7_relay_open_batches'), 0);
    assertHistogram(answered, 'o7_relay_submit_latency_seconds', 1);
    const updates = { method: 'chat.update' };
    assert.equal(sampleValue(answered, 'o7_relay_slack_rate_limit_waits_total', updates), 1);
    assert.equal(sampleValue(answered, 'o7_relay_slack_rate_limit_wait_seconds_total', updates), 1);
    assert.equal(
      sampleValue(answered, 'o7_relay_slack_api_errors_total', {
        ...updates,
        code: 'ratelimited',
      }),
      1,
    );

    // Another run's batch, answered by another provider (the terminal) first.
    const other = h.runDir('run-terminal');
    await postBatch(h, 'run-terminal', BATCH);
    await writeAnswerFileAsOtherTool(other, 1, {
      seq: 1,
      answers: BATCH.questions.map((q) => ({ ...q, answer: false })),
      questions: BATCH.questions,
    });
    const elsewhere = await scrapeUntil(
      port,
      (s) => sampleValue(s, 'o7_relay_batches_answered_elsewhere_total') === 1,
      'the batch counted as answered elsewhere',
    );
    assert.equal(sampleValue(elsewhere, 'o7_relay_batches_posted_total'), 2);
    assert.equal(sampleValue(elsewhere, 'o7_relay_batches_answered_total'), 1);
    assert.equal(sampleValue(elsewhere, 'o7_relay_open_batches'), 0);
    assert.equal(sampleValue(elsewhere, 'o7_relay_watched_runs'), 2);

    const [postLine, ...morePosts] = logged(records, 'batch posted', run);
    assert.equal(morePosts.length, 0, 'one "batch posted" line, though it took two attempts');
    assert.equal(postLine?.seq, 1);
    assert.equal(typeof postLine?.latencyMs, 'number');
    const [answerLine, ...moreAnswers] = logged(records, 'batch answered', run);
    assert.equal(moreAnswers.length, 0);
    assert.equal(answerLine?.by, ALICE);
    assert.equal(typeof answerLine?.latencyMs, 'number');
    assert.ok(Number(answerLine?.waitedMs) >= Number(answerLine?.latencyMs));
    assert.equal(logged(records, 'batch posted', other).length, 1);
    assert.equal(logged(records, 'batch answered', other).length, 0);
  });

  test('/healthz and /metrics only: other paths are 404, other methods 405', async () => {
    const port = await freePort();
    h = await startRelay({ config: { metricsPort: port } });
    const missing = await fetch(`http://127.0.0.1:${port}/slack/events`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /\/healthz or \/metrics/);
    const posted = await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' });
    assert.equal(posted.status, 405);
    assert.equal(posted.headers.get('allow'), 'GET, HEAD');
    await posted.text();
    assertSlackHealthy(h);
  });
});

describe('health while Socket Mode is down', () => {
  let h: Harness | undefined;
  const startRelay = relayStarter();

  /**
   * A healthy relay in Socket Mode with a metrics port, both connections up (one still opening
   * would come up after a drop), and Slack refusing new connections until `allow()`.
   * `refusedReconnection` waits until the relay asked for one and was refused.
   */
  async function refusingReconnections(code = 'internal_error') {
    const { log, records } = captureLog('info');
    const port = await freePort();
    const started = await startRelay({ mode: 'socket', log, config: { metricsPort: port } });
    h = started; // stopped after the test, whatever happens next
    await healthUntil(port, 200);
    const held = await allConnected(started.slack);
    const opens = () => started.slack.calls.filter((c) => c.method === 'apps.connections.open');
    const before = opens().length;
    const allow = started.slack.refuse('apps.connections.open', code);
    const refusedReconnection = () =>
      waitFor(
        () =>
          opens()
            .slice(before)
            .some((c) => c.response.ok === false),
        'a refused reconnection',
      );
    return { started, port, held, records, allow, refusedReconnection };
  }

  test('/healthz stays 200 while one of the two connections is away: clicks still reach the relay', async () => {
    const { started, port, held, records, allow, refusedReconnection } =
      await refusingReconnections();
    h = started;
    await h.slack.dropConnection({ how: 'cut' });
    // the relay noticed: it asks for a new connection (after its own pause) and is refused
    await refusedReconnection();
    const health = await getHealth(port);
    assert.equal(health.status, 200);
    assert.equal((health.body.slack as { connection: string }).connection, 'connected');
    assert.equal(sampleValue(await scrapeMetrics(port), 'o7_relay_slack_connected'), 1);
    assert.equal(h.slack.connectionCount, held - 1);

    // Slack hands every click to the connection left, and the relay answers through it.
    const clicksFrom = h.slack.deliveries.length;
    const run = h.runDir('run-one-away');
    const posted = await postBatch(h, 'run-one-away', BATCH);
    await pressYesNo(h.slack, posted.ts, 0, true);
    await pressYesNo(h.slack, posted.ts, 1, false);
    await pressSubmit(h.slack, posted.ts);
    const answered = await answerFile(run);
    assert.deepEqual(
      (answered.answers as { id: string; answer: unknown }[]).map((a) => [a.id, a.answer]),
      [
        ['go', true],
        ['tests', false],
      ],
    );
    await waitForAnswered(h.slack, posted.ts);
    const clicks = h.slack.deliveries.slice(clicksFrom);
    assert.equal(clicks.length, 3);
    assert.ok(
      clicks.every((d) => d.openConnections === held - 1),
      'every click met one connection open',
    );
    assert.deepEqual(h.slack.failures, [], 'every click was acknowledged');

    allow();
    await allConnected(h.slack);
    assert.deepEqual(
      records.filter((r) => /Socket Mode connection to Slack/.test(r.msg)).map((r) => r.msg),
      [],
      'one connection away is no outage',
    );
  });

  test('a reconnection refused for good (a revoked app token) says what to do, once per connection, and /healthz says refused, not reconnecting', async () => {
    const { started, port, records, refusedReconnection } =
      await refusingReconnections('invalid_auth');
    h = started;
    await h.slack.disconnectAll('refresh_requested');
    await refusedReconnection();
    const refused = await waitFor(async () => {
      const health = await getHealth(port);
      const { connection } = health.body.slack as { connection: string };
      return connection === 'refused' && health;
    }, 'the connections marked refused');
    assert.equal(refused.status, 503);
    assert.match(String(refused.body.reason), /refused a new Socket Mode connection.*restarted/);
    const gaveUp = () => records.filter((r) => /client gave up/.test(r.msg));
    await waitFor(() => gaveUp().length === 2, 'a line for each connection');
    for (const line of gaveUp()) {
      assert.equal(line.level, 50);
      assert.equal(line.code, 'invalid_auth');
      assert.match(line.msg, /SLACK_APP_TOKEN is wrong or was revoked.*restart the relay/);
    }
    assert.deepEqual(
      records.filter((r) => /unhandled|uncaught/.test(r.msg)).map((r) => r.msg),
      [],
      'no safety-net line: the relay caught it',
    );
    // everything else goes on: the bot token still posts the next batch
    assert.ok((await postBatch(started, 'run-after-refusal', BATCH)).ts);
  });

  test('/healthz answers 503 while the stand-in refuses to reconnect, and 200 once it lets the relay back', async () => {
    const { started, port, held, records, allow, refusedReconnection } =
      await refusingReconnections();
    h = started;
    await h.slack.disconnectAll('refresh_requested');
    const down = await healthUntil(port, 503);
    assert.match(String(down.body.reason), /Socket Mode connection to Slack is \w+/);
    assert.equal(down.body.ok, false);
    assert.equal(down.body.watcher, 'watching');

    // The client asks for a new connection (after its own pause) and is refused: still down.
    await refusedReconnection();
    assert.equal((await getHealth(port)).status, 503);
    assert.equal(sampleValue(await scrapeMetrics(port), 'o7_relay_slack_connected'), 0);

    allow();
    const back = await healthUntil(port, 200, 60_000);
    assert.equal((back.body.slack as { connection: string }).connection, 'connected');
    await allConnected(h.slack);
    assert.equal(h.slack.connectionCount, held);
    assert.equal(sampleValue(await scrapeMetrics(port), 'o7_relay_slack_connected'), 1);

    const lines = (msg: string) => records.filter((r) => r.msg === msg);
    assert.equal(lines('the Socket Mode connection to Slack closed; reconnecting').length, 1);
    assert.equal(lines('the Socket Mode connection to Slack is back').length, 1);
    // Slack saying internal_error is Slack in trouble: one warning for that outage, and none
    // for each refused reconnection, which is the client retrying
    assert.deepEqual(
      records.filter((r) => r.level >= 40).map((r) => [r.msg, r.problem]),
      [
        [
          'Slack cannot be reached; the relay keeps trying and logs once it is back',
          'internal_error',
        ],
      ],
    );
    await h.stop();
    h = undefined;
    assert.equal(
      lines('the Socket Mode connection to Slack closed; reconnecting').length,
      1,
      'the relay closing its own connection at stop is no outage',
    );
  });
});
