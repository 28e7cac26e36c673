import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Question } from '../../../../src/core/protocol/questions/question.js';
import { decodeAction } from '../../../../src/core/slack/controls/decode-action.js';
import { ACTION_KINDS, actionId, parseBlockId } from '../../../../src/core/slack/controls/ids.js';
import {
  layoutAt,
  MESSAGE_BUDGET,
  MOST_SPLITS,
} from '../../../../src/core/slack/layout/message-budget.js';
import {
  renderBatchMessages,
  type SlackMessage,
} from '../../../../src/core/slack/messages/render-batch-messages.js';
import {
  assertWithinLimits,
  blocksOf,
  elementsOf,
  KEY,
  makeView,
  optionTexts,
  overBudget,
  REVISION,
  textOf,
} from '../fixtures.js';

const chooseOne = (id: string, options: string[], prompt = `Pick for ${id}`): Question => ({
  id,
  type: 'choose-one',
  prompt,
  options,
});
const chooseMany = (id: string, options: string[], prompt = `Pick any for ${id}`): Question => ({
  id,
  type: 'choose-many',
  prompt,
  options,
});
const yesNo = (id: string, prompt = `Yes or no for ${id}?`): Question => ({
  id,
  type: 'yes-no',
  prompt,
});
const freeWrite = (id: string, prompt = `Describe ${id}`): Question => ({
  id,
  type: 'free-write',
  prompt,
});

// A second question keeps a batch out of the one-tap layout.
const withFiller = (question: Question): Question[] => [question, freeWrite('filler')];

/** Renders `question` (with a filler after it), checks the limits, returns its `type` element. */
function renderedControl(question: Question, type: string) {
  const messages = renderBatchMessages(makeView(withFiller(question)));
  assertWithinLimits(messages);
  const [control] = elementsOf(messages).filter((e) => e.element.type === type);
  assert.ok(control, `no ${type}`);
  return control;
}

describe('renderBatchMessages: controls by option count', () => {
  const cases = [
    { count: 3, one: 'radio_buttons', many: 'checkboxes' },
    { count: 12, one: 'static_select', many: 'multi_static_select' },
    { count: 150, one: 'external_select', many: 'multi_external_select' },
  ] as const;
  for (const { count, one, many } of cases) {
    it(`choose-one with ${count} options uses ${one}, valued by index`, () => {
      const control = renderedControl(chooseOne('q', optionTexts(count)), one);
      assert.equal(control.element.action_id, actionId(ACTION_KINDS.choose, 0));
      assert.deepEqual(parseBlockId(control.blockId), {
        key: KEY,
        revision: REVISION,
        questionIndex: 0,
      });
      if (count <= 100) {
        const options = control.element.options as { value: string }[];
        assert.deepEqual(
          options.map((o) => o.value),
          optionTexts(count).map((_, i) => String(i)),
        );
      } else {
        assert.equal(control.element.min_query_length, 0);
        assert.equal(control.element.options, undefined);
      }
    });
    it(`choose-many with ${count} options uses ${many}`, () => {
      const control = renderedControl(chooseMany('q', optionTexts(count)), many);
      assert.equal(control.element.action_id, actionId(ACTION_KINDS.chooseMany, 0));
      if (count > 100) assert.equal(control.element.min_query_length, 0);
    });
    it(`drafts at ${count} options show as initial selections`, () => {
      const options = optionTexts(count);
      const view = makeView([chooseOne('a', options), chooseMany('b', options)], {
        drafts: { a: options[1] as string, b: [options[2] as string, options[0] as string] },
      });
      const messages = renderBatchMessages(view);
      assertWithinLimits(messages);
      const [a, b] = elementsOf(messages).filter((e) =>
        String(e.element.action_id).startsWith(ACTION_KINDS.choose),
      );
      assert.deepEqual(a?.element.initial_option, {
        text: { type: 'plain_text', text: 'Option 2', emoji: true },
        value: '1',
      });
      const initial = b?.element.initial_options as { value: string }[];
      assert.deepEqual(
        initial.map((o) => o.value),
        ['0', '2'],
      );
    });
  }
});

