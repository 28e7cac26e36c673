import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idleNoticeSchema, idleNoticeText } from '../../../src/core/claude-code/idle-notice.js';

describe('idleNoticeText', () => {
  it("names the project and the session's first 8 characters, then Claude's words on one line", () => {
    const notice = {
      project: '/work/api',
      session: 'f00dfeed-1234',
      message: 'Claude is\nwaiting',
    };
    assert.equal(
      idleNoticeText(notice),
      'Claude Code is waiting for you in the terminal (project /work/api · session f00dfeed): Claude is waiting',
    );
    assert.match(idleNoticeText({ ...notice, message: '  ' }), /session f00dfeed\)\.$/);
  });

  it('masks secrets in the project and the message', () => {
    const text = idleNoticeText({
      project: '/work/api',
      session: 's',
      message: 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456',
    });
    assert.ok(!text.includes('abcdefghijklmnop'), text);
    assert.match(text, /\[masked\]/);
  });
});

describe('idleNoticeSchema', () => {
  it('refuses a notice without a project, and keeps 500 characters of a message', () => {
    assert.equal(
      idleNoticeSchema.safeParse({ project: '', session: 's', message: 'm' }).success,
      false,
    );
    const long = idleNoticeSchema.parse({ project: '/p', session: 's', message: 'x'.repeat(9000) });
    assert.equal(long.message.length, 500);
  });
});
