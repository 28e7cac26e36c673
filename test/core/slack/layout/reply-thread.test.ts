import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replyThreadTs } from '../../../../src/core/slack/layout/reply-thread.js';

test('ephemeral notices landing in a thread: a thread parent (thread_ts === ts) is not a reply', () => {
  assert.equal(replyThreadTs({ ts: '1.000100', thread_ts: '1.000100' }), undefined);
});

test('a reply names its parent, and a plain message no thread', () => {
  assert.equal(replyThreadTs({ ts: '1.000200', thread_ts: '1.000100' }), '1.000100');
  assert.equal(replyThreadTs({ ts: '1.000100' }), undefined);
  assert.equal(replyThreadTs({ ts: '1.000100', thread_ts: '' }), undefined);
  assert.equal(replyThreadTs(undefined), undefined);
});
