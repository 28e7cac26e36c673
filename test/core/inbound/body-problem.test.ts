import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyProblem } from '../../../src/core/inbound/body-problem.js';
import { MAX_BODY_DEPTH } from '../../../src/core/inbound/nesting-depth.js';
import { ACTION_KINDS, CALLBACK_IDS } from '../../../src/core/slack/controls/ids.js';

const user = { id: 'U0ALICE01', username: 'alice', name: 'alice', team_id: 'T0TEAM001' };

/** A click as Slack sends it, nulls and unused fields included. */
const click = {
  type: 'block_actions',
  user,
  api_app_id: 'A0RELAY01',
  token: 'verification-token',
  team: { id: 'T0TEAM001', domain: 'o7' },
  enterprise: null,
  is_enterprise_install: false,
  container: { type: 'message', message_ts: '1.000100', channel_id: 'C0RELAY01' },
  channel: { id: 'C0RELAY01', name: 'o7-relay' },
  message: { ts: '1.000100', blocks: [] },
  state: { values: { b: { a: { type: 'static_select', selected_option: null } } } },
  actions: [{ type: 'button', action_id: ACTION_KINDS.submit, block_id: 'b', action_ts: '1.2' }],
  response_url: 'https://hooks.slack.com/actions/T/1/x',
  trigger_id: '1.2.abc',
};

/** A value nested `levels` deep: `[[[…]]]`. */
const nested = (levels: number): unknown => {
  let value: unknown = [];
  for (let i = 1; i < levels; i += 1) value = [value];
  return value;
};

describe('bodyProblem', () => {
  it('lets real payloads through: clicks, org-wide installs, views, events, commands, checks', () => {
    const bodies: Record<string, unknown> = {
      click,
      'org-wide install (team null)': { ...click, team: null },
      'view submission': {
        type: 'view_submission',
        user,
        team: null,
        view: { id: 'V1', callback_id: CALLBACK_IDS.freeWrite, state: { values: {} } },
      },
      'view closed': { type: 'view_closed', user, view: { id: 'V1' }, is_cleared: false },
      suggestion: { type: 'block_suggestion', user, team: { id: 'T' }, value: 'r', action_id: 'a' },
      event: {
        type: 'event_callback',
        team_id: 'T0TEAM001',
        event: { type: 'app_home_opened', user: 'U0ALICE01', channel: 'D1', tab: 'home' },
        authorizations: [{ team_id: 'T0TEAM001', enterprise_id: null, is_bot: true }],
      },
      'slash command': { command: '/o7', text: 'status', user_id: 'U0ALICE01', team_id: 'T' },
      'url verification': { type: 'url_verification', challenge: 'abc', token: 'x' },
      'ssl check': { ssl_check: '1', token: 'x' },
      'a type Bolt does not route': { type: 'app_rate_limited', minute_rate_limited: 1 },
      [`nesting ${MAX_BODY_DEPTH} levels`]: {
        type: 'block_actions',
        user,
        actions: [{}],
        x: nested(MAX_BODY_DEPTH - 1),
      },
    };
    for (const [name, body] of Object.entries(bodies)) {
      assert.equal(bodyProblem(body), undefined, name);
    }
  });

  it('refuses bodies that are not objects, naming what was found but never the content', () => {
    assert.equal(bodyProblem(null, 'payload'), 'payload is null; expected a JSON object');
    assert.equal(bodyProblem(null), 'the body is null; expected a JSON object');
    assert.equal(bodyProblem([click]), 'the body is an array; expected a JSON object');
    assert.equal(bodyProblem('xoxb-secret'), 'the body is a string; expected a JSON object');
    assert.equal(bodyProblem(42), 'the body is a number; expected a JSON object');
    assert.equal(bodyProblem(false), 'the body is false; expected a JSON object');
  });

  it('refuses a body that does not say what kind of request it is', () => {
    assert.equal(
      bodyProblem({ token: 'xoxb-secret', user }, 'payload'),
      'payload has no "type" (nor "event" or "command"), so what kind of request it is cannot be told',
    );
    assert.equal(
      bodyProblem({ type: 7 }, 'payload'),
      'payload.type is a number; expected a non-empty string',
    );
    assert.equal(bodyProblem({ type: '' }), 'type is a string; expected a non-empty string');
    assert.equal(
      bodyProblem({ text: 'a' }, 'the form'),
      'the form has no "type" (nor "event" or "command"), so what kind of request it is cannot be told',
    );
    assert.equal(
      bodyProblem({ command: '' }, 'the form'),
      'command is a string; expected a non-empty string',
    );
  });

  it('refuses each field Bolt dereferences when it is missing or of the wrong kind', () => {
    const cases: [unknown, string][] = [
      [{ ...click, user: null }, 'payload.user is null; expected an object'],
      [{ ...click, user: undefined }, 'payload.user is missing; expected an object'],
      [{ ...click, team: 'T1' }, 'payload.team is a string; expected an object or null'],
      [{ ...click, enterprise: [] }, 'payload.enterprise is an array; expected an object or null'],
      [{ ...click, channel: null }, 'payload.channel is null; expected an object'],
      [
        { ...click, actions: null },
        'payload.actions is null; expected a non-empty array of objects',
      ],
      [
        { ...click, actions: [] },
        'payload.actions is an array; expected a non-empty array of objects',
      ],
      [{ ...click, actions: [null] }, 'payload.actions[0] is null; expected an object'],
      // Bolt routes these by the field: without it, nothing answers them (a 404 after 3 s)
      [
        { ...click, actions: undefined },
        'payload.actions is missing; expected a non-empty array of objects',
      ],
      [{ type: 'event_callback', team_id: 'T' }, 'payload.event is missing; expected an object'],
      [{ type: 'view_submission', user }, 'payload.view is missing; expected an object'],
      [{ type: 'view_closed', user, view: 'V1' }, 'payload.view is a string; expected an object'],
      [{ actions: [{}], user: 1 }, 'payload.user is a number; expected an object'],
      [{ type: 'event_callback', event: null }, 'payload.event is null; expected an object'],
      [
        { type: 'event_callback', event: {} },
        'payload.event.type is missing; expected a non-empty string',
      ],
      [
        { event: { type: 'message', channel: null } },
        'payload.event.channel is null; expected a string or an object',
      ],
      [
        { event: { type: 'reaction_added', item: 'x' } },
        'payload.event.item is a string; expected an object',
      ],
      [
        { event: { type: 'x' }, authorizations: [null] },
        'payload.authorizations[0] is null; expected an object',
      ],
      [{ command: '' }, 'payload.command is a string; expected a non-empty string'],
      [{ command: ['/a', '/b'] }, 'payload.command is an array; expected a non-empty string'],
      [{ type: 'url_verification' }, 'payload.challenge is missing; expected a non-empty string'],
      [
        { type: 'url_verification', challenge: { a: 1 } },
        'payload.challenge is an object; expected a non-empty string',
      ],
    ];
    for (const [body, expected] of cases) {
      assert.equal(bodyProblem(body, 'payload'), expected);
    }
  });

  it('refuses nesting deeper than Slack ever sends, without overflowing the stack itself', () => {
    const deep = { type: 'block_actions', user, actions: [{}], x: nested(MAX_BODY_DEPTH) };
    assert.equal(
      bodyProblem(deep),
      `the body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep; Slack's payloads nest far less`,
    );
    assert.match(
      String(bodyProblem({ type: 'x', x: nested(1_000_000) })),
      /nests objects and arrays/,
    );
  });
});
