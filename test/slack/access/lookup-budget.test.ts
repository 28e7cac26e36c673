import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Context } from '@slack/bolt';
import {
  LOOKUP_BUDGET_MS,
  lookupTimeLeft,
  noteArrival,
  within,
} from '../../../src/slack/access/lookup-budget.js';

describe('the lookup budget of an interaction', () => {
  test('counts down from when the interaction arrived, never below zero', async () => {
    let clock = 1_000;
    const context: Context = { isEnterpriseInstall: false };
    let nextCalled = false;
    await noteArrival(() => clock)({
      context,
      next: async () => {
        nextCalled = true;
      },
    } as never);
    assert.ok(nextCalled);
    assert.equal(
      lookupTimeLeft(context, () => clock),
      LOOKUP_BUDGET_MS,
    );
    clock += 1_500;
    assert.equal(
      lookupTimeLeft(context, () => clock),
      LOOKUP_BUDGET_MS - 1_500,
    );
    clock += 5_000;
    assert.equal(
      lookupTimeLeft(context, () => clock),
      0,
    );
  });

  test('an interaction that was not noted gets the whole budget', () => {
    assert.equal(lookupTimeLeft({ isEnterpriseInstall: false }), LOOKUP_BUDGET_MS);
  });

  test('within gives the result in time, or undefined once the time is up', async () => {
    assert.equal(await within(Promise.resolve('fast'), 1_000), 'fast');
    const never = new Promise<string>(() => {});
    assert.equal(await within(never, 10), undefined);
  });
});