describe('renderBatchMessages: long option text', () => {
  const long = `${'A very long option that keeps going '.repeat(4)}<!channel> & end`;
  const options = ['short', long, 'third'];

  it('cuts the label at 75 with an ellipsis and lists the full text near the control', () => {
    const messages = renderBatchMessages(makeView(withFiller(chooseOne('q', options))));
    assertWithinLimits(messages);
    const [control] = elementsOf(messages).filter((e) => e.element.type === 'radio_buttons');
    assert.ok(control);
    const labels = (control.element.options as { text: { text: string } }[]).map(
      (o) => o.text.text,
    );
    assert.equal(labels[1]?.length, 75);
    assert.ok(labels[1]?.endsWith('…'));
    const blocks = messages[0]?.blocks ?? [];
    const controlAt = blocks.findIndex((b) => b.block_id === control?.blockId);
    const listing = blocks[controlAt + 1];
    assert.equal(listing?.type, 'context');
    const listingText = textOf(listing);
    assert.ok(listingText.includes('2. A very long option'));
    assert.ok(listingText.includes('&lt;!channel&gt; &amp; end'));
  });

  for (const count of [3, 12, 150]) {
    it(`round-trips to the exact original string at ${count} options`, () => {
      const many = [...optionTexts(count - 1), long];
      const questions = [chooseOne('one', many), chooseMany('many', many)];
      const last = String(count - 1);
      const one = decodeAction(
        {
          block_id: `o7|${KEY}|${REVISION}|q0`,
          action_id: actionId(ACTION_KINDS.choose, 0),
          type: 'static_select',
          selected_option: { value: last },
        },
        questions,
      );
      assert.deepEqual(one, {
        kind: 'draft',
        key: KEY,
        revision: REVISION,
        questionId: 'one',
        answer: long,
      });
      const manyAnswer = decodeAction(
        {
          block_id: `o7|${KEY}|${REVISION}|q1`,
          action_id: actionId(ACTION_KINDS.chooseMany, 1),
          type: 'checkboxes',
          selected_options: [{ value: last }, { value: '0' }],
        },
        questions,
      );
      assert.deepEqual(manyAnswer?.kind === 'draft' && manyAnswer.answer, ['Option 1', long]);
    });
  }

  it('puts very many long options behind a "Show full options" button', () => {
    const longOnes = Array.from({ length: 60 }, (_, i) => `${i} ${'word '.repeat(30)}`);
    const messages = renderBatchMessages(makeView(withFiller(chooseOne('q', longOnes))));
    assertWithinLimits(messages);
    const button = elementsOf(messages).find(
      (e) => e.element.action_id === actionId(ACTION_KINDS.showOptions, 0),
    );
    assert.ok(button);
    assert.deepEqual(parseBlockId(button.blockId), {
      key: KEY,
      revision: REVISION,
      questionIndex: 0,
      role: 'options',
    });
  });
});

