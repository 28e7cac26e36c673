import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ACTION_KINDS,
  actionId,
  CALLBACK_IDS,
  FREE_WRITE_INPUT,
  questionBlockId,
  submitBlockId,
} from '../../../src/core/slack/controls/ids.js';
import {
  decodeInteraction,
  type Interaction,
} from '../../../src/slack/transport/interaction-payload.js';

const user = { id: 'U0BOB0001', name: 'bob', username: 'bob', team_id: 'T0FAKE0001' };
const button = { type: 'button', action_ts: '1.2' };

/** The decoded interaction, failing the test when the payload was not taken as ours and whole. */
function ours(body: unknown): Interaction {
  const decoded = decodeInteraction(body);
  assert.equal(decoded.kind, 'ours', JSON.stringify(decoded));
  return (decoded as { interaction: Interaction }).interaction;
}

describe('decodeInteraction', () => {
  test('a click on a relay control in a thread: user, action, batch key, channel and thread', () => {
    const seen = ours({
      type: 'block_actions',
      user,
      channel: { id: 'C0RELAY01', name: 'o7-relay' },
      container: { type: 'message', channel_id: 'C0RELAY01', message_ts: '2.0' },
      message: { ts: '2.0', thread_ts: '1.0', blocks: [] },
      actions: [
        { ...button, action_id: ACTION_KINDS.submit, block_id: submitBlockId('k3y', 'abcd1234') },
      ],
      state: { values: { b: { a: { type: 'static_select', selected_option: null } } } },
      enterprise: null,
      is_enterprise_install: false,
    });
    assert.deepEqual(seen, {
      kind: 'action',
      user: 'U0BOB0001',
      action: ACTION_KINDS.submit,
      key: 'k3y',
      channel: 'C0RELAY01',
      threadTs: '1.0',
      source: { kind: 'message', channel: 'C0RELAY01', ts: '2.0' },
    });
  });

  test('where a click came from: a message, a form, or nothing the payload agrees on', () => {
    const click = (fields: Record<string, unknown>) => {
      const seen = ours({
        type: 'block_actions',
        user,
        actions: [
          { ...button, action_id: ACTION_KINDS.submit, block_id: submitBlockId('k3y', 'ab') },
        ],
        ...fields,
      });
      return seen.kind === 'view' ? undefined : seen.source;
    };
    const container = { type: 'message', channel_id: 'C0RELAY01', message_ts: '2.0' };
    assert.deepEqual(click({ container }), { kind: 'message', channel: 'C0RELAY01', ts: '2.0' });
    assert.deepEqual(click({ channel: { id: 'C0RELAY01' }, message: { ts: '2.0' } }), {
      kind: 'message',
      channel: 'C0RELAY01',
      ts: '2.0',
    });
    // a channel or ts that another part of the payload contradicts names no message
    assert.deepEqual(click({ container, channel: { id: 'C0OTHER01' } }), { kind: 'none' });
    assert.deepEqual(click({ container, message: { ts: '3.0' } }), { kind: 'none' });
    assert.deepEqual(click({ container: { type: 'message', channel_id: 'C0RELAY01' } }), {
      kind: 'none',
    });
    assert.deepEqual(
      click({
        container: { type: 'view', view_id: 'V1' },
        view: { id: 'V1', private_metadata: 'sealed' },
      }),
      { kind: 'view', metadata: 'sealed' },
    );
  });

  test('a click on a thread parent names no thread (Slack gives it thread_ts === ts)', () => {
    const seen = ours({
      type: 'block_actions',
      user,
      channel: { id: 'C0RELAY01' },
      container: { type: 'message', channel_id: 'C0RELAY01', message_ts: '1.0', thread_ts: '1.0' },
      message: { ts: '1.0', thread_ts: '1.0', reply_count: 2 },
      actions: [
        { ...button, action_id: ACTION_KINDS.submit, block_id: submitBlockId('k3y', 'abcd1234') },
      ],
    });
    assert.equal(seen.kind === 'action' ? seen.threadTs : 'wrong kind', undefined);
  });

  test('a click in a direct message takes the channel from the container', () => {
    const seen = ours({
      type: 'block_actions',
      user,
      container: { type: 'message', channel_id: 'D0DM00001' },
      actions: [{ ...button, action_id: ACTION_KINDS.handOff, block_id: 'elsewhere' }],
    });
    assert.equal(seen.kind === 'action' ? seen.channel : '', 'D0DM00001');
    assert.equal(seen.kind === 'action' ? seen.key : '', undefined);
  });

  test('a type-ahead search', () => {
    const seen = ours({
      type: 'block_suggestion',
      user,
      channel: { id: 'C0RELAY01' },
      action_id: actionId(ACTION_KINDS.choose, 2),
      block_id: questionBlockId('k3y', 'abcd1234', 2),
      value: 'cit',
    });
    assert.equal(seen.kind, 'suggestion');
    assert.equal(seen.kind === 'suggestion' ? seen.key : '', 'k3y');
  });

  test('a modal submission: callback id and first input block', () => {
    const seen = ours({
      type: 'view_submission',
      user,
      view: {
        id: 'V0123',
        hash: '1.x',
        callback_id: CALLBACK_IDS.freeWrite,
        private_metadata: `${'m'.repeat(22)}.{"key":"k3y","revision":"abcd1234"}`,
        blocks: [
          { type: 'section', block_id: 'intro' },
          { type: 'input', block_id: FREE_WRITE_INPUT.blockId },
        ],
        state: {
          values: { [FREE_WRITE_INPUT.blockId]: { v: { type: 'plain_text_input', value: null } } },
        },
      },
    });
    assert.deepEqual(seen, {
      kind: 'view',
      user: 'U0BOB0001',
      action: CALLBACK_IDS.freeWrite,
      key: 'k3y',
      inputBlockId: FREE_WRITE_INPUT.blockId,
    });
  });

  test('forged or broken payloads about relay controls are refused, saying where, never the value', () => {
    const click = (over: Record<string, unknown>) => ({
      type: 'block_actions',
      user,
      actions: [{ ...button, action_id: ACTION_KINDS.submit, block_id: 'b' }],
      ...over,
    });
    const cases: [unknown, RegExp][] = [
      [click({ user: { id: '' } }), /^user\.id: must be a Slack member ID$/],
      [click({ user: { id: 'U0BOB0001<!here>' } }), /^user\.id: /],
      [click({ user: null }), /^user: /],
      [
        click({ actions: [{ action_id: ACTION_KINDS.submit, block_id: 7, type: 'button' }] }),
        /^actions\.0\.block_id: /,
      ],
      [
        click({
          actions: [{ action_id: ACTION_KINDS.submit, block_id: 'x'.repeat(300), type: 'button' }],
        }),
        /^actions\.0\.block_id: /,
      ],
      [
        click({ state: { values: { b: { a: { selected_option: 'x' } } } } }),
        /^state\.values\.b\.a\.selected_option: /,
      ],
      [
        {
          type: 'view_submission',
          user: { id: 'W' },
          view: {
            id: 'V1',
            callback_id: CALLBACK_IDS.freeWrite,
            private_metadata: '',
            state: { values: {} },
          },
        },
        /^user\.id: /,
      ],
      [
        {
          type: 'view_submission',
          user,
          view: { id: 'V1', callback_id: CALLBACK_IDS.freeWrite, state: { values: {} } },
        },
        /^view\.private_metadata: /,
      ],
    ];
    for (const [body, problem] of cases) {
      const decoded = decodeInteraction(body);
      assert.equal(decoded.kind, 'malformed', JSON.stringify(body));
      assert.match(decoded.kind === 'malformed' ? decoded.problem : '', problem);
      assert.ok(!JSON.stringify(decoded).includes('<!here>'), 'the value is not quoted');
    }
  });

  test('everything else passes: events, other ids, closed modals, junk', () => {
    const others = [
      { type: 'event_callback', event: { type: 'app_home_opened', user: 'U0BOB0001' } },
      { type: 'block_actions', user, actions: [{ action_id: 'someone-else', block_id: 'b' }] },
      { type: 'block_suggestion', user, action_id: 'x.choose', block_id: 'b' },
      { type: 'view_submission', user, view: { callback_id: 'other-app' } },
      { type: 'view_closed', user, view: { callback_id: CALLBACK_IDS.freeWrite } },
      null,
      'text',
    ];
    for (const body of others) assert.equal(decodeInteraction(body).kind, 'not-ours');
  });
});
