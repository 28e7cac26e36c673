import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { webApi } from '@slack/bolt';
import { classifySlackFailure, tokenFix } from '../../../src/slack/start-up/token-check.js';

const platform = (error: string) => new webApi.WebAPIPlatformError({ ok: false, error });

describe('classifySlackFailure', () => {
  test('a refusal from Slack is "rejected" with its code', () => {
    for (const code of ['invalid_auth', 'token_revoked', 'account_inactive', 'not_authed']) {
      assert.deepEqual(classifySlackFailure(platform(code)), { ok: false, kind: 'rejected', code });
    }
  });

  test('Slack\'s own try-again answers, HTTP errors, rate limits and network errors are "unreachable"', () => {
    assert.equal(classifySlackFailure(platform('service_unavailable')).kind, 'unreachable');
    assert.deepEqual(classifySlackFailure(new webApi.WebAPIHTTPError(503, 'Busy', {})), {
      ok: false,
      kind: 'unreachable',
      reason: 'HTTP 503 from Slack',
    });
    assert.equal(classifySlackFailure(new webApi.WebAPIRateLimitedError(30)).kind, 'unreachable');
    const refused = new Error('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    assert.deepEqual(classifySlackFailure(new webApi.WebAPIRequestError(refused)), {
      ok: false,
      kind: 'unreachable',
      reason: 'ECONNREFUSED',
    });
  });
});

describe('tokenFix', () => {
  test('names the variable and where to get a new token', () => {
    assert.match(
      tokenFix('SLACK_BOT_TOKEN', 'invalid_auth'),
      /^SLACK_BOT_TOKEN .*OAuth & Permissions/,
    );
    assert.match(
      tokenFix('SLACK_APP_TOKEN', 'token_revoked'),
      /^SLACK_APP_TOKEN was revoked.*App-Level Tokens/,
    );
    assert.match(tokenFix('SLACK_APP_TOKEN', 'not_allowed_token_type'), /wrong kind of token/);
  });
});
