import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SLACK_ERROR_KINDS, slackErrorKind } from '../../../src/core/slack/slack-error-kinds.js';

// What retrying can fix, and what it never fixes, with whom each permanent one concerns.
const EXPECTED: Record<string, string> = {
  ratelimited: 'transient',
  rate_limited: 'transient',
  team_added_to_org: 'transient',
  service_unavailable: 'transient',
  fatal_error: 'transient',
  internal_error: 'transient',
  request_timeout: 'transient',
  invalid_blocks: 'content',
  msg_blocks_too_long: 'content',
  msg_too_long: 'content',
  invalid_attachments: 'content',
  view_too_large: 'content',
  is_archived: 'channel',
  is_inactive: 'channel',
  channel_not_found: 'channel',
  not_in_channel: 'channel',
  restricted_action: 'channel',
  restricted_action_read_only_channel: 'channel',
  restricted_action_non_threadable_channel: 'channel',
  message_limit_exceeded: 'channel',
  message_not_found: 'message',
  cant_update_message: 'message',
  edit_window_closed: 'message',
  invalid_auth: 'app',
  not_authed: 'app',
  token_expired: 'app',
  no_permission: 'app',
  account_inactive: 'app',
  token_revoked: 'app',
  missing_scope: 'app',
  not_allowed_token_type: 'app',
  user_not_found: 'person',
  user_disabled: 'person',
  user_not_visible: 'person',
  cannot_dm_bot: 'person',
};

// What the relay tries before it takes the refusal as final: a message that may be too big is
// laid out smaller, one that is gone or frozen is posted anew; every other code has nothing.
const REMEDIES: Record<string, string> = {
  msg_blocks_too_long: 'split-smaller',
  invalid_blocks: 'split-smaller',
  message_not_found: 'post-anew',
  cant_update_message: 'post-anew',
  edit_window_closed: 'post-anew',
};

describe('Slack error kinds', () => {
  for (const [code, scope] of Object.entries(EXPECTED)) {
    const remedy = REMEDIES[code];
    it(`${code} is ${scope}${remedy ? `, first ${remedy}` : ''}`, () => {
      const kind = slackErrorKind(code);
      assert.equal(kind.scope, scope);
      assert.equal(kind.remedy, remedy);
      assert.equal(kind.known, true);
      assert.ok(kind.fix.length > 10, 'says what to do');
    });
  }

  it('every code in the table is tested here', () => {
    assert.deepEqual(Object.keys(SLACK_ERROR_KINDS).sort(), Object.keys(EXPECTED).sort());
  });

  it('an unknown code, or one named like a property of plain objects, is retried', () => {
    for (const code of ['something_new', 'constructor', '__proto__', 'toString', '']) {
      assert.deepEqual(slackErrorKind(code).scope, 'transient', code);
      assert.equal(slackErrorKind(code).known, false, code);
      assert.equal(slackErrorKind(code).remedy, undefined, code);
    }
  });
});
