import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { changedLines, messageText } from '../../../scripts/demo/message-text.js';
import { readableMrkdwn } from '../../../scripts/demo/readable-mrkdwn.js';
import { batchKey } from '../../../src/core/batch/batch-key.js';
import { renderBatchMessages } from '../../../src/core/slack/render-batch-messages.js';
import { sampleBatch } from '../../support/temp-dir.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const option = (text: string, value: string) => ({ text: plain(text), value });

describe('messageText', () => {
  test('a batch as the relay renders it reads as its header, prompts, controls and buttons', () => {
    const runDir = path.join('/runs', 'run-7');
    const batch = sampleBatch(1);
    const [message] = renderBatchMessages({
      key: batchKey(runDir, 1),
      revision: 'r1',
      runName: 'run-7',
      runDir,
      seq: 1,
      questions: batch.questions as never,
      drafts: {},
      state: { kind: 'open' },
    });
    assert.ok(message);
    assert.deepEqual(messageText(message as never), [
      'Run run-7 · batch 1',
      '═══════════════════',
      `${runDir} · 4 questions`,
      '',
      '*1.* Output format?',
      '( ) JSON',
      '( ) CSV',
      '',
      '*2.* Targets?',
      '[ ] web',
      '[ ] ios',
      '[ ] android',
      '',
      '*3.* Anything else?',
      '[ Write answer ]',
      '',
      '*4.* Proceed?',
      '[ Yes ]  [ No ]',
      '[ Submit ]',
    ]);
  });

  test('controls show their current selection', () => {
    const radio = {
      type: 'radio_buttons',
      options: [option('JSON', '0'), option('CSV', '1')],
      initial_option: option('CSV', '1'),
    };
    const boxes = {
      type: 'checkboxes',
      options: [option('web', '0'), option('ios', '1'), option('android', '2')],
      initial_options: [option('web', '0'), option('android', '2')],
    };
    const select = {
      type: 'multi_static_select',
      placeholder: plain('Choose'),
      options: [option('a', '0'), option('b', '1')],
      initial_options: [option('b', '1')],
    };
    const empty = { type: 'static_select', placeholder: plain('Choose one'), options: [] };
    const blocks = [
      { type: 'actions', elements: [radio] },
      { type: 'actions', elements: [boxes] },
      { type: 'section', text: { type: 'mrkdwn', text: 'Pick' }, accessory: select },
      { type: 'actions', elements: [empty] },
    ];
    assert.deepEqual(messageText({ blocks }), [
      '( ) JSON',
      '(•) CSV',
      '[x] web',
      '[ ] ios',
      '[x] android',
      '',
      'Pick',
      '[ b ▾ ] (2 options)',
      '[ Choose one ▾ ]',
    ]);
  });

  test('previews: markdown as its source, preformatted text fenced with its spacing kept', () => {
    const blocks = [
      { type: 'markdown', text: '**Bold**\n- item' },
      {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_preformatted',
            elements: [{ type: 'text', text: 'a --> b\n    `-> c' }],
          },
        ],
      },
    ];
    assert.deepEqual(messageText({ blocks }), [
      '**Bold**',
      '- item',
      '',
      '```',
      'a --> b',
      '    `-> c',
      '```',
    ]);
  });

  test('mentions show the names given; blocks it does not know are named, not dropped', () => {
    const blocks = [
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Answered by <@U1>' }] },
      { type: 'video', title: plain('x') },
      { type: 'divider' },
    ];
    assert.deepEqual(messageText({ blocks }, { U1: 'alice' }), [
      'Answered by @alice',
      '',
      '[video block]',
      '',
      '───',
    ]);
  });
});

describe('readableMrkdwn', () => {
  test('links, mentions and dates in their visible form; escapes undone once', () => {
    assert.equal(
      readableMrkdwn(
        'See <https://x.example/a|the plan> or <https://x.example/b>; ask <@U2> in <#C1|general>, <!here>',
      ),
      'See the plan (https://x.example/a) or https://x.example/b; ask @U2 in #general, @here',
    );
    assert.equal(
      readableMrkdwn('at <!date^1700000000^{date_short} {time}|Nov 14 at 22:13>'),
      'at Nov 14 at 22:13',
    );
    assert.equal(readableMrkdwn('a &lt;b&gt; &amp;amp; c'), 'a <b> &amp; c');
  });
});

describe('changedLines', () => {
  test('the lines that are new, each earlier line matching once; blank lines left out', () => {
    assert.deepEqual(
      changedLines(
        ['( ) A', '( ) B', '', '[ ] x', '[ ] x'],
        ['( ) A', '(•) B', '', '[x] x', '[ ] x'],
      ),
      ['(•) B', '[x] x'],
    );
    assert.deepEqual(changedLines(['same'], ['same']), []);
  });
});
