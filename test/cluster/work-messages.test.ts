import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeRequest, encodeRequest, type WorkRequest } from '../../src/cluster/work-messages.js';

const submit = (tapped: { questionId: string; answer: string; note?: string }): WorkRequest => ({
  id: 'w1',
  kind: 'submit',
  key: 'batch-key',
  from: 'relay-a',
  input: { revision: 'abcd1234', by: 'U0ALICE01', tapped },
});

describe('work requests between relays', () => {
  it('carry a tapped answer with the note typed in its form to the relay holding the run', () => {
    const request = submit({
      questionId: 'permission',
      answer: 'Deny',
      note: 'frozen until Monday',
    });
    assert.deepEqual(decodeRequest(encodeRequest(request)), request);
    const plain = submit({ questionId: 'permission', answer: 'Allow' });
    assert.deepEqual(decodeRequest(encodeRequest(plain)), plain);
  });

  it('refuse a note longer than a Slack text input can hold', () => {
    const fields = encodeRequest(
      submit({ questionId: 'permission', answer: 'Deny', note: 'x'.repeat(3001) }),
    );
    assert.equal(decodeRequest(fields), 'a work request whose choices cannot be read');
  });
});
