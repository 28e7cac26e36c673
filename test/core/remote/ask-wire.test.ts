import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newAskId } from '../../../src/ask/ask-folder.js';
import { askPutSchema, REMOTE_ASK_ID, remoteOrigin } from '../../../src/core/remote/ask-wire.js';

test("a remote ask's origin always says who asked; the caller's title and line are kept, its project never", () => {
  assert.deepEqual(remoteOrigin('ann-laptop', undefined), {
    title: 'Questions from ann-laptop',
    detail: 'asked by ann-laptop over the ask API',
  });
  assert.deepEqual(
    remoteOrigin('ann-laptop', {
      title: 'Claude Code wants to use Bash',
      detail: 'project /w · session 1',
    }),
    {
      title: 'Claude Code wants to use Bash',
      detail: 'asked by ann-laptop over the ask API · project /w · session 1',
    },
  );
  assert.equal(remoteOrigin('ann', { title: '  ' }).title, 'Questions from ann');
  assert.equal(
    remoteOrigin('ann', { title: 'Claude Code wants to use Bash', inTerminal: true }).inTerminal,
    true,
    "a hook's terminal waits on it: kept",
  );
  const put = askPutSchema.parse({
    batch: { seq: 1, questions: [], origin: { title: 't', detail: 'd', project: '/other' } },
  });
  assert.deepEqual(put.batch.origin, { title: 't', detail: 'd' }, 'the project is dropped');
});

test('remote ask ids are newAskId with 32 hex digits; shorter, longer or other characters are not', () => {
  const id = newAskId(new Date('2026-12-06T21:00:00.123Z'), 'ab'.repeat(16));
  assert.equal(id, '20261206T210000123Z-abababababababababababababababab');
  assert.ok(REMOTE_ASK_ID.test(id));
  for (const bad of [id.slice(0, -1), `${id}0`, id.replace('-', '_'), `../${id}`, id.toUpperCase()])
    assert.ok(!REMOTE_ASK_ID.test(bad), bad);
});
