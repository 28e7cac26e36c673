import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAnswerFile } from '../../../../src/core/protocol/answers/parse-answer-file.js';
import { parseQuestionFile } from '../../../../src/core/protocol/questions/parse-question-file.js';
import { findReservedKeys } from '../../../../src/core/protocol/questions/reserved-keys.js';

const MESSAGE =
  'expected no field named "__proto__": JavaScript gives that name a special meaning, so the relay cannot keep it; rename or remove the field';

describe('findReservedKeys', () => {
  it('finds __proto__ fields at any depth, in reading order', () => {
    const value = JSON.parse(
      '{"a": {"__proto__": 1}, "b": [{"x": {"__proto__": {"y": 2}}}], "__proto__": []}',
    );
    assert.deepEqual(
      findReservedKeys(value).map((p) => p.path),
      ['a.__proto__', 'b[0].x.__proto__', '__proto__'],
    );
  });

  it('allows other names objects inherit, which are plain data when assigned', () => {
    assert.deepEqual(findReservedKeys(JSON.parse('{"constructor": 1, "toString": {}}')), []);
  });
});

describe('a __proto__ field in a protocol file', () => {
  it('refuses a question file before its schema copies the question', () => {
    const text =
      '{"seq": 1, "questions": [{"id": "a", "type": "free-write", "prompt": "Why?", "__proto__": {"options": ["evil"]}}]}';
    assert.deepEqual(parseQuestionFile(text, 'q-out-001.json'), {
      ok: false,
      error: {
        file: 'q-out-001.json',
        problems: [{ path: 'questions[0].__proto__', message: MESSAGE }],
      },
    });
  });

  it('refuses an answer file the same way', () => {
    const text = '{"seq": 1, "answers": [], "questions": [], "__proto__": {"answers": []}}';
    const parsed = parseAnswerFile(text, 'q-answers-001.json');
    assert.deepEqual(parsed.ok ? [] : parsed.error.problems, [
      { path: '__proto__', message: MESSAGE },
    ]);
  });
});
