// Frames Slack would never send, each sent on the live Socket Mode connection of a real relay
// process: every one is refused with one warning (and acknowledged when it has an envelope
// id, so Slack would not send it again), and the relay still answers the next click.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALICE } from '../support/relay-harness.js';
import {
  answersNextClick,
  assertSubmitWritesAnswers,
  click,
  deep,
  FIVE_MB,
  refusalSince,
  SECRET,
  sessionPerSuite,
  user,
} from './malformed-input-session.js';

const FRAME_REFUSAL = 'refused a Socket Mode frame';

/** One malformed Socket Mode frame and how it must be refused. */
interface FrameCase {
  name: string;
  frame: string;
  /** the envelope_id the relay must ack it with; none when it carries no usable one */
  ackedAs?: string;
  problem: RegExp;
}

const envelope = (id: string, type: string, payload: unknown, extra = {}) =>
  JSON.stringify({ envelope_id: id, type, payload, accepts_response_payload: true, ...extra });

const FRAME_CASES: FrameCase[] = [
  // Payloads that are not objects (the client read `payload.event` of a null events payload).
  {
    name: 'an interactive envelope with payload null',
    frame: envelope('e-null-1', 'interactive', null),
    ackedAs: 'e-null-1',
    problem: /^payload is null; expected a JSON object$/,
  },
  {
    name: 'an events_api envelope with payload null',
    frame: envelope('e-null-2', 'events_api', null),
    ackedAs: 'e-null-2',
    problem: /^payload is null;/,
  },
  {
    name: 'an envelope without a payload',
    frame: JSON.stringify({ envelope_id: 'e-none', type: 'interactive' }),
    ackedAs: 'e-none',
    problem: /^payload is nothing;/,
  },
  {
    name: 'a payload that is an array',
    frame: envelope('e-arr', 'interactive', [click({})]),
    ackedAs: 'e-arr',
    problem: /^payload is an array;/,
  },
  {
    name: 'a payload that is a string',
    frame: envelope('e-str', 'interactive', SECRET),
    ackedAs: 'e-str',
    problem: /^payload is a string;/,
  },
  {
    name: 'a payload that is a number',
    frame: envelope('e-num', 'slash_commands', 42),
    ackedAs: 'e-num',
    problem: /^payload is a number;/,
  },
  // Frames that are not envelopes at all.
  { name: 'a frame that is null', frame: 'null', problem: /^the frame is null;/ },
  {
    name: 'a frame that is an array',
    frame: '[{"envelope_id":"x"}]',
    problem: /^the frame is an array;/,
  },
  {
    name: 'a frame that is a string',
    frame: JSON.stringify(SECRET),
    problem: /^the frame is a string;/,
  },
  {
    name: 'a frame that is not JSON',
    frame: `{"envelope_id":"x","payload":{"token":"${SECRET}"`,
    problem: /^the frame is not JSON/,
  },
  {
    name: 'an envelope without envelope_id',
    frame: JSON.stringify({ type: 'interactive', payload: click({}) }),
    problem: /^envelope_id is nothing;/,
  },
  {
    name: 'an envelope_id that is a number',
    frame: JSON.stringify({ envelope_id: 5, type: 'interactive', payload: click({}) }),
    problem: /^envelope_id is a number;/,
  },
  // Types the client would emit as its own events.
  {
    name: 'type ws_message',
    frame: envelope('e-ws', 'ws_message', click({})),
    ackedAs: 'e-ws',
    problem: /^type "ws_message" is not a Socket Mode envelope type/,
  },
  {
    name: 'type slack_event (Bolt would get it twice)',
    frame: envelope('e-se', 'slack_event', click({})),
    ackedAs: 'e-se',
    problem: /^type "slack_event" is not/,
  },
  {
    name: 'type error',
    frame: envelope('e-err', 'error', click({})),
    ackedAs: 'e-err',
    problem: /^type "error" is not/,
  },
  {
    name: 'type null',
    frame: JSON.stringify({ envelope_id: 'e-tnull', type: null, payload: click({}) }),
    ackedAs: 'e-tnull',
    problem: /^type is null;/,
  },
  // No type, or fields Bolt dereferences of the wrong kind.
  {
    name: 'an interactive payload without a type',
    frame: envelope('e-notype', 'interactive', { token: SECRET, user }),
    ackedAs: 'e-notype',
    problem: /^payload has no "type"/,
  },
  {
    name: 'an events payload without an event',
    frame: envelope('e-noev', 'events_api', { type: 'event_callback', token: SECRET }),
    ackedAs: 'e-noev',
    problem: /^payload\.event is missing;/,
  },
  {
    name: 'an event that is null',
    frame: envelope('e-evnull', 'events_api', { type: 'event_callback', event: null }),
    ackedAs: 'e-evnull',
    problem: /^payload\.event is null;/,
  },
  {
    name: 'an event without a type',
    frame: envelope('e-evtype', 'events_api', { type: 'event_callback', event: { user: ALICE } }),
    ackedAs: 'e-evtype',
    problem: /^payload\.event\.type is missing;/,
  },
  {
    name: 'a click with user null',
    frame: envelope('e-user', 'interactive', click({ user: null })),
    ackedAs: 'e-user',
    problem: /^payload\.user is null;/,
  },
  {
    name: 'a click with actions null',
    frame: envelope('e-act', 'interactive', click({ actions: null })),
    ackedAs: 'e-act',
    problem: /^payload\.actions is null;/,
  },
  {
    name: 'a click without actions',
    frame: envelope('e-noact', 'interactive', click({ actions: undefined })),
    ackedAs: 'e-noact',
    problem: /^payload\.actions is missing; expected a non-empty array of objects$/,
  },
  {
    name: 'an event_callback without an event, as an interaction',
    frame: envelope('e-noev2', 'interactive', { type: 'event_callback', token: SECRET }),
    ackedAs: 'e-noev2',
    problem: /^payload\.event is missing; expected an object$/,
  },
  {
    name: 'a view submission without a view',
    frame: envelope('e-view', 'interactive', { type: 'view_submission', user }),
    ackedAs: 'e-view',
    problem: /^payload\.view is missing;/,
  },
  {
    name: 'a slash command without a command',
    frame: envelope('e-cmd', 'slash_commands', { text: 'x', command: null }),
    ackedAs: 'e-cmd',
    problem: /^payload\.command is null;/,
  },
  // Huge, and too deep to walk.
  {
    name: 'a 5 MB frame',
    frame: envelope('e-big', 'interactive', { type: 'block_actions', junk: 'x'.repeat(FIVE_MB) }),
    ackedAs: 'e-big',
    problem: /^payload\.user is missing;/,
  },
  {
    name: 'a payload nested 100,000 deep',
    frame: envelope('e-deep', 'events_api', {
      type: 'event_callback',
      event: { type: 'x' },
      junk: '@',
    }).replace('"@"', deep(100_000)),
    ackedAs: 'e-deep',
    problem: /more than 64 levels deep/,
  },
];

describe('malformed frames in Socket Mode: each refused (and acknowledged when it has an envelope id), and the relay answers the next click', () => {
  const session = sessionPerSuite('socket');

  for (const c of FRAME_CASES) {
    test(`${c.name}: ${c.ackedAs ? 'acknowledged' : 'dropped'}`, async () => {
      const s = session();
      const since = s.proc.logs.length;
      const sent = await s.slack.sendSocketFrame(
        c.frame,
        c.ackedAs ? { envelopeId: c.ackedAs } : {},
      );
      assert.equal(sent.sent, true);
      if (c.ackedAs) assert.equal(sent.acked, true, 'the relay acknowledged the envelope');
      const line = await refusalSince(s, since, FRAME_REFUSAL, c.problem);
      assert.equal(line.acknowledged, c.ackedAs !== undefined);
      await answersNextClick(s);
    });
  }

  test('after all of them, Submit writes the answer file, and no error went uncaught', () =>
    assertSubmitWritesAnswers(session()));
});
