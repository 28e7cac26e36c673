import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSocketFrame } from '../../../src/core/inbound/socket-frame.js';

const click = { type: 'block_actions', user: { id: 'U1' }, actions: [{ action_id: 'a' }] };
const frame = (fields: Record<string, unknown>) => JSON.stringify(fields);

describe('checkSocketFrame', () => {
  it('passes hello, disconnect and well-formed envelopes of each type', () => {
    const frames = [
      frame({ type: 'hello', num_connections: 1, debug_info: {} }),
      frame({ type: 'disconnect', reason: 'refresh_requested' }),
      frame({
        envelope_id: 'e1',
        type: 'interactive',
        payload: click,
        accepts_response_payload: true,
      }),
      frame({
        envelope_id: 'e2',
        type: 'events_api',
        payload: { type: 'event_callback', event: { type: 'app_home_opened', user: 'U1' } },
      }),
      frame({ envelope_id: 'e3', type: 'slash_commands', payload: { command: '/o7', text: '' } }),
    ];
    for (const text of frames) assert.deepEqual(checkSocketFrame(text), { pass: true }, text);
  });

  it('refuses frames that are not JSON objects; they carry no envelope to acknowledge', () => {
    assert.deepEqual(checkSocketFrame('{"envelope_id":"e1",'), {
      pass: false,
      problem: 'the frame is not JSON (20 characters)',
    });
    for (const [text, kind] of [
      ['null', 'null'],
      ['[]', 'an array'],
      ['"hello"', 'a string'],
      ['7', 'a number'],
    ]) {
      assert.deepEqual(checkSocketFrame(String(text)), {
        pass: false,
        problem: `the frame is ${kind}; expected a JSON object`,
      });
    }
  });

  it('refuses an envelope whose payload Bolt would dereference, keeping its id for the ack', () => {
    assert.deepEqual(
      checkSocketFrame(frame({ envelope_id: 'e1', type: 'interactive', payload: null })),
      {
        pass: false,
        problem: 'payload is null; expected a JSON object',
        envelopeId: 'e1',
        envelopeType: 'interactive',
      },
    );
    const refused = (fields: Record<string, unknown>) => {
      const verdict = checkSocketFrame(frame({ envelope_id: 'e9', ...fields }));
      assert.equal(verdict.pass, false, JSON.stringify(fields));
      return verdict.pass ? '' : verdict.problem;
    };
    assert.equal(
      refused({ type: 'events_api', payload: null }),
      'payload is null; expected a JSON object',
    );
    assert.equal(refused({ type: 'events_api' }), 'payload is nothing; expected a JSON object');
    assert.equal(
      refused({ type: 'events_api', payload: { type: 'event_callback' } }),
      'payload.event is missing; expected an object',
    );
    assert.equal(
      refused({ type: 'events_api', payload: { type: 'event_callback', event: null } }),
      'payload.event is null; expected an object',
    );
    assert.equal(
      refused({ type: 'interactive', payload: { type: 'block_actions', user: { id: 'U1' } } }),
      'payload.actions is missing; expected a non-empty array of objects',
    );
    assert.equal(
      refused({ type: 'slash_commands', payload: { type: 'x' } }),
      'payload.command is missing; a slash_commands envelope carries one',
    );
    assert.equal(
      refused({ type: 'interactive', payload: [click] }),
      'payload is an array; expected a JSON object',
    );
    assert.equal(
      refused({ type: 'interactive', payload: { ...click, user: null } }),
      'payload.user is null; expected an object',
    );
  });

  it('refuses types the client would emit as its own events, and envelopes without an id', () => {
    for (const type of ['error', 'ws_message', 'slack_event', 'connected', 'outgoing_message']) {
      assert.deepEqual(checkSocketFrame(frame({ envelope_id: 'e1', type, payload: click })), {
        pass: false,
        problem: `type "${type}" is not a Socket Mode envelope type (events_api, interactive, slash_commands)`,
        envelopeId: 'e1',
        envelopeType: type,
      });
    }
    assert.deepEqual(checkSocketFrame(frame({ envelope_id: 'e1', type: null })), {
      pass: false,
      problem: 'type is null; expected a string',
      envelopeId: 'e1',
    });
    assert.deepEqual(checkSocketFrame(frame({ type: 'interactive', payload: click })), {
      pass: false,
      problem:
        'envelope_id is nothing; expected a non-empty string (the envelope cannot be acknowledged)',
      envelopeType: 'interactive',
    });
    assert.equal(
      checkSocketFrame(frame({ envelope_id: 7, type: 'interactive', payload: click })).pass,
      false,
    );
  });
});
