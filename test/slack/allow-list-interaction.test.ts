import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { questionBlockId, submitBlockId } from '../../src/core/slack/ids.js';
import { readGuardedInteraction } from '../../src/slack/allow-list-interaction.js';

const user = { id: 'U0BOB0001', name: 'bob' };

describe('readGuardedInteraction', () => {
  test('a click on a relay control in a thread: user, action, batch key, channel and thread', () => {
    const seen = readGuardedInteraction({
      type: 'block_actions',
      user,
      channel: { id: 'C0RELAY01' },
      container: { type: 'message', channel_id: 'C0RELAY01', message_ts: '2.0' },
      message: { ts: '2.0', thread_ts: '1.0' },
      actions: [{ action_id: 'o7.submit', block_id: submitBlockId('k3y', 'abcd1234') }],
    });
    assert.deepEqual(seen, {
      kind: 'action',
      user: 'U0BOB0001',
      action: 'o7.submit',
      key: 'k3y',
      channel: 'C0RELAY01',
      threadTs: '1.0',
    });
  });

  test('ephemeral notices landing in a thread: a click on a thread parent names no thread', () => {
    // Slack gives a parent with replies thread_ts === ts, in the message and the container
    const seen = readGuardedInteraction({
      type: 'block_actions',
      user,
      channel: { id: 'C0RELAY01' },
      container: {
        type: 'message',
        channel_id: 'C0RELAY01',
        message_ts: '1.0',
        thread_ts: '1.0',
      },
      message: { ts: '1.0', thread_ts: '1.0', reply_count: 2 },
      actions: [{ action_id: 'o7.submit', block_id: submitBlockId('k3y', 'abcd1234') }],
    });
    assert.equal(seen?.kind === 'action' ? seen.threadTs : 'wrong kind', undefined);
  });

  test('a click in a direct message takes the channel from the container', () => {
    const seen = readGuardedInteraction({
      type: 'block_actions',
      user,
      container: { type: 'message', channel_id: 'D0DM00001' },
      actions: [{ action_id: 'o7.hand-off', block_id: 'elsewhere' }],
    });
    assert.equal(seen?.kind, 'action');
    assert.equal(seen?.kind === 'action' ? seen.channel : '', 'D0DM00001');
    assert.equal(seen?.key, undefined, 'a block id that names no batch leaves the key out');
  });

  test('a type-ahead search', () => {
    const seen = readGuardedInteraction({
      type: 'block_suggestion',
      user,
      channel: { id: 'C0RELAY01' },
      action_id: 'o7.choose:2',
      block_id: questionBlockId('k3y', 'abcd1234', 2),
      value: 'cit',
    });
    assert.equal(seen?.kind, 'suggestion');
    assert.equal(seen?.key, 'k3y');
  });

  test('a modal submission: callback id, key from private_metadata, first input block', () => {
    const seen = readGuardedInteraction({
      type: 'view_submission',
      user,
      view: {
        callback_id: 'o7.free-write',
        private_metadata: JSON.stringify({ key: 'k3y', revision: 'abcd1234', questionId: 'q' }),
        blocks: [
          { type: 'section', block_id: 'intro' },
          { type: 'input', block_id: 'o7.free-write.input' },
        ],
        state: { values: {} },
      },
    });
    assert.deepEqual(seen, {
      kind: 'view',
      user: 'U0BOB0001',
      action: 'o7.free-write',
      key: 'k3y',
      inputBlockId: 'o7.free-write.input',
    });
  });

  test('a modal with unreadable metadata still gets checked, without a key', () => {
    const seen = readGuardedInteraction({
      type: 'view_submission',
      user,
      view: { callback_id: 'o7.hand-off', private_metadata: 'not json', blocks: [] },
    });
    assert.equal(seen?.kind, 'view');
    assert.equal(seen?.key, undefined);
  });

  test('everything else passes unchecked: events, other ids, closed modals, junk', () => {
    const others = [
      { type: 'event_callback', event: { type: 'app_home_opened', user: 'U0BOB0001' } },
      { type: 'block_actions', user, actions: [{ action_id: 'someone-else', block_id: 'b' }] },
      { type: 'block_suggestion', user, action_id: 'x.choose', block_id: 'b' },
      { type: 'view_submission', user, view: { callback_id: 'other-app' } },
      { type: 'view_closed', user, view: { callback_id: 'o7.free-write' } },
      { type: 'block_actions', actions: [{ action_id: 'o7.submit' }] },
      null,
      'text',
    ];
    for (const body of others) assert.equal(readGuardedInteraction(body), undefined);
  });
});
