import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeGap,
  listQaFiles,
  missingBefore,
  nextUnansweredSeq,
} from '../../../src/core/protocol/qa-listing.js';

test('listQaFiles sorts question and answer seqs and sets the other names apart', () => {
  const listing = listQaFiles([
    'q-out-010.json',
    'q-out-002.json',
    'q-answers-002.json',
    'q-out-0001.json',
    'notes.txt',
  ]);
  assert.deepEqual(listing.questions, [2, 10]);
  assert.deepEqual([...listing.answers], [2]);
  assert.deepEqual(listing.others, ['q-out-0001.json', 'notes.txt']);
  assert.equal(nextUnansweredSeq(listing), 10);
});

test('missingBefore lists small gaps exactly', () => {
  const listing = listQaFiles(['q-out-001.json', 'q-answers-001.json', 'q-out-004.json']);
  assert.deepEqual(missingBefore(listing, 4), [2, 3]);
  assert.equal(
    describeGap(missingBefore(listing, 4), 4),
    'Batch 2, 3 has no question or answer file; batch 4 is shown next in order.',
  );
  assert.equal(describeGap(missingBefore(listing, 1), 1), undefined);
});

test('a gap of more than three batches names three and an ellipsis', () => {
  const listing = listQaFiles(['q-out-006.json']);
  assert.equal(
    describeGap(missingBefore(listing, 6), 6),
    'Batch 1, 2, 3, … has no question or answer file; batch 6 is shown next in order.',
  );
});

test('huge sequence number: q-out-999999999999.json gives a bounded gap and a short sentence', () => {
  // missingBefore used to loop from 1 to seq and build an array of every missing seq
  const listing = listQaFiles(['q-out-001.json', 'q-answers-001.json', 'q-out-999999999999.json']);
  const seq = nextUnansweredSeq(listing) as number;
  assert.equal(seq, 999_999_999_999);
  const missing = missingBefore(listing, seq);
  assert.deepEqual(missing, [2, 3, 4, 5]);
  assert.equal(
    describeGap(missing, seq),
    'Batch 2, 3, 4, … has no question or answer file; batch 999999999999 is shown next in order.',
  );
});

test('huge sequence number: work stays bounded by the files, however many are present', () => {
  const names = Array.from(
    { length: 500 },
    (_, i) => `q-answers-${String(i + 1).padStart(3, '0')}.json`,
  );
  const listing = listQaFiles([...names, `q-out-${Number.MAX_SAFE_INTEGER}.json`]);
  assert.deepEqual(missingBefore(listing, Number.MAX_SAFE_INTEGER), [501, 502, 503, 504]);
});
