import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { visibleSignature } from '../../../src/core/batch/batch-record.js';
import { makeRecord } from '../../support/make-record.js';

describe('visibleSignature', () => {
  const record = makeRecord('/runs/r', 1);
  const signature = visibleSignature(record);

  test('changes with what people see, not with what they do not', () => {
    assert.notEqual(visibleSignature({ ...record, claimedBy: 'U0ALICE01' }), signature);
    assert.equal(visibleSignature({ ...record, updatedAt: '2026-01-01T00:00:00.000Z' }), signature);
    assert.equal(
      visibleSignature({ ...record, escalateAt: '2026-01-01T00:00:00.000Z' }),
      signature,
    );
  });

  test('the next reminder counts once one was sent, and not before', () => {
    const first = { ...record, reminders: 0, nextReminderAt: '2026-01-05T10:00:00.000Z' };
    assert.equal(visibleSignature(first), signature, 'setting the first deadline edits nothing');
    const reminded = { ...first, reminders: 1 };
    assert.notEqual(visibleSignature(reminded), signature);
    const later = { ...reminded, nextReminderAt: '2026-01-05T11:00:00.000Z' };
    assert.notEqual(visibleSignature(later), visibleSignature(reminded), 'a moved deadline shows');
    const { nextReminderAt: _, ...last } = later;
    assert.equal(visibleSignature(last), signature, 'after the last one, as before reminders');
  });

  test('keeps the form stored before values shown at times existed', () => {
    // the signature of a record stored by a relay that showed no reminder: every always-shown
    // field in the table's order, so an upgrade does not edit every open batch's message
    const before = ['fingerprint', 'status', 'drafts', 'answeredBy', 'answeredAt', 'followUps'];
    before.push('problem', 'note', 'answersPending', 'handoffs', 'assignee', 'claimedBy');
    const stored = before.map((name) => record[name as keyof typeof record] ?? null);
    assert.equal(signature, JSON.stringify(stored));
  });
});
