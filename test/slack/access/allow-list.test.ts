import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAllowed, REFUSAL_PLAIN, refusalMrkdwn } from '../../../src/slack/access/allow-list.js';

const members = new Map([
  ['S0DEVS001', new Set(['U0DEV0001', 'U0DEV0002'])],
  ['S0OPS0001', new Set<string>()],
]);

describe('isAllowed', () => {
  test('no allow list: everyone may answer', () => {
    assert.equal(isAllowed('U0ANYONE1', undefined, new Map()), true);
  });

  test('listed user IDs may answer, others may not', () => {
    const list = { users: ['U0ALICE01', 'W0GRID001'], groups: [] };
    assert.equal(isAllowed('U0ALICE01', list, members), true);
    assert.equal(isAllowed('W0GRID001', list, members), true);
    assert.equal(isAllowed('U0BOB0001', list, members), false);
  });

  test('members of a listed group may answer; members of unlisted groups may not', () => {
    const list = { users: [], groups: ['S0OPS0001'] };
    assert.equal(isAllowed('U0DEV0001', list, members), false);
    assert.equal(isAllowed('U0DEV0001', { users: [], groups: ['S0DEVS001'] }, members), true);
  });

  test('a group whose members are not known yet lets nobody in through it', () => {
    const list = { users: ['U0ALICE01'], groups: ['S0UNKNOWN'] };
    assert.equal(isAllowed('U0DEV0001', list, members), false);
    assert.equal(isAllowed('U0ALICE01', list, members), true);
  });

  test('an empty list allows nobody', () => {
    assert.equal(isAllowed('U0ALICE01', { users: [], groups: [] }, members), false);
  });
});

describe('refusalMrkdwn', () => {
  test('names users and groups as mentions and says what to do', () => {
    assert.equal(
      refusalMrkdwn({ users: ['U0ALICE01', 'U0BOB0001'], groups: ['S0DEVS001'] }),
      'Only <@U0ALICE01>, <@U0BOB0001> and members of <!subteam^S0DEVS001> may answer these questions; ask one of them, or ask an admin to add you to `RELAY_ALLOWED_USERS`. Nothing was changed.',
    );
    assert.match(refusalMrkdwn({ users: ['U0ALICE01'], groups: [] }), /^Only <@U0ALICE01> may/);
  });

  test('a long list names ten and counts the rest', () => {
    const users = Array.from({ length: 14 }, (_, i) => `U0USER${String(i).padStart(3, '0')}`);
    const text = refusalMrkdwn({ users, groups: [] });
    assert.equal(text.match(/<@/g)?.length, 10);
    assert.match(text, /<@U0USER009> and 4 more may answer/);
  });

  test('the plain version for modal errors has no mrkdwn', () => {
    assert.doesNotMatch(REFUSAL_PLAIN, /[<>*`]/);
    assert.match(REFUSAL_PLAIN, /RELAY_ALLOWED_USERS/);
  });
});
