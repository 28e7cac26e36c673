import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { changedLines, messageText, QUESTION_RULE } from '../../../scripts/demo/message-text.js';
import { readableMarkdown } from '../../../scripts/demo/readable-markdown.js';
import { readableMrkdwn } from '../../../scripts/demo/readable-mrkdwn.js';
import { batchKey } from '../../../src/core/batch/batch-key.js';
import { renderBatchMessages } from '../../../src/core/slack/messages/render-batch-messages.js';
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
      '1. Output format?',
      '( ) JSON',
      '( ) CSV',
      '',
      QUESTION_RULE,
      '',
      '2. Targets?',
      '[ ] web',
      '[ ] ios',
      '[ ] android',
      '',
      QUESTION_RULE,
      '',
      '3. Anything else?',
      '[ Write answer ]',
      '',
      QUESTION_RULE,
      '',
      '4. Proceed?',
      '[ Yes ]  [ No ]',
      '[ Submit ]',
    ]);
  });

  test("a question's preview starts it: the rule comes before the preview, not after", () => {
    const runDir = path.join('/runs', 'run-8');
    const [message] = renderBatchMessages({
      key: batchKey(runDir, 1),
      revision: 'r1',
      runName: 'run-8',
      runDir,
      seq: 1,
      questions: [
        { id: 'a', type: 'yes-no', prompt: 'First?' },
        {
          id: 'b',
          type: 'yes-no',
          prompt: 'Second?',
          preview: { type: 'ascii', content: 'x --> y' },
        },
      ] as never,
      drafts: {},
      state: { kind: 'open' },
    });
    assert.ok(message);
    const lines = messageText(message as never);
    const from = lines.indexOf('1. First?');
    assert.deepEqual(lines.slice(from), [
      '1. First?',
      '[ Yes ]  [ No ]',
      '',
      QUESTION_RULE,
      '',
      '```',
      'x --> y',
      '```',
      '',
      '2. Second?',
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

  test('previews: markdown as Slack shows it, preformatted text fenced with its spacing kept', () => {
    const blocks = [
      { type: 'markdown', text: '**Bold** and `code`\n- item' },
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
      'Bold and `code`',
      '',
      '• item',
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
    assert.deepEqual(messageText({ blocks }, { names: { U1: 'alice' } }), [
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
    assert.equal(readableMrkdwn('a &lt;b&gt; &amp;amp; c'), 'a <b> &amp; c');
  });

  test('a date as its reader sees it, given when and where it is read; else its fallback', () => {
    const token = `<!date^${Date.UTC(2026, 11, 4, 17, 52) / 1000}^{date_short_pretty} at {time}|2026-12-04 17:52 UTC>`;
    const read = (now: string, timeZone: string) =>
      readableMrkdwn(`Answered ${token}`, { reading: { now: new Date(now), timeZone } });
    assert.equal(read('2026-12-04T20:00:00Z', 'UTC'), 'Answered today at 5:52 PM');
    assert.equal(read('2026-12-05T09:00:00Z', 'UTC'), 'Answered yesterday at 5:52 PM');
    assert.equal(read('2026-12-20T09:00:00Z', 'UTC'), 'Answered Dec 4, 2026 at 5:52 PM');
    // past midnight in Auckland: the next day there
    assert.equal(read('2026-12-04T20:00:00Z', 'Pacific/Auckland'), 'Answered today at 6:52 AM');
    assert.equal(readableMrkdwn(`Answered ${token}`), 'Answered 2026-12-04 17:52 UTC');
    const unknown = '<!date^1700000000^{date_unheard_of}|Nov 14>';
    assert.equal(
      readableMrkdwn(unknown, { reading: { now: new Date(), timeZone: 'UTC' } }),
      'Nov 14',
    );
  });

  test('emphasis without its marks, as Slack shows it; code and words with marks inside kept', () => {
    assert.equal(
      readableMrkdwn('*1.* Which _one_, ~old~ or *_new_*?'),
      '1. Which one, old or new?',
    );
    assert.equal(
      readableMrkdwn('a*b*c, snake_case_name, `*kept*`'),
      'a*b*c, snake_case_name, `*kept*`',
    );
    assert.equal(readableMrkdwn('*Answer:*\n>• web\n>• iOS'), 'Answer:\n│ • web\n│ • iOS');
    // an agent's `>` reaches Slack escaped: it is text, not a quote
    assert.equal(readableMrkdwn('&gt; not a quote'), '> not a quote');
  });
});

describe('readableMarkdown', () => {
  test('headings, emphasis, links, lists, quotes, code and tables as plain lines', () => {
    const source = [
      '# Plan',
      '',
      'Some *em*, ~~gone~~, [the plan](https://x.example/a) and <https://y.example>.',
      '',
      '1. one',
      '2. two',
      '   - nested',
      '',
      '> quoted',
      '',
      '```',
      'a  b',
      '```',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
    ].join('\n');
    assert.deepEqual(readableMarkdown(source), [
      'Plan',
      '',
      'Some em, gone, the plan (https://x.example/a) and https://y.example.',
      '',
      '1. one',
      '2. two',
      '   • nested',
      '',
      '│ quoted',
      '',
      '```',
      'a  b',
      '```',
      '',
      '| a | b |',
      '| 1 | 2 |',
    ]);
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
