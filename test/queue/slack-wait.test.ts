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

function setup() {
  const news = availability();
  const scheduled: string[] = [];
  const busy = new Set<string>();
  const wait = createSlackWait({
    slack: news.slack,
    schedule: (runDir) => scheduled.push(runDir),
    busy: (runDir) => busy.has(runDir),
    working: () => busy.size > 0,
  });
  return { news, scheduled, busy, wait };
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
    });
    assert.equal(alone.hold('a'), false);
  });

  test('the probe answering tries the longest-waiting run, one at a time', () => {
    const { news, scheduled, busy, wait } = setup();
    for (const run of ['a', 'b', 'c']) wait.hold(run);
    assert.equal(news.answering(), true);
    assert.deepEqual(scheduled, ['a']);
    busy.add('a');
    assert.equal(news.answering(), true, 'one is being tried');
    assert.deepEqual(scheduled, ['a'], 'no second run while the first is tried');
    // Slack answered the probe but still fails posts: the run keeps its place, first
    busy.delete('a');
    wait.hold('a');
    news.answering();
    assert.deepEqual(scheduled, ['a', 'a']);
    // the tried run had nothing to show after all: the next one is tried
    news.answering();
    assert.deepEqual(scheduled, ['a', 'a', 'b']);
  });

  test('Slack back: every waiting run is synced once, in the order they began to wait', () => {
    const { news, scheduled, wait } = setup();
    for (const run of ['a', 'b', 'c', 'b']) wait.hold(run);
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
