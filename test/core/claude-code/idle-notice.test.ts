import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  IDLE_NOTICE_FRESH_MS,
  idleNoticeSchema,
  idleNoticeText,
  isStaleNotice,
} from '../../../src/core/claude-code/idle-notice.js';

const AT = '2026-12-06T12:00:00.000Z';
const NOTICE = { project: '/work/api', session: 'f00dfeed-1234', message: 'm', at: AT };

describe('idleNoticeText', () => {
  it("names the project and the session's first 8 characters, then Claude's words on one line", () => {
    assert.equal(
      idleNoticeText({ ...NOTICE, message: 'Claude is\nwaiting' }),
      'Claude Code is waiting for you in the terminal (project /work/api · session f00dfeed): Claude is waiting',
    );
    assert.match(idleNoticeText({ ...NOTICE, message: '  ' }), /session f00dfeed\)\.$/);
  });

  it('masks secrets in the project and the message', () => {
    const text = idleNoticeText({
      ...NOTICE,
      message: 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456',
    });
    assert.ok(!text.includes('abcdefghijklmnop'), text);
    assert.match(text, /\[masked\]/);
  });
});

describe('idleNoticeSchema', () => {
  it('refuses a notice without a project or a time, and keeps 500 characters of a message', () => {
    assert.equal(idleNoticeSchema.safeParse({ ...NOTICE, project: '' }).success, false);
    assert.equal(idleNoticeSchema.safeParse({ ...NOTICE, at: 'yesterday' }).success, false);
    const long = idleNoticeSchema.parse({ ...NOTICE, message: 'x'.repeat(9000) });
    assert.equal(long.message.length, 500);
  });
});

describe('isStaleNotice', () => {
  it('counts a notice found more than 10 minutes after it was left as stale', () => {
    const later = (ms: number) => new Date(Date.parse(AT) + ms);
    assert.equal(IDLE_NOTICE_FRESH_MS, 600_000);
    assert.equal(isStaleNotice(NOTICE, later(IDLE_NOTICE_FRESH_MS)), false);
    assert.equal(isStaleNotice(NOTICE, later(IDLE_NOTICE_FRESH_MS + 1)), true);
  });
});
