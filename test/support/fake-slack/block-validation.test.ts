import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BLOCK_RULES,
  type BlockIssue,
  formatIssue,
  validateMessageBlocks,
  validateView,
} from './index.js';
import { SLACK_LIMITS } from './slack-limits.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const option = (value: string, text = value) => ({ text: plain(text), value });
const section = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'section',
  text: { type: 'mrkdwn', text },
  ...extra,
});
const button = (actionId: string, text = 'Go') => ({
  type: 'button',
  action_id: actionId,
  text: plain(text),
  value: 'v',
});
const modal = (blocks: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'modal',
  title: plain('Questions'),
  submit: plain('Send'),
  blocks,
  ...extra,
});

const rules = (issues: BlockIssue[]) => issues.map((i) => i.rule);
const only = (issues: BlockIssue[]): BlockIssue => {
  assert.equal(issues.length, 1, `expected one issue, got ${JSON.stringify(issues)}`);
  return issues[0]!;
};

describe('validateMessageBlocks', () => {
  it('accepts every block shape the relay uses', () => {
    const blocks = [
      { type: 'header', text: plain('Run 42 asks') },
      section('*Q1* pick one', {
        block_id: 'q1',
        accessory: {
          type: 'static_select',
          action_id: 'pick',
          placeholder: plain('Choose'),
          options: [option('a'), option('b')],
          initial_option: option('b'),
        },
      }),
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'from *o7*' }] },
      { type: 'divider' },
      {
        type: 'actions',
        block_id: 'q2',
        elements: [
          { type: 'checkboxes', action_id: 'many', options: [option('x'), option('y')] },
          { type: 'radio_buttons', action_id: 'one', options: [option('p'), option('q')] },
          { type: 'external_select', action_id: 'ext', min_query_length: 0 },
          { type: 'multi_static_select', action_id: 'ms', options: [option('m')] },
          { type: 'multi_external_select', action_id: 'me' },
          { type: 'users_select', action_id: 'who' },
          { type: 'multi_users_select', action_id: 'whom' },
          { type: 'overflow', action_id: 'more', options: [option('skip')] },
          {
            ...button('send', 'Send'),
            style: 'primary',
            confirm: {
              title: plain('Sure?'),
              text: plain('This answers the batch'),
              confirm: plain('Yes'),
              deny: plain('No'),
            },
          },
        ],
      },
      { type: 'markdown', text: '## Preview\n\n- a\n- b' },
      {
        type: 'rich_text',
        elements: [
          { type: 'rich_text_section', elements: [{ type: 'text', text: 'hello' }] },
          { type: 'rich_text_preformatted', elements: [{ type: 'text', text: '+--+\n|  |' }] },
        ],
      },
    ];
    assert.deepEqual(validateMessageBlocks(blocks), []);
  });

  it('rejects more than 50 blocks', () => {
    const blocks = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    const issue = only(validateMessageBlocks(blocks));
    assert.equal(issue.rule, BLOCK_RULES.tooManyBlocks);
    assert.equal(issue.path, '/blocks');
  });

  it('rejects section text over 3000 characters with Slack-style text and pointer', () => {
    const issue = only(validateMessageBlocks([section('x'.repeat(3001))]));
    assert.equal(issue.rule, BLOCK_RULES.tooLong);
    assert.equal(issue.path, '/blocks/0/text/text');
    assert.match(
      formatIssue(issue),
      /^must be less than 3001 characters.*\[json-pointer:\/blocks\/0\/text\/text\]$/,
    );
  });

  it('counts code points, so 3000 emoji fit in a section', () => {
    assert.deepEqual(validateMessageBlocks([section('😀'.repeat(3000))]), []);
  });

  it('rejects empty text', () => {
    const issue = only(validateMessageBlocks([section('')]));
    assert.equal(issue.rule, BLOCK_RULES.emptyText);
    assert.equal(issue.path, '/blocks/0/text/text');
  });

  const lengthCases: Array<[string, unknown, string]> = [
    ['header text', { type: 'header', text: plain('h'.repeat(151)) }, '/blocks/0/text/text'],
    [
      'button text',
      { type: 'actions', elements: [button('b', 'b'.repeat(76))] },
      '/blocks/0/elements/0/text/text',
    ],
    [
      'option text',
      {
        type: 'actions',
        elements: [
          { type: 'radio_buttons', action_id: 'r', options: [option('v', 't'.repeat(76))] },
        ],
      },
      '/blocks/0/elements/0/options/0/text/text',
    ],
    [
      'option value',
      {
        type: 'actions',
        elements: [
          { type: 'radio_buttons', action_id: 'r', options: [option('v'.repeat(151), 'short')] },
        ],
      },
      '/blocks/0/elements/0/options/0/value',
    ],
    [
      'option description',
      {
        type: 'actions',
        elements: [
          {
            type: 'checkboxes',
            action_id: 'c',
            options: [{ ...option('v'), description: plain('d'.repeat(76)) }],
          },
        ],
      },
      '/blocks/0/elements/0/options/0/description/text',
    ],
    [
      'placeholder',
      {
        type: 'actions',
        elements: [
          {
            type: 'static_select',
            action_id: 's',
            placeholder: plain('p'.repeat(151)),
            options: [option('a')],
          },
        ],
      },
      '/blocks/0/elements/0/placeholder/text',
    ],
    ['block_id', { type: 'divider', block_id: 'b'.repeat(256) }, '/blocks/0/block_id'],
    [
      'action_id',
      { type: 'actions', elements: [button('a'.repeat(256))] },
      '/blocks/0/elements/0/action_id',
    ],
  ];
  for (const [what, block, path] of lengthCases) {
    it(`rejects an over-long ${what}`, () => {
      const issue = only(validateMessageBlocks([block]));
      assert.equal(issue.rule, BLOCK_RULES.tooLong);
      assert.equal(issue.path, path);
    });
  }

  it('rejects more than 10 radio or checkbox options and more than 100 select options', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => option(`o${i}`));
    const issues = validateMessageBlocks([
      {
        type: 'actions',
        elements: [
          { type: 'radio_buttons', action_id: 'r', options: many(11) },
          { type: 'checkboxes', action_id: 'c', options: many(11) },
          { type: 'static_select', action_id: 's', options: many(101) },
          { type: 'multi_static_select', action_id: 'm', options: many(100) },
        ],
      },
    ]);
    assert.deepEqual(
      issues.map((i) => [i.rule, i.path]),
      [
        [BLOCK_RULES.tooManyItems, '/blocks/0/elements/0/options'],
        [BLOCK_RULES.tooManyItems, '/blocks/0/elements/1/options'],
        [BLOCK_RULES.tooManyItems, '/blocks/0/elements/2/options'],
      ],
    );
  });

  it('rejects more than 25 elements in an actions block and more than 10 in a context block', () => {
    const issues = validateMessageBlocks([
      { type: 'actions', elements: Array.from({ length: 26 }, (_, i) => button(`b${i}`)) },
      { type: 'context', elements: Array.from({ length: 11 }, () => plain('c')) },
    ]);
    assert.deepEqual(
      issues.map((i) => [i.rule, i.path]),
      [
        [BLOCK_RULES.tooManyItems, '/blocks/0/elements'],
        [BLOCK_RULES.tooManyItems, '/blocks/1/elements'],
      ],
    );
  });

  it('rejects markdown blocks over 12,000 characters in total per message', () => {
    const half = 'm'.repeat(SLACK_LIMITS.message.markdownTotal / 2);
    assert.deepEqual(
      validateMessageBlocks([
        { type: 'markdown', text: half },
        { type: 'markdown', text: half },
      ]),
      [],
    );
    const issue = only(
      validateMessageBlocks([
        { type: 'markdown', text: half },
        { type: 'markdown', text: `${half}!` },
      ]),
    );
    assert.equal(issue.rule, BLOCK_RULES.markdownTotalTooLong);
  });

  it('rejects duplicate block_ids in a message and duplicate action_ids within a block', () => {
    const issues = validateMessageBlocks([
      { type: 'divider', block_id: 'same' },
      { type: 'actions', block_id: 'same', elements: [button('a'), button('a')] },
      { type: 'actions', block_id: 'other', elements: [button('a')] },
    ]);
    assert.deepEqual(
      issues.map((i) => [i.rule, i.path]),
      [
        [BLOCK_RULES.duplicateBlockId, '/blocks/1/block_id'],
        [BLOCK_RULES.duplicateActionId, '/blocks/1/elements/1/action_id'],
      ],
    );
  });

  it('forbids input blocks in messages under the named rule input_block_in_message', () => {
    const issue = only(
      validateMessageBlocks([
        {
          type: 'input',
          label: plain('Answer'),
          element: { type: 'plain_text_input', action_id: 'text' },
        },
      ]),
    );
    assert.equal(issue.rule, 'input_block_in_message');
    assert.equal(issue.path, '/blocks/0/type');
  });

  it('rejects unknown block and element types', () => {
    const issues = validateMessageBlocks([
      { type: 'carousel' },
      { type: 'actions', elements: [{ type: 'datepicker', action_id: 'd' }] },
      section('s', { accessory: { type: 'plain_text_input', action_id: 't' } }),
    ]);
    assert.deepEqual(rules(issues), [
      BLOCK_RULES.unknownBlockType,
      BLOCK_RULES.unknownElementType,
      BLOCK_RULES.elementNotAllowedHere,
    ]);
  });

  it('requires initial_option(s) to be among the options', () => {
    const issues = validateMessageBlocks([
      {
        type: 'actions',
        elements: [
          {
            type: 'static_select',
            action_id: 's',
            options: [option('a'), option('b')],
            initial_option: option('c'),
          },
          {
            type: 'checkboxes',
            action_id: 'c',
            options: [option('a'), option('b')],
            initial_options: [option('a'), option('b', 'renamed')],
          },
        ],
      },
    ]);
    assert.deepEqual(
      issues.map((i) => [i.rule, i.path]),
      [
        [BLOCK_RULES.initialOptionNotInOptions, '/blocks/0/elements/0/initial_option'],
        [BLOCK_RULES.initialOptionNotInOptions, '/blocks/0/elements/1/initial_options/1'],
      ],
    );
  });

  it('requires plain_text where Slack does (header, button, select option text)', () => {
    const issues = validateMessageBlocks([
      { type: 'header', text: { type: 'mrkdwn', text: '*h*' } },
      { type: 'actions', elements: [{ ...button('b'), text: { type: 'mrkdwn', text: 'x' } }] },
    ]);
    assert.deepEqual(
      issues.map((i) => [i.rule, i.path]),
      [
        [BLOCK_RULES.invalidField, '/blocks/0/text/type'],
        [BLOCK_RULES.invalidField, '/blocks/1/elements/0/text/type'],
      ],
    );
  });

  it('requires a section to have text or fields', () => {
    const issue = only(validateMessageBlocks([{ type: 'section' }]));
    assert.equal(issue.rule, BLOCK_RULES.missingField);
    assert.equal(issue.path, '/blocks/0');
  });
});

