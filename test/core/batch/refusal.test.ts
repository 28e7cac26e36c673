import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { revisionOf } from '../../../src/core/batch/batch-key.js';
import { refusalFor } from '../../../src/core/batch/refusal.js';
import { makeRecord } from '../../support/make-record.js';

const open = makeRecord('/runs/a', 1);
const revision = revisionOf(open.fingerprint);

describe('refusalFor: may anyone act on this batch now', () => {
  test('an open batch at its revision: yes; another revision, a closed batch or none: why not', () => {
    assert.equal(refusalFor(open, { revision }), undefined);
    assert.equal(refusalFor(open), undefined, 'any version, as for reminders');
    assert.deepEqual(refusalFor(open, { revision: 'deadbeef' }), { kind: 'out-of-date' });
    assert.deepEqual(refusalFor(undefined), { kind: 'unknown' });
    const answered = { ...open, status: 'answered' as const };
    assert.deepEqual(refusalFor(answered, { revision }), { kind: 'closed', status: 'answered' });
  });

  test('`also` lets one more status go ahead: submitting for Submit, held for Undo, no other', () => {
    const sending = { ...open, status: 'submitting' as const };
    const held = { ...open, status: 'held' as const };
    assert.equal(refusalFor(sending, { revision, also: 'submitting' }), undefined);
    assert.deepEqual(refusalFor(sending, { revision }), { kind: 'closed', status: 'submitting' });
    assert.equal(refusalFor(held, { revision, also: 'held' }), undefined);
    assert.deepEqual(refusalFor(held, { revision, also: 'submitting' }), {
      kind: 'closed',
      status: 'held',
    });
    assert.deepEqual(refusalFor(held, { revision: 'deadbeef', also: 'held' }), {
      kind: 'out-of-date',
    });
  });
});