describe('renderBatchMessages: yes-no and free-write', () => {
  it('shows Yes and No, the drafted one primary with a tick', () => {
    const messages = renderBatchMessages(
      makeView([yesNo('a'), yesNo('b')], { drafts: { a: false } }),
    );
    assertWithinLimits(messages);
    const buttons = elementsOf(messages).filter((e) =>
      String(e.element.action_id).startsWith(ACTION_KINDS.yesNo),
    );
    const summary = buttons.map((b) => [
      (b.element.text as { text: string }).text,
      b.element.value,
      b.element.style ?? null,
    ]);
    assert.deepEqual(summary, [
      ['Yes', 'yes', null],
      ['✓ No', 'no', 'primary'],
      ['Yes', 'yes', null],
      ['No', 'no', null],
    ]);
  });

  it('offers "Write answer", then quotes the escaped draft with "Edit answer"', () => {
    const empty = renderBatchMessages(makeView([freeWrite('a'), yesNo('b')]));
    const labels = (ms: typeof empty) =>
      elementsOf(ms)
        .filter((e) => e.element.action_id === actionId(ACTION_KINDS.freeWrite, 0))
        .map((e) => (e.element.text as { text: string }).text);
    assert.deepEqual(labels(empty), ['Write answer']);
    const drafted = renderBatchMessages(
      makeView([freeWrite('a'), yesNo('b')], { drafts: { a: 'line one <@U999>\nline & two' } }),
    );
    assertWithinLimits(drafted);
    assert.deepEqual(labels(drafted), ['Edit answer']);
    assert.ok(textOf(drafted).includes('>line one &lt;@\u2060U999&gt;\\n>line &amp; two'));
  });

  it('cuts a very long draft at 3000 with a note', () => {
    const draft = '<&>'.repeat(3000);
    const messages = renderBatchMessages(
      makeView([freeWrite('a'), yesNo('b')], { drafts: { a: draft } }),
    );
    assertWithinLimits(messages);
    assert.match(textOf(messages), /first \d+ of 9000 characters shown/);
  });
});

describe('renderBatchMessages: escaping agent text', () => {
  it('escapes prompt, run name, note and shows options and previews literally', () => {
    const evil = '<!channel> <@U123> <http://evil.example|looks safe> & co';
    const view = makeView(
      [
        {
          ...chooseOne('a', [evil, 'b']),
          prompt: evil,
          preview: { type: 'markdown', content: evil },
        },
        { ...freeWrite('b'), prompt: evil, preview: { type: 'ascii', content: evil } },
      ],
      { runName: `run ${evil}`, state: { kind: 'open', note: evil } },
    );
    const messages = renderBatchMessages(view);
    assertWithinLimits(messages); // includes: no unescaped "<" or "&" in any mrkdwn
    const all = textOf(messages);
    assert.ok(
      all.includes(
        '*1.* &lt;!channel&gt; &lt;@\u2060U123&gt; &lt;http://evil.example|looks safe&gt; &amp; co',
      ),
    );
    assert.ok(messages[0]?.text.includes('&lt;!channel&gt;'));
    const blocks = blocksOf(messages);
    const markdown = blocks.find((b) => b.type === 'markdown');
    // standard Markdown: no mrkdwn tokens to escape; only the @ that could start a mention is defused
    assert.deepEqual(markdown, { type: 'markdown', text: evil.replace('<@', '<@\u2060') });
    const rich = blocks.find((b) => b.type === 'rich_text');
    assert.ok(textOf(rich).includes(JSON.stringify(evil).slice(1, -1)));
  });
});

