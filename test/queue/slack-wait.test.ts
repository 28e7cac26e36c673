import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SlackAvailability, SlackComeback } from '../../src/ops/slack-reachability.js';
import { createSlackWait } from '../../src/queue/slack-wait.js';

/** Slack's availability as a test sets it, with the news told by hand. */
function availability() {
  let listener: SlackComeback | undefined;
  const slack: { reachable: boolean } & SlackAvailability = {
    reachable: false as boolean,
    follow(l: SlackComeback) {
      listener = l;
      return () => {
        listener = undefined;
      };
    },
  };
  return {
    slack,
    answering: () => listener?.answering() ?? false,
    back: () => listener?.back(),
    following: () => listener !== undefined,
  };
}

/** A wait on a test clock, whose runs back off 1 s doubling, as the scheduler's do. */
function setup() {
  const news = availability();
  const scheduled: string[] = [];
  const busy = new Set<string>();
  const attempts = new Map<string, number>();
  const clock = { ms: 0 };
  const wait = createSlackWait({
    slack: news.slack,
    schedule: (runDir) => scheduled.push(runDir),
    busy: (runDir) => busy.has(runDir),
    working: () => busy.size > 0,
    backOff: (runDir) => {
      const attempt = (attempts.get(runDir) ?? 0) + 1;
      attempts.set(runDir, attempt);
      return 1000 * 2 ** (attempt - 1);
    },
    now: () => clock.ms,
  });
  return { news, scheduled, busy, clock, wait };
}

describe('runs waiting on Slack', () => {
  test('wait only while Slack is down; without availability, never', () => {
    const { news, wait } = setup();
    news.slack.reachable = true;
    assert.equal(wait.hold('a'), false, 'Slack answers: the run backs off on its own');
    news.slack.reachable = false;
    assert.equal(wait.hold('a'), true);
    const alone = createSlackWait({
      schedule: () => undefined,
      busy: () => false,
      working: () => false,
      backOff: () => 1000,
      now: () => 0,
    });
    assert.equal(alone.hold('a'), false);
  });

  test('the probe answering tries the longest-waiting run, one at a time', () => {
    const { news, scheduled, busy, clock, wait } = setup();
    for (const run of ['a', 'b', 'c']) wait.hold(run);
    clock.ms = 60_000; // a long outage: each run's own back-off is long over
    assert.equal(news.answering(), true);
    assert.deepEqual(scheduled, ['a']);
    busy.add('a');
    assert.equal(news.answering(), true, 'one is being tried');
    assert.deepEqual(scheduled, ['a'], 'no second run while the first is tried');
    // the tried run had nothing to show after all: the next one is tried
    busy.delete('a');
    news.answering();
    assert.deepEqual(scheduled, ['a', 'b']);
  });

  test('a run Slack keeps failing (the probe answers, its posts fail) is tried at its own back-off', () => {
    const { news, scheduled, clock, wait } = setup();
    wait.hold('a');
    wait.hold('b');
    clock.ms = 60_000;
    news.answering();
    assert.deepEqual(scheduled, ['a']);
    wait.hold('a'); // second failure: 2 s
    clock.ms += 1000;
    news.answering(); // 'a' keeps its place but waits its turn; 'b' is due
    assert.deepEqual(scheduled, ['a', 'b']);
    wait.hold('b'); // second failure: 2 s
    clock.ms += 500;
    assert.equal(news.answering(), true, 'runs wait: Slack does not count as back');
    assert.deepEqual(scheduled, ['a', 'b'], 'neither is due yet');
    clock.ms += 500;
    news.answering();
    assert.deepEqual(scheduled, ['a', 'b', 'a'], 'the longest-waiting run first, when due');
  });

  test('Slack back: every waiting run is synced once, in the order they began to wait', () => {
    const { news, scheduled, clock, wait } = setup();
    for (const run of ['a', 'b', 'c', 'b']) wait.hold(run);
    clock.ms = 60_000;
    news.answering();
    wait.hold('a');
    news.back();
    assert.deepEqual(scheduled, ['a', 'a', 'b', 'c']);
    assert.equal(wait.size, 0);
    news.back();
    assert.deepEqual(scheduled, ['a', 'a', 'b', 'c'], 'nothing is synced twice for one return');
    assert.equal(news.answering(), false, 'nothing left to try');
  });

  test('nothing waiting, but a sync under way: it will tell, so Slack does not count as back', () => {
    const { news, busy } = setup();
    busy.add('x');
    assert.equal(news.answering(), true);
    busy.delete('x');
    assert.equal(news.answering(), false);
  });

  test('close stops following Slack', () => {
    const { news, wait } = setup();
    assert.equal(news.following(), true);
    wait.close();
    assert.equal(news.following(), false);
  });
});
