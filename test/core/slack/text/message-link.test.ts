import assert from 'node:assert/strict';
import { test } from 'node:test';
import { messageLink } from '../../../../src/core/slack/text/message-link.js';

test('a message link is the workspace URL, archives, the channel and the ts without its dot', () => {
  assert.equal(
    messageLink('https://acme.slack.com/', 'C0RELAY01', '1700000000.000100'),
    'https://acme.slack.com/archives/C0RELAY01/p1700000000000100',
  );
  // with or without the trailing slash, on GovSlack too
  assert.equal(
    messageLink('https://acme.slack-gov.com', 'C0RELAY01', '1700000000.000100'),
    'https://acme.slack-gov.com/archives/C0RELAY01/p1700000000000100',
  );
});

test('no link from a URL that is not http(s), or from ids that are not Slack ids', () => {
  assert.equal(messageLink('not a url', 'C0RELAY01', '1.2'), undefined);
  assert.equal(messageLink('javascript:alert(1)', 'C0RELAY01', '1.2'), undefined);
  assert.equal(messageLink('https://acme.slack.com/', 'C0/../x', '1.2'), undefined);
  assert.equal(messageLink('https://acme.slack.com/', 'C0RELAY01', '12'), undefined);
});
