import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskSecrets, SECRET_SHAPES } from '../../../src/core/claude-code/mask-secrets.js';

/** One example per shape: the text, and what must be left of it. */
const EXAMPLES: Record<string, [string, string]> = {
  'private key': [
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
    '-----BEGIN OPENSSH PRIVATE KEY----- [masked] -----END OPENSSH PRIVATE KEY-----',
  ],
  'Authorization header': [
    "curl -H 'Authorization: Bearer abc.def.ghi' https://x",
    "curl -H 'Authorization: Bearer [masked]' https://x",
  ],
  'Slack token': ['SLACK_BOT_TOKEN xoxb-1234-5678-abcdefgh', 'SLACK_BOT_TOKEN xoxb-[masked]'],
  'GitHub token': [
    'git push https://ghp_0123456789abcdefghijABCDEFGHIJ012345@github.com',
    'git push https://ghp_[masked]@github.com',
  ],
  'Anthropic key': ['key sk-ant-api03-abcdefghijklmnopqrstuv', 'key sk-ant-[masked]'],
  'OpenAI key': ['OPENAI sk-proj-abcdefghijklmnopqrstuvwx', 'OPENAI sk-proj-[masked]'],
  'AWS access key id': ['id AKIAIOSFODNN7EXAMPLE here', 'id AKIA[masked] here'],
  'secret assignment': [
    'mysql --password=hunter2 -e "select 1"; export API_KEY="abc123"',
    'mysql --password=[masked] -e "select 1"; export API_KEY="[masked]"',
  ],
  'password in a URL': [
    'psql postgres://admin:s3cret@db.internal/app',
    'psql postgres://admin:[masked]@db.internal/app',
  ],
};

describe('maskSecrets', () => {
  for (const shape of SECRET_SHAPES) {
    it(`masks a ${shape.name}`, () => {
      const example = EXAMPLES[shape.name];
      assert.ok(example, `an example for ${shape.name}`);
      const [text, shown] = example;
      const masked = maskSecrets(text);
      assert.equal(masked.text, shown);
      assert.ok(masked.count >= 1);
    });
  }

  it('leaves text without secrets alone', () => {
    const text = 'curl -s -m 1 http://127.0.0.1:9/x && echo "token bucket" && ls sk-short';
    assert.deepEqual(maskSecrets(text), { text, count: 0 });
  });

  it('masks a token once even where two shapes meet (token=ghp_…)', () => {
    const { text } = maskSecrets('token=ghp_0123456789abcdefghijABCDEFGHIJ012345');
    assert.equal(text, 'token=ghp_[masked]');
  });
});
