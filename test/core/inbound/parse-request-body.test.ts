import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestBody } from '../../../src/core/inbound/parse-request-body.js';

const FORM = 'application/x-www-form-urlencoded';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('parseRequestBody', () => {
  it("reads a form's payload as JSON, other forms as fields, and JSON bodies", () => {
    const click = { type: 'block_actions', user: { id: 'U1' } };
    assert.deepEqual(parseRequestBody(form({ payload: JSON.stringify(click) }), FORM), {
      ok: true,
      value: { body: click, name: 'payload' },
    });
    assert.deepEqual(parseRequestBody(form({ command: '/o7', text: 'a b' }), FORM), {
      ok: true,
      value: { body: { command: '/o7', text: 'a b' }, name: 'the form' },
    });
    assert.deepEqual(parseRequestBody('payload=null', FORM), {
      ok: true,
      value: { body: null, name: 'payload' },
    });
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON',
    ]) {
      assert.deepEqual(parseRequestBody('{"type":"event_callback"}', type), {
        ok: true,
        value: { body: { type: 'event_callback' }, name: 'the body' },
      });
    }
  });

  it('refuses content types Slack does not send, and forms Bolt would read as JSON', () => {
    for (const type of ['text/plain', '', `${FORM}; charset=utf-8`, 'multipart/form-data']) {
      const parsed = parseRequestBody('payload=%7B%7D', type);
      assert.equal(parsed.ok, false, type);
      if (!parsed.ok) {
        assert.equal(parsed.error.status, 415);
        assert.match(parsed.error.problem, /Slack sends application\/json or exactly/);
      }
    }
    assert.deepEqual(parseRequestBody('{}', undefined), {
      ok: false,
      error: {
        status: 415,
        problem: `the request has no Content-Type; Slack sends application/json or exactly ${FORM}`,
      },
    });
  });

  it('refuses bodies and payloads that are not JSON without quoting them', () => {
    assert.deepEqual(parseRequestBody('payload=%7B%22token%22%3A%22xoxb-secret%22', FORM), {
      ok: false,
      error: { status: 400, problem: 'payload is not JSON (22 characters)' },
    });
    assert.deepEqual(parseRequestBody('{"token":"xoxb-secret"', 'application/json'), {
      ok: false,
      error: { status: 400, problem: 'the body is not JSON (22 characters)' },
    });
    assert.deepEqual(parseRequestBody('', 'application/json'), {
      ok: false,
      error: { status: 400, problem: 'the body is not JSON (0 characters)' },
    });
  });

  it('refuses a form that gives payload twice', () => {
    assert.deepEqual(parseRequestBody('payload=%7B%7D&payload=null', FORM), {
      ok: false,
      error: { status: 400, problem: 'the form has 2 "payload" fields; expected one' },
    });
  });
});
