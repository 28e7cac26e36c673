import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRecordMirror, parseStoredRecord } from '../../src/store/record-mirror.js';
import { makeRecord } from '../support/make-record.js';

const on = (node: string, runDir: string, seq: number, version: number, fingerprint = 'fp') => ({
  record: makeRecord(runDir, seq, { node, fingerprint }),
  version,
});

describe('the record mirror', () => {
  test('keeps the newest version of each record, whatever order changes come in', () => {
    const mirror = createRecordMirror();
    assert.equal(mirror.apply(on('a', '/r', 1, 5, 'five')), true);
    assert.equal(mirror.apply(on('a', '/r', 1, 3, 'three')), false);
    assert.equal(mirror.apply(on('a', '/r', 1, 5, 'five again')), false);
    assert.equal(mirror.get(makeRecord('/r', 1).key)?.record.fingerprint, 'five');
    assert.equal(mirror.apply(on('a', '/r', 1, 9, 'nine')), true);
    assert.equal(mirror.get(makeRecord('/r', 1).key)?.version, 9);
  });

  test('forRun is per node and run, sorted by seq; all is everything', () => {
    const mirror = createRecordMirror();
    mirror.apply(on('a', '/r', 2, 1));
    mirror.apply(on('a', '/r', 1, 2));
    mirror.apply({ record: { ...makeRecord('/r', 1, { node: 'b' }), key: 'b-key' }, version: 3 });
    assert.deepEqual(
      mirror.forRun('a', '/r').map((r) => r.seq),
      [1, 2],
    );
    assert.deepEqual(
      mirror.forRun('b', '/r').map((r) => r.key),
      ['b-key'],
    );
    assert.equal(mirror.all().length, 3);
  });

  test('a forget drops older records of the run, and a late older change stays dropped', () => {
    const mirror = createRecordMirror();
    mirror.apply(on('a', '/r', 1, 1));
    mirror.apply(on('a', '/r', 2, 2));
    mirror.forgetRun('a', '/r', 3);
    assert.deepEqual(mirror.forRun('a', '/r'), []);
    assert.equal(mirror.apply(on('a', '/r', 1, 2)), false, 'a change from before the forget');
    assert.equal(mirror.apply(on('a', '/r', 1, 4)), true, 'a new record after it');
  });

  test('a reload drops what is gone, keeps what is newer than it, and ends old forgets', () => {
    const mirror = createRecordMirror();
    mirror.apply(on('a', '/gone', 1, 1));
    mirror.apply(on('a', '/kept', 1, 2, 'old'));
    mirror.apply(on('a', '/late', 1, 12));
    mirror.forgetRun('a', '/forgotten', 5);
    mirror.reload([on('a', '/kept', 1, 7, 'new'), on('a', '/forgotten', 1, 4)], 10);
    assert.equal(mirror.get(makeRecord('/gone', 1).key), undefined);
    assert.equal(mirror.get(makeRecord('/kept', 1).key)?.record.fingerprint, 'new');
    assert.equal(mirror.get(makeRecord('/late', 1).key)?.version, 12);
    assert.equal(mirror.get(makeRecord('/forgotten', 1).key), undefined);
    assert.equal(mirror.size, 2);
  });

  test('a seq that changes key leaves no record under the old key', () => {
    const mirror = createRecordMirror();
    mirror.apply(on('a', '/r', 1, 1));
    mirror.apply({ record: { ...makeRecord('/r', 1, { node: 'a' }), key: 'renamed' }, version: 2 });
    assert.equal(mirror.get(makeRecord('/r', 1).key), undefined);
    assert.deepEqual(
      mirror.forRun('a', '/r').map((r) => r.key),
      ['renamed'],
    );
  });
});

describe('parseStoredRecord', () => {
  test('reads <version>|<JSON> and says what is wrong otherwise', () => {
    const record = makeRecord('/r', 1, { node: 'a' });
    const parsed = parseStoredRecord(`12|${JSON.stringify(record)}`);
    assert.deepEqual(parsed, { record, version: 12 });
    assert.match(
      String(parseStoredRecord(JSON.stringify(record))),
      /does not start with a version/,
    );
    assert.match(String(parseStoredRecord('3|{')), /not JSON/);
    assert.match(String(parseStoredRecord('3|{"key":"x"}')), /not valid/);
    const { node: _, ...nodeless } = record;
    assert.match(String(parseStoredRecord(`3|${JSON.stringify(nodeless)}`)), /names no node/);
  });
});
