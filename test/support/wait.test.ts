import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { waitFor } from './wait.js';

describe('waitFor', () => {
  test('resolves with the first truthy value, a throw counting as not yet', async () => {
    let calls = 0;
    const value = await waitFor(() => {
      calls += 1;
      if (calls < 3) throw new Error('not yet');
      return calls;
    }, 'the third call');
    assert.equal(value, 3);
  });

  test('gives up saying what it waited for, how things stood then, and the last throw', async () => {
    let count = 0;
    await assert.rejects(
      waitFor(
        () => {
          count += 1;
          throw new Error(`count is ${count}`);
        },
        () => `a count of -1, not ${count}`,
        50,
      ),
      (err: Error) => {
        assert.match(err.message, /^timed out after 50 ms waiting for a count of -1, not (\d+)/);
        const [, shown] = /not (\d+)/.exec(err.message) ?? [];
        assert.equal(Number(shown), count, 'the count when it gave up, not when it began');
        assert.ok(count > 1);
        assert.match(err.message, new RegExp(`; last error: count is ${count}$`));
        return true;
      },
    );
  });
});