describe('validateView', () => {
  it('accepts a modal with input blocks of every kind the relay uses', () => {
    const view = modal(
      [
        section('Question 1'),
        {
          type: 'input',
          block_id: 'free',
          label: plain('Answer'),
          element: {
            type: 'plain_text_input',
            action_id: 'text',
            multiline: true,
            max_length: 3000,
          },
        },
        {
          type: 'input',
          block_id: 'other',
          optional: true,
          label: plain('Other'),
          element: { type: 'external_select', action_id: 'ext', min_query_length: 1 },
        },
        {
          type: 'input',
          block_id: 'who',
          label: plain('Who'),
          element: { type: 'multi_users_select', action_id: 'users' },
        },
      ],
      { private_metadata: 'm'.repeat(3000), callback_id: 'answer', close: plain('Cancel') },
    );
    assert.deepEqual(validateView(view), []);
  });

  it('rejects a title, submit or close over 24 characters and private_metadata over 3000', () => {
    const issues = validateView(
      modal([section('x')], {
        title: plain('t'.repeat(25)),
        submit: plain('s'.repeat(25)),
        close: plain('c'.repeat(25)),
        private_metadata: 'p'.repeat(3001),
      }),
    );
    assert.deepEqual(
      issues.map((i) => [i.rule, i.path]),
      [
        [BLOCK_RULES.tooLong, '/view/title/text'],
        [BLOCK_RULES.tooLong, '/view/submit/text'],
        [BLOCK_RULES.tooLong, '/view/close/text'],
        [BLOCK_RULES.tooLong, '/view/private_metadata'],
      ],
    );
  });

  it('rejects more than 100 blocks in a modal', () => {
    const blocks = Array.from({ length: 101 }, () => ({ type: 'divider' }));
    assert.deepEqual(rules(validateView(modal(blocks))), [BLOCK_RULES.tooManyBlocks]);
    assert.deepEqual(validateView(modal(blocks.slice(1))), []);
  });

  it('rejects markdown blocks in views (not supported in modals or App Home)', () => {
    const issue = only(validateView(modal([{ type: 'markdown', text: '# hi' }])));
    assert.equal(issue.rule, BLOCK_RULES.markdownBlockInView);
    assert.equal(issue.path, '/view/blocks/0/type');
    const home = validateView({ type: 'home', blocks: [{ type: 'markdown', text: '# hi' }] });
    assert.deepEqual(rules(home), [BLOCK_RULES.markdownBlockInView]);
  });

  it('rejects duplicate block_ids across the view', () => {
    const issue = only(
      validateView(modal([section('a', { block_id: 'x' }), section('b', { block_id: 'x' })])),
    );
    assert.equal(issue.rule, BLOCK_RULES.duplicateBlockId);
    assert.equal(issue.path, '/view/blocks/1/block_id');
  });

  it('requires submit when a modal has input blocks, and a title for modals', () => {
    const issues = validateView({
      type: 'modal',
      blocks: [
        {
          type: 'input',
          label: plain('Answer'),
          element: { type: 'plain_text_input', action_id: 'text' },
        },
      ],
    });
    assert.deepEqual(rules(issues), [BLOCK_RULES.missingField, BLOCK_RULES.submitRequired]);
    assert.equal(issues[0]?.path, '/view/title');
  });

  it('rejects elements an input block cannot hold', () => {
    const issue = only(
      validateView(modal([{ type: 'input', label: plain('x'), element: button('b') }])),
    );
    assert.equal(issue.rule, BLOCK_RULES.elementNotAllowedHere);
  });
});
