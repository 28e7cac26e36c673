import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chooseNodeName } from '../../src/core/node-name.js';

describe('chooseNodeName', () => {
  test('RELAY_NODE wins; the host name serves when it fits; otherwise RELAY_NODE is asked for', () => {
    assert.deepEqual(chooseNodeName('ci-3', 'box'), { ok: true, node: 'ci-3' });
    assert.deepEqual(chooseNodeName(undefined, 'box.lan'), { ok: true, node: 'box.lan' });
    const bad = chooseNodeName(undefined, 'a b');
    assert.equal(bad.ok, false);
    assert.match(
      bad.ok ? '' : bad.problem,
      /^RELAY_NODE is not set, and this machine's host name "a b" cannot name it/,
    );
  });
});
