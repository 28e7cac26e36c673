import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderMalformedMessage } from '../../../../src/core/slack/messages/render-malformed.js';
import { renderNotice } from '../../../../src/core/slack/messages/render-notice.js';
import { assertWithinLimits, textOf } from '../fixtures.js';

describe('renderNotice', () => {
  it('escapes the text into a section', () => {
    assert.deepEqual(renderNotice('Question 2 ("<!here>") still needs an answer.'), [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: 'Question 2 ("&lt;!here&gt;") still needs an answer.' },
      },
    ]);
  });

  it('splits long text into sections within limits', () => {
    const blocks = renderNotice('word & '.repeat(1000));
    assert.ok(blocks.length > 1);
    assertWithinLimits([{ text: 'notice', blocks }]);
  });
});

/** Batch 1 of run r, whose file could not be read. */
const MALFORMED_FILE = { runName: 'r', runDir: '/r', seq: 1, fileName: 'q-out-001.json' };

describe('renderMalformedMessage', () => {
  it('names the file and shows the error literally', () => {
    const message = renderMalformedMessage({
      runName: 'run <!channel>',
      runDir: '/runs/run',
      seq: 4,
      fileName: 'q-out-004.json',
      errorText: 'questions[0].type: expected one of choose-one… got "<@U1>"',
    });
    assertWithinLimits([message]);
    assert.equal(
      message.text,
      'Run run &lt;!channel&gt;, batch 4: q-out-004.json could not be read',
    );
    const text = textOf(message.blocks);
    assert.ok(text.includes('*q-out-004.json could not be read*'));
    assert.ok(
      text.includes(
        '"type":"rich_text_preformatted","elements":[{"type":"text","text":"questions[0].type',
      ),
    );
  });

  it('cuts a huge error text', () => {
    const huge = 'e'.repeat(50_000);
    const message = renderMalformedMessage({ ...MALFORMED_FILE, errorText: huge });
    assertWithinLimits([message]);
  });
});
