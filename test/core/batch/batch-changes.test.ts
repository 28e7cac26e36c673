import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  answered,
  answeredElsewhere,
  cancelled,
  ended,
  freshVersion,
  holding,
  released,
  SNOOZE_MS,
  snoozed,
  submitting,
  undone,
  withClaim,
  withDraft,
  withFollowUp,
  writeFailed,
} from '../../../src/core/batch/batch-changes.js';
import { withHandOff, withUndeliveredHandOff } from '../../../src/core/batch/hand-off.js';
import { makeRecord } from '../../support/make-record.js';

const AT = '2026-03-01T12:00:00.000Z';
const open = makeRecord('/runs/a', 1, { drafts: { format: 'CSV' } });

describe('what happens to a batch', () => {
  test('a choice is recorded, cleared, and kept under ids that are special on plain objects', () => {
    const picked = withDraft(open, '__proto__', ['a', 'b']);
    assert.deepEqual({ ...picked.drafts }, { format: 'CSV', ['__proto__']: ['a', 'b'] });
    assert.equal(Object.getPrototypeOf(picked.drafts), null);
    const cleared = withDraft(picked, 'format', undefined);
    assert.deepEqual(Object.keys(cleared.drafts), ['__proto__']);
    assert.deepEqual({ ...open.drafts }, { format: 'CSV' }, 'the record given is left as it was');
  });

  test('typed text is recorded; empty text clears it', () => {
    const typed = withFollowUp(open, 'q1', 'Leaky bucket');
    assert.equal(typed.followUps?.q1, 'Leaky bucket');
    assert.equal(withFollowUp(typed, 'q1', '').followUps?.q1, undefined);
  });

  test('a claim: taken, released, never taken from someone else', () => {
    const mine = withClaim(open, 'U1', false);
    assert.equal(mine.kind === 'changed' && mine.record.claimedBy, 'U1');
    const record = mine.kind === 'changed' ? mine.record : open;
    assert.deepEqual(withClaim(record, 'U2', false), { kind: 'claimed-by-other', by: 'U1' });
    assert.deepEqual(withClaim(record, 'U2', true), { kind: 'claimed-by-other', by: 'U1' });
    const released = withClaim(record, 'U1', true);
    assert.equal(released.kind === 'changed' && 'claimedBy' in released.record, false);
  });

  test('a hand-off moves the assignee and the claim; one that cannot reach the person ends', () => {
    const claimed = { ...open, claimedBy: 'U1' };
    const handed = withHandOff(claimed, { from: 'U1', to: 'U2', at: AT, note: '  ' });
    assert.equal(handed.assignee, 'U2');
    assert.equal(handed.claimedBy, 'U2');
    assert.deepEqual(
      handed.handoffs,
      [{ from: 'U1', to: 'U2', at: AT }],
      'a blank note is left out',
    );
    const failed = withUndeliveredHandOff(handed, 'U2', 'user_disabled');
    assert.equal(failed.assignee, undefined);
    assert.equal(failed.claimedBy, undefined);
    assert.equal(failed.handoffs?.[0]?.undelivered, 'user_disabled');
    assert.equal(withUndeliveredHandOff(open, 'U9', 'x'), open, 'no hand-off to them: unchanged');
  });

  test('a rewritten file opens a fresh version: choices, text, who answered and problems go', () => {
    const used = {
      ...open,
      followUps: withFollowUp(open, 'q', 'x').followUps,
      problem: 'EACCES',
      answeredBy: 'U1',
      answeredAt: AT,
      assignee: 'U2',
    };
    const fresh = freshVersion(used, 'new-fingerprint', 'malformed');
    assert.equal(fresh.status, 'malformed');
    assert.equal(fresh.fingerprint, 'new-fingerprint');
    assert.deepEqual({ ...fresh.drafts }, {});
    for (const gone of ['followUps', 'problem', 'answeredBy', 'answeredAt'] as const) {
      assert.equal(gone in fresh, false, gone);
    }
    assert.equal(fresh.assignee, 'U2', 'who it was handed to stays');
  });

  test('status changes: submitting, answered, failed, elsewhere, ended, cancelled', () => {
    const sent = submitting(open, open.drafts, 'U1', AT);
    assert.deepEqual([sent.status, sent.answeredBy, sent.answeredAt], ['submitting', 'U1', AT]);
    const failed = writeFailed(sent, 'disk full');
    assert.deepEqual([failed.status, failed.problem], ['open', 'disk full']);
    assert.equal(answered(failed).status, 'answered');
    assert.equal('problem' in answered(failed), false);
    const elsewhere = answeredElsewhere(failed, '2026-03-02T00:00:00.000Z');
    assert.deepEqual(
      [elsewhere.status, elsewhere.answersPending, elsewhere.answeredAt, 'problem' in elsewhere],
      ['answered-elsewhere', true, AT, false],
    );
    assert.equal(answeredElsewhere(open, AT).answeredAt, AT);
    assert.equal(ended(open, 'withdrawn').status, 'withdrawn');
    assert.equal(ended(open, 'run-removed').status, 'run-removed');
    const gone = cancelled(open, 'U3', AT);
    assert.deepEqual([gone.status, gone.answeredBy, gone.answeredAt], ['cancelled', 'U3', AT]);
  });

  test('a held decision: Undo puts the batch back exactly as it was; its window ending sends it', () => {
    const before = { ...open, followUps: withFollowUp(open, 'format', 'tabs').followUps };
    const sent = submitting(before, { format: 'JSON' }, 'U1', AT, 'digest');
    const until = '2026-03-01T12:00:10.000Z';
    const held = holding(sent, before, until);
    assert.equal(held.status, 'held');
    assert.deepEqual({ ...held.drafts }, { format: 'JSON' }, 'the answer given is the draft');
    assert.deepEqual(
      [held.held?.until, { ...held.held?.drafts }, { ...held.held?.followUps }],
      [until, { format: 'CSV' }, { format: 'tabs' }],
    );
    const back = undone(held);
    assert.deepEqual(
      { ...back, drafts: { ...back.drafts }, followUps: { ...back.followUps } },
      { ...before, drafts: { ...before.drafts }, followUps: { ...before.followUps } },
      'Undo gives the record as it was before the decision',
    );
    for (const gone of ['held', 'answeredBy', 'answeredAt', 'answeredVia'] as const) {
      assert.equal(gone in back, false, gone);
    }
    assert.equal(
      'followUps' in undone(holding(sent, open, until)),
      false,
      'none before, none after',
    );
    const sending = released(held);
    assert.deepEqual([sending.status, 'held' in sending], ['submitting', false]);
    assert.deepEqual([sending.answeredBy, sending.answeredVia], ['U1', 'digest']);
    const fresh = freshVersion(held, 'new-fingerprint', 'open');
    assert.deepEqual(
      [fresh.status, 'held' in fresh, 'answeredVia' in fresh],
      ['open', false, false],
    );
  });

  test('snooze puts the next reminder off an hour from the press, never sooner', () => {
    const press = new Date(AT);
    const hourOn = new Date(press.getTime() + SNOOZE_MS).toISOString();
    const soon = { ...open, reminders: 1, nextReminderAt: '2026-03-01T12:02:00.000Z' };
    assert.equal(snoozed(soon, press)?.nextReminderAt, hourOn);
    const later = { ...soon, nextReminderAt: '2026-03-01T15:00:00.000Z' };
    assert.equal(
      snoozed(later, press)?.nextReminderAt,
      later.nextReminderAt,
      'not brought forward',
    );
    assert.equal(snoozed({ ...open, reminders: 5 }, press), undefined, 'the last one was sent');
    assert.equal(snoozed(soon, press)?.escalateAt, soon.escalateAt);
  });
});
