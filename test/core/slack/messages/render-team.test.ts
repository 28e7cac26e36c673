import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS, HAND_OFF_INPUTS } from '../../../../src/core/slack/controls/ids.js';
import { toBatchView } from '../../../../src/core/slack/layout/to-batch-view.js';
import {
  renderHandOffNotice,
  teamButtons,
  teamLines,
} from '../../../../src/core/slack/messages/render-team.js';
import { mentionOf } from '../../../../src/core/slack/text/mention.js';
import {
  readHandOffSubmission,
  renderHandOffModal,
} from '../../../../src/core/slack/views/render-hand-off-modal.js';
import { formatIssue, validateView } from '../../../support/fake-slack/index.js';
import { makeRecord } from '../../../support/make-record.js';

const AT = '2026-01-05T09:00:00.000Z';
const textOf = (blocks: unknown[]) => JSON.stringify(blocks);

describe('team rendering', () => {
  test('mentions users and user groups, and never links anything else', () => {
    assert.equal(mentionOf('U0ALICE01'), '<@U0ALICE01>');
    assert.equal(mentionOf('S0ONCALL1'), '<!subteam^S0ONCALL1>');
    assert.equal(mentionOf('<!channel>'), '&lt;!channel&gt;');
  });

  test('an open batch shows its assignee and who is on it; a final one the whole chain', () => {
    const team = {
      handoffs: [
        { from: 'U0ALICE01', to: 'U0BOB0001', at: AT, note: 'over to you <b>' },
        { from: 'U0BOB0001', to: 'U0CAROL01', at: AT },
      ],
      assignee: 'U0CAROL01',
      claimedBy: 'U0CAROL01',
    };
    const open = textOf(teamLines(team, false));
    assert.match(open, /Assigned to <@U0CAROL01> \(handed off by <@U0BOB0001>\)/);
    assert.match(open, /<@U0CAROL01> is on it/);
    const final = textOf(teamLines(team, true));
    assert.match(final, /<@U0ALICE01> handed this to <@U0BOB0001>.*over to you &lt;b&gt;/);
    assert.match(final, /<@U0BOB0001> handed this to <@U0CAROL01>/);
    assert.deepEqual(teamLines({ handoffs: [] }, false), []);
  });

  test('the team lines read the record as stored, every field of it, with no copy in the view', () => {
    const record = makeRecord('/runs/r', 1, {
      handoffs: [{ from: 'U0ALICE01', to: 'U0BOB0001', at: AT }],
      assignee: 'U0BOB0001',
      claimedBy: 'U0BOB0001',
    });
    const { team } = toBatchView(record, {});
    assert.equal(team, record, 'a field a team control records reaches its render as it is');
    const open = textOf(teamLines(team, false));
    assert.match(open, /Assigned to <@U0BOB0001> \(handed off by <@U0ALICE01>\)/);
    assert.match(open, /<@U0BOB0001> is on it/);
    assert.match(textOf(teamLines(team, true)), /<!date\^1767603600\^/, 'the stored time, shown');
  });

  test('once a reminder was sent, an open batch says when the next one comes', () => {
    const next = '2026-01-05T10:00:00.000Z';
    const line = (team: Parameters<typeof teamLines>[0]) => textOf(teamLines(team, false));
    assert.doesNotMatch(line({ reminders: 0, nextReminderAt: next }), /reminder/, 'none sent yet');
    assert.match(
      line({ reminders: 1, nextReminderAt: next }),
      /Next reminder <!date\^1767607200\^/,
    );
    assert.doesNotMatch(line({ reminders: 5 }), /reminder/, 'the last one was sent');
    assert.deepEqual(teamLines({ reminders: 1, nextReminderAt: next }, true), []);
    const snooze = (team: Parameters<typeof teamButtons>[0]) =>
      teamButtons(team).find((b) => b.action_id === ACTION_KINDS.snooze)?.text.text;
    assert.equal(snooze({ reminders: 1, nextReminderAt: next }), 'Snooze 1 h');
    assert.equal(snooze({ reminders: 0, nextReminderAt: next }), undefined, 'with its line only');
    assert.equal(snooze({ reminders: 5 }), undefined);
  });

  test('the claim button says Release once someone is on it', () => {
    const label = (claimedBy?: string) => {
      const [claim] = teamButtons({ handoffs: [], ...(claimedBy ? { claimedBy } : {}) });
      return claim?.text.text;
    };
    assert.equal(label(), "I'm on it");
    assert.equal(label('U0ALICE01'), 'Release');
  });

  test('a long note full of characters to escape still fits the thread reply', () => {
    const notice = renderHandOffNotice({
      from: 'U0ALICE01',
      to: 'U0BOB0001',
      at: AT,
      note: '&'.repeat(1000),
    });
    assert.ok(notice.text.length <= 3000, `${notice.text.length} characters`);
    assert.match(notice.text, /…/);
  });

  test('the hand-off modal is valid Block Kit and reads back', () => {
    const modal = renderHandOffModal({
      key: 'k1',
      revision: '0123abcd',
      title: 'Output <format>?',
    });
    assert.deepEqual(validateView(modal).map(formatIssue), []);
    assert.deepEqual(JSON.parse(modal.private_metadata ?? ''), { key: 'k1', revision: '0123abcd' });
    const read = readHandOffSubmission({
      [HAND_OFF_INPUTS.user.blockId]: {
        [HAND_OFF_INPUTS.user.actionId]: { selected_user: 'U0BOB0001' },
      },
      [HAND_OFF_INPUTS.note.blockId]: { [HAND_OFF_INPUTS.note.actionId]: { value: '  ' } },
    });
    assert.deepEqual(read, { to: 'U0BOB0001', note: undefined });
  });
});
