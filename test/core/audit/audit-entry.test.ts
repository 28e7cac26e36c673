import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { auditEntryOf } from '../../../src/core/audit/audit-entry.js';
import { holding, submitting, undone } from '../../../src/core/batch/batch-changes.js';
import { ESCALATION_FROM } from '../../../src/core/batch/hand-off.js';
import { makeRecord } from '../../support/make-record.js';

const AT = new Date('2026-03-01T12:00:10.000Z');
const open = makeRecord('/runs/a', 1);
const held = holding(
  submitting(open, { go: true }, 'U0BOB0001', '2026-03-01T12:00:00.000Z', 'approve-all'),
  open,
  AT.toISOString(),
);

describe('the audit entry a record makes', () => {
  test('answered: the answers, who and how; a held decision makes none until it is written', () => {
    assert.equal(auditEntryOf(held, 'relay-a', AT, open), undefined, 'held: nothing written yet');
    const written = { ...held, status: 'answered' as const };
    assert.deepEqual(auditEntryOf(written, 'relay-a', AT, held), {
      at: AT.toISOString(),
      decision: 'answered',
      run: '/runs/a',
      seq: 1,
      key: open.key,
      answers: { go: true },
      by: 'U0BOB0001',
      how: 'approve-all',
      relay: 'relay-a',
    });
  });

  test('on its own message: after a hand-off, an escalation or a reminder, or just so', () => {
    const answered = (changes: Partial<typeof open>) =>
      auditEntryOf({ ...open, status: 'answered', answeredBy: 'U0BOB0001', ...changes }, 'r', AT)
        ?.how;
    const to = (from: string, who = 'U0BOB0001') => ({
      handoffs: [{ from, to: who, at: AT.toISOString() }],
    });
    assert.equal(answered({}), 'message');
    assert.equal(answered({ reminders: 2 }), 'reminder');
    assert.equal(answered(to('U0ALICE01')), 'hand-off');
    assert.equal(answered({ ...to(ESCALATION_FROM), escalated: true, reminders: 3 }), 'escalation');
    assert.equal(answered(to('U0ALICE01', 'U0CAROL01')), 'message', 'handed to someone else');
    assert.equal(answered({ answeredVia: 'digest', ...to('U0ALICE01') }), 'digest');
  });

  test('undone: the answers put back, by whom, how undo; an open record otherwise makes none', () => {
    const back = undone(held);
    const entry = auditEntryOf(back, 'relay-a', AT, held);
    assert.deepEqual(
      [entry?.decision, entry?.answers, entry?.by, entry?.how],
      ['undone', { go: true }, 'U0BOB0001', 'undo'],
    );
    assert.equal(auditEntryOf(open, 'relay-a', AT, undefined), undefined);
    assert.equal(auditEntryOf(open, 'relay-a', AT, { ...open, status: 'malformed' }), undefined);
  });
});
