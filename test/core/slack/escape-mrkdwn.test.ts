import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeMrkdwn } from '../../../src/core/slack/escape-mrkdwn.js';

describe('escapeMrkdwn', () => {
  it('escapes &, < and >, ampersand first', () => {
    assert.equal(escapeMrkdwn('a & b < c > d'), 'a &amp; b &lt; c &gt; d');
    assert.equal(escapeMrkdwn('&lt;'), '&amp;lt;');
  });

  it('turns mentions, channel pings and disguised links into text', () => {
    assert.equal(escapeMrkdwn('<!channel>'), '&lt;!channel&gt;');
    assert.equal(escapeMrkdwn('<@U123>'), '&lt;@U123&gt;');
    assert.equal(escapeMrkdwn('<http://x|y>'), '&lt;http://x|y&gt;');
  });

  it('leaves formatting characters and other text alone', () => {
    assert.equal(escapeMrkdwn('*bold* _it_ `code` 🎉 "q"'), '*bold* _it_ `code` 🎉 "q"');
  });
});