describe('renderBatchMessages: previews', () => {
  it('renders markdown in a markdown block and ascii in preformatted rich text, before the prompt', () => {
    const art = '+--+\n|  |\n+--+';
    const messages = renderBatchMessages(
      makeView([
        { ...yesNo('a'), preview: { type: 'markdown', content: '# Title\n**bold**' } },
        { ...yesNo('b'), preview: { type: 'ascii', content: art } },
      ]),
    );
    assertWithinLimits(messages);
    const blocks = messages[0]?.blocks ?? [];
    const types = blocks.map((b) => b.type);
    assert.deepEqual(types, [
      'header',
      'context',
      'markdown',
      'section',
      'actions',
      'rich_text',
      'section',
      'actions',
      'actions',
    ]);
    assert.deepEqual(blocks[5], {
      type: 'rich_text',
      elements: [{ type: 'rich_text_preformatted', elements: [{ type: 'text', text: art }] }],
    });
  });

  for (const type of ['markdown', 'ascii'] as const) {
    it(`cuts an over-long ${type} preview with a note and a "Show full preview" button`, () => {
      const content = `${'line of preview text\n'.repeat(2000)}END`;
      const messages = renderBatchMessages(
        makeView([{ ...yesNo('a'), preview: { type, content } }, yesNo('b')]),
      );
      assertWithinLimits(messages);
      const all = textOf(messages);
      const cut = /Preview cut at (\d+) of (\d+) characters/.exec(all);
      assert.ok(cut, 'no cut note');
      assert.equal(Number(cut[2]), content.length);
      assert.ok(Number(cut[1]) > 1000 && Number(cut[1]) < content.length);
      const button = elementsOf(messages).find(
        (e) => e.element.action_id === actionId(ACTION_KINDS.showPreview, 0),
      );
      assert.ok(button);
      assert.equal(parseBlockId(button.blockId)?.role, 'preview');
      const shown = blocksOf(messages).find((b) => b.type === 'markdown' || b.type === 'rich_text');
      assert.ok(
        textOf(shown).startsWith(`{"type":"${type === 'markdown' ? 'markdown' : 'rich_text'}"`),
      );
      assert.ok(!all.includes('END'), 'the end of the preview is only in the modal');
    });
  }

  it('keeps a preview that fits whole, with no cut note', () => {
    const content = 'x'.repeat(5000);
    const messages = renderBatchMessages(
      makeView([{ ...yesNo('a'), preview: { type: 'markdown', content } }]),
    );
    assertWithinLimits(messages);
    assert.ok(!textOf(messages).includes('Preview cut'));
  });
});

describe('renderBatchMessages: big batches split into a thread', () => {
  const questions: Question[] = Array.from({ length: 60 }, (_, i) => {
    switch (i % 4) {
      case 0:
        return chooseOne(`q${i}`, optionTexts(12));
      case 1:
        return chooseMany(`q${i}`, optionTexts(5));
      case 2:
        return yesNo(`q${i}`);
      default:
        return freeWrite(`q${i}`);
    }
  });
  const messages = renderBatchMessages(makeView(questions));

  it('uses several messages, each within every limit', () => {
    assert.ok(messages.length > 1);
    assertWithinLimits(messages);
  });

  it('puts exactly one Submit button in the last message', () => {
    const submits = messages.map(
      (m) => elementsOf([m]).filter((e) => e.element.action_id === ACTION_KINDS.submit).length,
    );
    assert.deepEqual(submits, [...submits.slice(0, -1).map(() => 0), 1]);
  });

  it('shows every question exactly once, in order', () => {
    const indices = elementsOf(messages)
      .map((e) => parseBlockId(e.blockId))
      .filter((p) => p?.questionIndex !== undefined && p.role === undefined)
      .map((p) => p?.questionIndex);
    assert.deepEqual(
      [...new Set(indices)],
      questions.map((_, i) => i),
    );
  });

  it('labels continuation messages and says where the rest is', () => {
    assert.match(textOf(messages[0]?.blocks), /questions 1–\d+ here, the rest in the thread/);
    assert.match(messages[1]?.text ?? '', /\(continued, message 2 of \d+\)/);
    const header = messages[1]?.blocks[0];
    assert.equal(header?.type === 'header' && header.text.text, 'Run run-42 · batch 3 (continued)');
  });

  it('flows a prompt too long for one message across messages without losing any of it', () => {
    const prompt = 'word '.repeat(12_000).trim();
    const long = renderBatchMessages(makeView([freeWrite('a', prompt), yesNo('b')]));
    assert.ok(long.length > 1);
    assertWithinLimits(long);
    const sections = blocksOf(long).flatMap((b) =>
      b.type === 'section' && b.text ? [b.text.text] : [],
    );
    const joined = sections.join('').replace(/^\*1\.\* /, '');
    assert.ok(joined.startsWith(prompt));
  });
});

