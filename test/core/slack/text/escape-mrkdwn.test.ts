import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defuseMentions,
  escapedLength,
  escapeMrkdwn,
} from '../../../../src/core/slack/text/escape-mrkdwn.js';

/** The invisible word joiner put after an `@` that could start a mention. */
const WJ = '\u2060';

describe('escapeMrkdwn', () => {
  it('escapes &, < and >, ampersand first', () => {
    assert.equal(escapeMrkdwn('a & b < c > d'), 'a &amp; b &lt; c &gt; d');
    assert.equal(escapeMrkdwn('&lt;'), '&amp;lt;');
  });

  it('turns mentions, channel pings and disguised links into text', () => {
    assert.equal(escapeMrkdwn('<!channel>'), '&lt;!channel&gt;');
    assert.equal(escapeMrkdwn('<@U123>'), `&lt;@${WJ}U123&gt;`);
    assert.equal(escapeMrkdwn('<http://x|y>'), '&lt;http://x|y&gt;');
  });

  it('leaves formatting characters and other text alone', () => {
    assert.equal(escapeMrkdwn('*bold* _it_ `code` 🎉 "q"'), '*bold* _it_ `code` 🎉 "q"');
  });

  it('defuses plain @here, @channel, @everyone and @name, wherever a mention could start', () => {
    assert.equal(
      escapeMrkdwn('@here (@channel) *@everyone* _@bob_ "@al" ~@x~ `@y` &@z'),
      `@${WJ}here (@${WJ}channel) *@${WJ}everyone* _@${WJ}bob_ "@${WJ}al" ~@${WJ}x~ \`@${WJ}y\` &amp;@${WJ}z`,
    );
    assert.equal(escapeMrkdwn('a\n@here'), `a\n@${WJ}here`);
  });

  it('leaves @ inside addresses and paths alone, so links keep working', () => {
    const kept = 'bob@example.com https://npmjs.com/package/@slack/bolt a+b@c.d x=@y 50%@z é@x';
    assert.equal(escapeMrkdwn(kept), kept);
  });

  it('counts an @ as two characters, so cuts made by escapedLength always fit', () => {
    assert.equal(escapedLength('@'), 2);
    for (const text of ['@here', 'a@b', '@@@', '(@x)']) {
      const counted = [...text].reduce((sum, unit) => sum + escapedLength(unit), 0);
      assert.ok(escapeMrkdwn(text).length <= counted, text);
    }
    assert.equal(defuseMentions('no at sign'), 'no at sign');
  });
});
