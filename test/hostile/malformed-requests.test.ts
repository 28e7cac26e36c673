// Requests Slack would never send, each posted correctly signed to a real relay process in
// HTTP mode: every one is refused with a 4xx and one warning, and the relay still answers the
// next click.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { controlOf } from '../e2e/relay-steps.js';
import { ALICE, CHANNEL } from '../support/relay-harness.js';
import {
  answersNextClick,
  assertSubmitWritesAnswers,
  click,
  deep,
  FIVE_MB,
  picked,
  refusalSince,
  SECRET,
  sessionPerSuite,
  user,
} from './malformed-input-session.js';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const HTTP_REFUSAL = 'refused a request to /slack/events';
const form = (payload: string) => `payload=${encodeURIComponent(payload)}`;

/** One malformed request in HTTP mode and how it must be refused. */
interface HttpCase {
  name: string;
  body: string;
  contentType: string;
  status: number;
  problem: RegExp;
}

const HTTP_CASES: HttpCase[] = [
  // Not an object (Bolt read `body.ssl_check` of these: null ended the process).
  {
    name: 'payload=null',
    body: 'payload=null',
    contentType: FORM,
    status: 400,
    problem: /^payload is null; expected a JSON object$/,
  },
  {
    name: 'a JSON null body',
    body: 'null',
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is null;/,
  },
  {
    name: 'a payload that is an array',
    body: form(JSON.stringify([click({})])),
    contentType: FORM,
    status: 400,
    problem: /^payload is an array;/,
  },
  {
    name: 'a JSON body that is an array',
    body: JSON.stringify([click({})]),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is an array;/,
  },
  {
    name: 'a payload that is a string',
    body: form(JSON.stringify(SECRET)),
    contentType: FORM,
    status: 400,
    problem: /^payload is a string;/,
  },
  {
    name: 'a JSON body that is a number',
    body: '42',
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is a number;/,
  },
  {
    name: 'a JSON body that is true',
    body: 'true',
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is true;/,
  },
  // Not JSON.
  {
    name: 'a payload that is not JSON',
    body: form(`{"token":"${SECRET}",`),
    contentType: FORM,
    status: 400,
    problem: /^payload is not JSON/,
  },
  {
    name: 'a JSON body that is not JSON',
    body: `{"token":"${SECRET}"`,
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is not JSON/,
  },
  {
    name: 'an empty JSON body',
    body: '',
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is not JSON \(0 characters\)$/,
  },
  {
    name: 'payload given twice',
    body: `${form('{}')}&${form('null')}`,
    contentType: FORM,
    status: 400,
    problem: /2 "payload" fields/,
  },
  // No type, or fields Bolt dereferences of the wrong kind.
  {
    name: 'an empty form',
    body: '',
    contentType: FORM,
    status: 400,
    problem: /^the form has no "type"/,
  },
  {
    name: 'a payload without a type',
    body: form(JSON.stringify({ token: SECRET, user })),
    contentType: FORM,
    status: 400,
    problem: /^payload has no "type"/,
  },
  {
    name: 'a type that is a number',
    body: form(JSON.stringify({ type: 7, token: SECRET })),
    contentType: FORM,
    status: 400,
    problem: /^payload\.type is a number;/,
  },
  {
    name: 'a click with user null',
    body: form(JSON.stringify(click({ user: null }))),
    contentType: FORM,
    status: 400,
    problem: /^payload\.user is null; expected an object$/,
  },
  {
    name: 'a click with actions null',
    body: form(JSON.stringify(click({ actions: null }))),
    contentType: FORM,
    status: 400,
    problem: /^payload\.actions is null;/,
  },
  {
    name: 'a click with a null action',
    body: form(JSON.stringify(click({ actions: [null] }))),
    contentType: FORM,
    status: 400,
    problem: /^payload\.actions\[0\] is null;/,
  },
  // Bolt routes these by the missing field: nothing answered them, a 404 after 3 s.
  {
    name: 'a click without actions',
    body: form(JSON.stringify(click({ actions: undefined }))),
    contentType: FORM,
    status: 400,
    problem: /^payload\.actions is missing; expected a non-empty array of objects$/,
  },
  {
    name: 'an event_callback without an event',
    body: JSON.stringify({ type: 'event_callback', token: SECRET, team_id: 'T0' }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^event is missing; expected an object$/,
  },
  {
    name: 'a view submission without a view',
    body: form(JSON.stringify({ type: 'view_submission', user, token: SECRET })),
    contentType: FORM,
    status: 400,
    problem: /^payload\.view is missing;/,
  },
  {
    name: 'an event that is null',
    body: JSON.stringify({ type: 'event_callback', token: SECRET, event: null }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^event is null;/,
  },
  {
    name: 'an event without a type',
    body: JSON.stringify({ type: 'event_callback', token: SECRET, event: {} }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^event\.type is missing;/,
  },
  {
    name: 'an event whose channel is null',
    body: JSON.stringify({
      type: 'event_callback',
      event: { type: 'app_home_opened', user: ALICE, channel: null },
    }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^event\.channel is null;/,
  },
  {
    name: 'a slash command without a command',
    body: 'command=&text=x',
    contentType: FORM,
    status: 400,
    problem: /^command is a string; expected a non-empty string$/,
  },
  // url_verification oddities.
  {
    name: 'url_verification without a challenge',
    body: JSON.stringify({ type: 'url_verification', token: SECRET }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^challenge is missing;/,
  },
  {
    name: 'url_verification with an object challenge',
    body: JSON.stringify({ type: 'url_verification', challenge: { token: SECRET } }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^challenge is an object;/,
  },
  // Content types Slack does not use.
  {
    name: 'text/plain',
    body: form(JSON.stringify(click({}))),
    contentType: 'text/plain',
    status: 415,
    problem: /Content-Type "text\/plain"/,
  },
  {
    name: 'an empty Content-Type',
    body: 'null',
    contentType: '',
    status: 415,
    problem: /Content-Type ""/,
  },
  {
    name: 'a form with a charset (Bolt would read it as JSON)',
    body: form(JSON.stringify(click({}))),
    contentType: `${FORM}; charset=utf-8`,
    status: 415,
    problem: /charset=utf-8/,
  },
  // Too deep to walk.
  {
    name: 'a JSON body nested 100,000 deep',
    body: JSON.stringify({ type: 'event_callback', event: { type: 'x' }, junk: '@' }).replace(
      '"@"',
      deep(100_000),
    ),
    contentType: JSON_TYPE,
    status: 400,
    problem: /more than 64 levels deep/,
  },
];

describe('malformed requests in HTTP mode: each refused with a 4xx, and the relay answers the next click', () => {
  const session = sessionPerSuite('http');

  for (const c of HTTP_CASES) {
    test(`${c.name}: HTTP ${c.status}`, async () => {
      const s = session();
      const since = s.proc.logs.length;
      const answer = await s.slack.postSignedBody({ body: c.body, contentType: c.contentType });
      assert.deepEqual(
        answer.kind === 'answered' ? answer.status : answer,
        c.status,
        `HTTP status for ${c.name}`,
      );
      const line = await refusalSince(s, since, HTTP_REFUSAL, c.problem);
      assert.equal(line.status, c.status);
      await answersNextClick(s);
    });
  }

  test(`a body over 4 MB is refused with 413 without being read`, async () => {
    const s = session();
    const since = s.proc.logs.length;
    const body = form(JSON.stringify(click({ junk: 'x'.repeat(FIVE_MB) })));
    const answer = await s.slack.postSignedBody({ body, contentType: FORM });
    // The relay answers before reading the rest, so the stand-in may see the answer or, still
    // writing, a reset connection; either way it was refused, as the log says.
    if (answer.kind === 'answered') assert.equal(answer.status, 413);
    else assert.equal(answer.kind, 'error');
    await refusalSince(s, since, HTTP_REFUSAL, /^the body is larger than 4194304 bytes$/);
    await answersNextClick(s);
  });

  test('a well-formed url_verification is still answered with its challenge', async () => {
    const s = session();
    const answer = await s.slack.postSignedBody({
      body: JSON.stringify({ type: 'url_verification', token: 'x', challenge: 'c-123' }),
      contentType: JSON_TYPE,
    });
    assert.equal(answer.kind, 'answered');
    if (answer.kind === 'answered') {
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.text), { challenge: 'c-123' });
    }
  });

  test('a click stamped 10 minutes in the future (or past) is refused and changes nothing', async () => {
    const s = session();
    const shown = picked(s);
    const other = String((Number(shown ?? '-1') + 1) % 3);
    const control = controlOf(s.slack.message(CHANNEL, s.ts)?.blocks ?? [], 0);
    const ref = {
      channel: CHANNEL,
      ts: s.ts,
      blockId: control.blockId,
      actionId: control.actionId,
    };
    // the session is the suite's: its clock is put back whatever happens here
    try {
      for (const [skew, problem] of [
        // the relay reads its clock when the click arrives, a second or more later on a busy
        // machine: about 600 s, not exactly
        [600, /^X-Slack-Request-Timestamp is (5[4-9]\d|6[0-5]\d) s in the future;/],
        [-600, /^X-Slack-Request-Timestamp is (5[4-9]\d|6[0-5]\d) s in the past;/],
      ] as const) {
        const since = s.proc.logs.length;
        s.slack.skewRequestTimestamps(skew);
        const result = await s.slack.selectOption({ ...ref, user: ALICE, value: other });
        assert.equal(result.acked, false, `a click stamped ${skew} s off was refused`);
        const line = await refusalSince(s, since, HTTP_REFUSAL, problem);
        assert.equal(line.status, 401);
        assert.equal(picked(s), shown, 'the refused click changed nothing');
      }
      // Within the window either way, clicks count.
      s.slack.skewRequestTimestamps(240);
      await answersNextClick(s);
      s.slack.skewRequestTimestamps(-240);
      await answersNextClick(s);
    } finally {
      s.slack.skewRequestTimestamps(0);
    }
  });

  test('after all of them, Submit writes the answer file, and no error went uncaught', () =>
    assertSubmitWritesAnswers(session()));
});