describe('renderBatchMessages: smaller layouts after Slack refused a page as too long', () => {
  // A dense batch: a long markdown preview and a dozen questions with long options.
  const longOptions = (i: number) =>
    Array.from({ length: 6 }, (_, o) => `Option ${o} for step ${i}: ${'words '.repeat(10)}`);
  const questions: Question[] = Array.from({ length: 12 }, (_, i) =>
    i === 0
      ? {
          ...chooseOne(`q${i}`, longOptions(i)),
          preview: {
            type: 'markdown',
            content: `${'A line of the plan to review.\n'.repeat(150)}`,
          },
        }
      : i % 2 === 0
        ? chooseOne(`q${i}`, longOptions(i))
        : chooseMany(`q${i}`, longOptions(i)),
  );
  const view = makeView(questions);
  const full = renderBatchMessages(view);

  /** The question indices each message holds, in order. */
  const questionsPerMessage = (messages: SlackMessage[]): number[][] =>
    messages.map((m) => [
      ...new Set(
        m.blocks.flatMap((b) => {
          const parsed = b.block_id ? parseBlockId(b.block_id) : undefined;
          return parsed?.questionIndex === undefined ? [] : [parsed.questionIndex];
        }),
      ),
    ]);

  const submitsPerMessage = (messages: SlackMessage[]) =>
    messages.map(
      (m) => elementsOf([m]).filter((e) => e.element.action_id === ACTION_KINDS.submit).length,
    );

  const everyQuestionOnceInOrder = (messages: SlackMessage[]) =>
    assert.deepEqual(
      questionsPerMessage(messages).flat(),
      questions.map((_, i) => i),
    );

  it('at the first refusal, uses more messages, each within half the budget', () => {
    const half = layoutAt(1).budget;
    assert.equal(half.weight, MESSAGE_BUDGET.weight / 2);
    const messages = renderBatchMessages(view, 1);
    assert.ok(messages.length > full.length, `${messages.length} > ${full.length}`);
    assertWithinLimits(messages, half);
    everyQuestionOnceInOrder(messages);
    assert.ok(
      questionsPerMessage(messages).some((indices) => indices.length > 1),
      'questions still share messages',
    );
    assert.deepEqual(submitsPerMessage(messages), [...messages.slice(1).map(() => 0), 1]);
  });

  it('the full layout would not fit half the budget (so the split is needed)', () => {
    const problems = full.flatMap((m) => overBudget(m, layoutAt(1).budget));
    assert.ok(problems.length > 0);
  });

  it('at the second refusal, puts every question on a message of its own', () => {
    const messages = renderBatchMessages(view, MOST_SPLITS);
    assertWithinLimits(messages, layoutAt(MOST_SPLITS).budget);
    assert.deepEqual(
      questionsPerMessage(messages),
      questions.map((_, i) => [i]),
    );
    assert.deepEqual(submitsPerMessage(messages), [...messages.slice(1).map(() => 0), 1]);
    assert.match(messages[1]?.text ?? '', /\(continued, message 2 of 12\)/);
  });

  it('one question per message, even for small questions that would fit together', () => {
    const small = makeView([yesNo('a'), yesNo('b'), freeWrite('c')]);
    assert.equal(renderBatchMessages(small, 1).length, 1);
    const alone = renderBatchMessages(small, MOST_SPLITS);
    assertWithinLimits(alone, layoutAt(MOST_SPLITS).budget);
    assert.deepEqual(questionsPerMessage(alone), [[0], [1], [2]]);
  });

  it('a question too long for one small message flows over several, none shared', () => {
    const prompt = 'word '.repeat(6_000).trim();
    const messages = renderBatchMessages(makeView([freeWrite('a', prompt), yesNo('b')]), 2);
    assertWithinLimits(messages, layoutAt(2).budget);
    const perMessage = questionsPerMessage(messages);
    assert.ok(
      perMessage.every((indices) => indices.length <= 1),
      JSON.stringify(perMessage),
    );
    assert.deepEqual(perMessage.at(-1), [1]);
    const sections = blocksOf(messages).flatMap((b) =>
      b.type === 'section' && b.text ? [b.text.text] : [],
    );
    assert.ok(
      sections
        .join('')
        .replace(/^\*1\.\* /, '')
        .startsWith(prompt),
    );
  });
});

