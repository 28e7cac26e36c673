import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import {
  idRecord,
  idRecordSchema,
  valueFor,
  withIdValue,
} from '../../../../src/core/protocol/questions/id-record.js';

describe('id records', () => {
  it('keep __proto__ as an answer, where a plain object would lose it and change', () => {
    const plain: Record<string, unknown> = {};
    const id: string = '__proto__';
    plain[id] = ['web'];
    assert.equal(Object.hasOwn(plain, '__proto__'), false, 'a plain object drops it');

    const drafts = withIdValue(idRecord<string[]>(), '__proto__', ['web']);
    assert.deepEqual(Object.keys(drafts), ['__proto__']);
    assert.deepEqual(valueFor(drafts, '__proto__'), ['web']);
    assert.equal(Object.getPrototypeOf(drafts), null);
    assert.equal(JSON.stringify(drafts), '{"__proto__":["web"]}');
  });

  it('find nothing for an id without a value, even one every object inherits', () => {
    const drafts = idRecord<string>([['a', 'x']]);
    assert.equal(drafts.constructor, undefined);
    assert.equal(valueFor({} as Record<string, string>, 'constructor'), undefined);
    assert.equal(valueFor({} as Record<string, string>, 'toString'), undefined);
    assert.equal(valueFor(drafts, 'a'), 'x');
  });

  it('remove an id when its value is undefined, leaving the original as it was', () => {
    const before = idRecord([
      ['constructor', 'new'],
      ['b', 'y'],
    ]);
    const after = withIdValue<string>(before, 'constructor', undefined);
    assert.deepEqual(Object.keys(after), ['b']);
    assert.deepEqual(Object.keys(before), ['constructor', 'b']);
  });
});

describe('idRecordSchema', () => {
  const schema = idRecordSchema(z.string(), () => 'expected an object');

  it('reads every key JSON.parse kept, __proto__ included, into a record without a prototype', () => {
    const parsed = schema.parse(JSON.parse('{"__proto__": "a", "constructor": "b"}'));
    assert.equal(Object.getPrototypeOf(parsed), null);
    assert.deepEqual(Object.entries(parsed), [
      ['__proto__', 'a'],
      ['constructor', 'b'],
    ]);
  });

  it('names each bad value by its key, and refuses what is not an object', () => {
    const bad = schema.safeParse({ q1: 'ok', q2: 5 });
    assert.deepEqual(
      bad.error?.issues.map((issue) => issue.path),
      [['q2']],
    );
    assert.deepEqual(
      schema.safeParse(['a']).error?.issues.map((issue) => issue.message),
      ['expected an object'],
    );
  });
});
