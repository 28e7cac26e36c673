import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answersById, readEnvelopeExtras } from '../../../src/core/envelope/follow-up-text.js';
import { idRecord } from '../../../src/core/protocol/questions/id-record.js';
import type { AnswerFile } from '../../../src/core/protocol/questions/question.js';

describe('readEnvelopeExtras', () => {
  it('reads the typed text by question id', () => {
    const file = { seq: 1, answers: [], questions: [], followUpText: { q1: 'SQLite', q3: '' } };
    const value = idRecord([
      ['q1', 'SQLite'],
      ['q3', ''],
    ]);
    assert.deepEqual(readEnvelopeExtras(file), { ok: true, value: { followUpText: value } });
  });

  it('gives no text for an answer file without the field', () => {
    assert.deepEqual(readEnvelopeExtras({ seq: 1, answers: [], questions: [] }), {
      ok: true,
      value: { followUpText: idRecord() },
    });
  });

  it('reads who submitted, and names an answeredBy that is not a string', () => {
    const file = { seq: 1, answers: [], questions: [], answeredBy: 'U0ALICE01' };
    assert.deepEqual(readEnvelopeExtras(file), {
      ok: true,
      value: { followUpText: idRecord(), answeredBy: 'U0ALICE01' },
    });
    assert.deepEqual(readEnvelopeExtras({ answeredBy: 7 }), {
      ok: false,
      error: [
        {
          path: 'answeredBy',
          message: 'expected a string (the Slack user who submitted), found 7',
        },
      ],
    });
  });

  it('names each value that is not a string by its path', () => {
    assert.deepEqual(readEnvelopeExtras({ followUpText: { q1: 'ok', q2: 5, q3: null } }), {
      ok: false,
      error: [
        {
          path: 'followUpText.q2',
          message: 'expected a string (the text the user typed), found 5',
        },
        {
          path: 'followUpText.q3',
          message: 'expected a string (the text the user typed), found null',
        },
      ],
    });
  });

  it('refuses a followUpText that is not an object', () => {
    assert.deepEqual(readEnvelopeExtras({ followUpText: ['a'] }), {
      ok: false,
      error: [
        {
          path: 'followUpText',
          message: 'expected an object of strings keyed by question id, found an array ["a"]',
        },
      ],
    });
  });
});

describe('answersById', () => {
  it('keys choose answers by question id', () => {
    const file: AnswerFile = {
      seq: 1,
      answers: [
        { id: 'q1', type: 'choose-one', prompt: 'P', options: ['A', 'B'], answer: 'A' },
        { id: 'q2', type: 'choose-many', prompt: 'P', options: ['A', 'B'], answer: ['A', 'B'] },
      ],
      questions: [],
    };
    assert.deepEqual({ ...answersById(file) }, { q1: 'A', q2: ['A', 'B'] });
  });
});