describe('renderBatchMessages: one-tap batches', () => {
  it('renders a single yes-no question as two buttons and no Submit', () => {
    const messages = renderBatchMessages(makeView([yesNo('a')]));
    assertWithinLimits(messages);
    const elements = elementsOf(messages);
    assert.deepEqual(
      elements.map((e) => [e.element.action_id, e.element.value]),
      [
        [actionId(ACTION_KINDS.oneTap, 0, 'yes'), 'yes'],
        [actionId(ACTION_KINDS.oneTap, 0, 'no'), 'no'],
      ],
    );
  });

  it('renders one choose-one question of up to 5 options as one button each', () => {
    const messages = renderBatchMessages(makeView([chooseOne('a', ['JSON', 'CSV', 'plain text'])]));
    assertWithinLimits(messages);
    const elements = elementsOf(messages);
    assert.equal(new Set(elements.map((e) => e.blockId)).size, 1);
    assert.deepEqual(
      elements.map((e) => [(e.element.text as { text: string }).text, e.element.value]),
      [
        ['JSON', '0'],
        ['CSV', '1'],
        ['plain text', '2'],
      ],
    );
    assert.ok(!elements.some((e) => e.element.action_id === ACTION_KINDS.submit));
  });

  const notOneTap: [string, Question[]][] = [
    ['6 options', [chooseOne('a', optionTexts(6))]],
    ['an option over 75 characters', [chooseOne('a', ['x'.repeat(76), 'y'])]],
    ['two questions', [yesNo('a'), yesNo('b')]],
    ['a choose-many question', [chooseMany('a', ['x', 'y'])]],
    ['a free-write question', [freeWrite('a')]],
  ];
  for (const [label, questions] of notOneTap) {
    it(`keeps the Submit button for ${label}`, () => {
      const messages = renderBatchMessages(makeView(questions));
      assertWithinLimits(messages);
      assert.ok(elementsOf(messages).some((e) => e.element.action_id === ACTION_KINDS.submit));
      assert.ok(
        !elementsOf(messages).some((e) =>
          String(e.element.action_id).startsWith(ACTION_KINDS.oneTap),
        ),
      );
    });
  }
});

describe('renderBatchMessages: states', () => {
  const questions = [
    chooseOne('format', ['JSON', 'CSV']),
    chooseMany('tags', ['a', 'b', 'c']),
    yesNo('ok'),
    freeWrite('why'),
  ];
  const drafts = { format: 'CSV', tags: ['a', 'c'], ok: true };
  const at = new Date('2026-03-04T05:06:07.000Z');

  it('shows a note under the header of an open batch', () => {
    const note = 'No q-out-002.json exists; this batch follows batch 1.';
    const messages = renderBatchMessages(makeView(questions, { state: { kind: 'open', note } }));
    assertWithinLimits(messages);
    assert.deepEqual(messages[0]?.blocks[2], {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: note }],
    });
  });

  it('warns visibly when submitting failed and keeps Submit', () => {
    const messages = renderBatchMessages(
      makeView(questions, {
        drafts,
        state: { kind: 'submit-failed', error: 'EACCES: <denied> & gone' },
      }),
    );
    assertWithinLimits(messages);
    const blocks = messages.at(-1)?.blocks ?? [];
    const warning = blocks.at(-2);
    assert.equal(warning?.type, 'section');
    assert.ok(textOf(warning).includes('EACCES: &lt;denied&gt; &amp; gone'));
    assert.equal(elementsOf(messages).at(-1)?.element.action_id, ACTION_KINDS.submit);
    assert.match(messages[0]?.text ?? '', /^Answers not saved: /);
  });

  const finals = [
    [
      { kind: 'answered', by: 'U0123ABC', at },
      'Answered by <@U0123ABC> <!date^1772600767^{date_short_pretty} at {time}|2026-03-04 05:06 UTC>',
      'Answered: ',
    ],
    [{ kind: 'answered-elsewhere', at }, 'Answered in another tool', 'Answered in another tool: '],
    [{ kind: 'withdrawn', at }, 'Withdrawn by the agent', 'Withdrawn: '],
    [{ kind: 'run-removed', at }, 'Run folder removed', 'Run folder removed: '],
  ] as const;
  for (const [state, line, prefix] of finals) {
    it(`renders ${state.kind} with answers, no controls and a status line`, () => {
      const messages = renderBatchMessages(makeView(questions, { drafts, state }));
      assertWithinLimits(messages);
      assert.equal(elementsOf(messages).length, 0);
      const status = messages[0]?.blocks[2];
      assert.equal(status?.type, 'context');
      assert.ok(
        textOf(status).startsWith(`{"type":"context","elements":[{"type":"mrkdwn","text":"${line}`),
      );
      const all = textOf(messages);
      assert.ok(all.includes('*Answer:*\\n>CSV'));
      assert.ok(all.includes('*Answer:*\\n>• a\\n>• c'));
      assert.ok(all.includes('*Answer:*\\n>Yes'));
      assert.ok(all.includes('*Answer:*\\n>—'));
      assert.ok(
        messages[0]?.text.startsWith(
          `${prefix}Run run-42, batch 3: Pick for format (+3 more questions)`,
        ),
      );
    });
  }

  it('never links an answerer id that is not a Slack user id', () => {
    const messages = renderBatchMessages(
      makeView(questions, { state: { kind: 'answered', by: '<!channel>', at } }),
    );
    assertWithinLimits(messages);
    assert.ok(textOf(messages).includes('Answered by &lt;!channel&gt;'));
  });
});

describe('renderBatchMessages: frame', () => {
  it('cuts a long run name in the header at 150 with an ellipsis', () => {
    const messages = renderBatchMessages(makeView([yesNo('a')], { runName: 'r'.repeat(300) }));
    assertWithinLimits(messages);
    const header = messages[0]?.blocks[0];
    assert.ok(header?.type === 'header');
    assert.equal(header.text.text.length, 150);
    assert.ok(header.text.text.endsWith('…'));
  });

  it('says how many questions and where the run is', () => {
    const messages = renderBatchMessages(makeView([yesNo('a'), yesNo('b')]));
    assert.deepEqual(messages[0]?.blocks[1], {
      type: 'context',
      elements: [
        { type: 'plain_text', text: '/home/me/project/.7/runs/run-42 · 2 questions', emoji: true },
      ],
    });
    assert.equal(messages[0]?.text, 'Run run-42, batch 3: Yes or no for a? (+1 more question)');
  });

  it('gives block ids that are unique in each message and under 255 characters', () => {
    const questions = Array.from({ length: 30 }, (_, i) =>
      i % 2 ? chooseOne(`c${i}`, [`${'long '.repeat(20)}${i}`, 'b']) : yesNo(`y${i}`),
    );
    for (const message of renderBatchMessages(makeView(questions))) {
      const ids = message.blocks.flatMap((b) => (b.block_id ? [b.block_id] : []));
      assert.equal(new Set(ids).size, ids.length);
      assert.ok(ids.every((id) => id.length <= 255));
    }
  });

  it('renders a batch with no questions without breaking limits', () => {
    assertWithinLimits(renderBatchMessages(makeView([])));
    assertWithinLimits(
      renderBatchMessages(makeView([], { state: { kind: 'withdrawn', at: new Date(0) } })),
    );
  });
});
