import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS, actionId, CALLBACK_IDS } from '../../src/core/slack/controls/ids.js';
import { escapeMrkdwn } from '../../src/core/slack/text/escape-mrkdwn.js';
import type { StoredEphemeral } from '../support/fake-slack/index.js';
import { hiddenLinks } from '../support/markdown-link-shapes.js';
import { ALICE, CHANNEL, type Harness } from '../support/relay-harness.js';
import { writeQaFile, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  answerFile,
  choose,
  click,
  controlOf,
  E2E_MODE,
  GO,
  healthyRelayPerTest,
  locate,
  mrkdwnTexts,
  plainTexts,
  postBatch,
  pressSubmit,
  pressYesNo,
  qaFiles,
  shownLabel,
  thread,
  waitForAnswered,
  waitForBatchMessage,
  writeFreeText,
  yesNoWithMarkdown,
} from './relay-steps.js';

const RUN = 'run-preview';

type Block = Record<string, unknown>;

/** The text of a rich_text block holding one preformatted element. */
function preformattedText(block: Block | undefined): string {
  assert.equal(block?.type, 'rich_text');
  const [element, ...more] = block.elements as Block[];
  assert.equal(more.length, 0);
  assert.equal(element?.type, 'rich_text_preformatted');
  const [text, ...rest] = element.elements as { type: string; text: string }[];
  assert.equal(rest.length, 0);
  assert.equal(text?.type, 'text');
  return text.text;
}

/** The index of question `n`'s first prompt section (`*n.* …`). */
const promptAt = (blocks: Block[], n: number) =>
  blocks.findIndex(
    (b) => b.type === 'section' && (b.text as { text: string }).text.startsWith(`*${n}.* `),
  );

/** Clicks "Show full preview" of question `index` and returns the modal Slack opened. */
async function openPreviewModal(h: Harness, ts: string, index: number) {
  const { found } = locate(h.slack, ts, `${ACTION_KINDS.showPreview}:${index}`);
  assert.equal((found.element.text as { text: string }).text, 'Show full preview');
  await click(h.slack, ts, `${ACTION_KINDS.showPreview}:${index}`);
  const view = await waitFor(() => h.slack.views(ALICE).at(-1), 'the preview modal');
  assert.equal(view.callback_id, CALLBACK_IDS.preview);
  assert.deepEqual(view.title, { type: 'plain_text', text: 'Preview', emoji: true });
  const blocks = view.blocks as Block[];
  assert.equal(blocks[0]?.type, 'context', 'the modal names the question first');
  return { view, body: blocks.slice(1) };
}

/** Checks the cut preview in a message: a start of the content, a note, the modal button. */
function checkCutNote(blocks: Block[], shown: string, content: string) {
  assert.ok(shown.length < content.length, 'the preview is cut');
  assert.ok(content.startsWith(shown), 'what is shown is the start of the preview');
  assert.ok(
    plainTexts(blocks).includes(`Preview cut at ${shown.length} of ${content.length} characters.`),
    `a visible note says where the preview was cut: ${plainTexts(blocks).join(' | ')}`,
  );
}

// ----- mrkdwn injection -----

const EVIL = '<!channel> <@U123> <http://evil|click> & co';
/** A run folder name is agent-chosen text too. */
const EVIL_RUN = 'run-<!here>-&-<@U123>';

const LIVE_TOKENS_ALLOWED = [
  new RegExp(`<@${ALICE}>`, 'g'), // "Answered by" names the person who answered
  /<!date\^\d+\^\{date_short_pretty\} at \{time\}\|[^<>|]+>/g, // localised time of the answer
];

/**
 * Fails if mrkdwn text would ping, link or hide anything: after the relay's own quote marks,
 * its mention of the person who answered and its date token, no `<` or `>` may remain, and
 * every `&` must start an entity.
 */
function assertInert(text: string, where: string): void {
  // a `>` opening a line is the relay's own block quote
  let rest = text.replace(/^>/gm, '');
  for (const token of LIVE_TOKENS_ALLOWED) rest = rest.replace(token, '');
  assert.ok(!/[<>]/.test(rest), `${where} has live markup: ${JSON.stringify(text)}`);
  assert.ok(!/&(?!amp;|lt;|gt;)/.test(rest), `${where} has a bare &: ${JSON.stringify(text)}`);
}

/** Every piece of mrkdwn a surface shows, and its notification text, is inert. */
function assertSurfaceInert(
  surface: { text?: string; blocks: readonly Block[] },
  where: string,
): void {
  if (surface.text !== undefined) assertInert(surface.text, `${where} (notification text)`);
  for (const text of mrkdwnTexts(surface.blocks)) assertInert(text, where);
}

// ----- links in agent markdown -----

/** Lines of the hostile preview below that reach Slack as written: a code block and an autolink. */
const KEPT_AS_WRITTEN = [
  '```js [kept](https://code.example) {x}',
  '[code stays](https://code.example)',
  '```',
  '',
  'Safe: <https://good.example/ok> and `[code](span)`.',
  '',
];

/** A markdown preview whose links try every way to hide where they go. */
const HOSTILE_PREVIEW = [
  '## Release plan',
  '',
  'Please [Approve](https://evil.example/approve "Looks safe") before noon.',
  '- [Docs `]`](https://evil.example/docs) and [nested [brackets]](https://evil.example/(a(b)))',
  '- ![status](https://img.example/s.png) and [see the plan][plan]',
  '> [<https://good.example>](https://evil.example/autolink)',
  '',
  '<div>',
  '[inside html](https://evil.example/html)',
  '</div>',
  '',
  '```a`b',
  '[not a fence](https://evil.example/fence)',
  '',
  ...KEPT_AS_WRITTEN,
  '[PLAN]: https://evil.example/plan',
].join('\n');

/** The same preview as Slack gets it: every hiding link rewritten, code and autolinks kept. */
const HOSTILE_PREVIEW_SHOWN = [
  '## Release plan',
  '',
  'Please \\[Approve\\] (https://evil.example/approve) before noon.',
  '- \\[Docs `]`\\] (https://evil.example/docs) and \\[nested [brackets]\\] (https://evil.example/(a(b)))',
  '- !\\[status\\] (https://img.example/s.png) and \\[see the plan\\] (https://evil.example/plan)',
  '> \\[<https://good.example>\\] (https://evil.example/autolink)',
  '',
  '<div>',
  '\\[inside html\\] (https://evil.example/html)',
  '</div>',
  '',
  '```a`b',
  '\\[not a fence\\] (https://evil.example/fence)',
  '',
  ...KEPT_AS_WRITTEN,
  '\\[PLAN]: https://evil.example/plan',
].join('\n');

const mode = E2E_MODE;
describe(`previews (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('a markdown preview is a markdown block and an ascii one is preformatted, above their prompts', async () => {
    const markdown = '## Plan\n\n- **bold** step\n- `code` step\n\n| a | b |\n|---|---|\n| 1 | 2 |';
    const ascii = '+-----+\n|  o  |\n| /|\\ |\n+-----+\n   spaced    out   ';
    const batch = {
      seq: 1,
      questions: [
        {
          id: 'plan',
          type: 'yes-no',
          prompt: 'Accept the plan?',
          preview: { type: 'markdown', content: markdown },
        },
        {
          id: 'art',
          type: 'choose-one',
          prompt: 'Keep the art?',
          options: ['keep', 'drop'],
          preview: { type: 'ascii', content: ascii },
        },
      ],
    };
    const posted = await postBatch(h, RUN, batch);
    const { ts, blocks } = posted;
    const first = promptAt(blocks, 1);
    assert.deepEqual(blocks[first - 1], {
      type: 'markdown',
      text: markdown,
      block_id: blocks[first - 1]?.block_id,
    });
    const second = promptAt(blocks, 2);
    assert.equal(preformattedText(blocks[second - 1]), ascii);
    assert.ok(!plainTexts(blocks).some((t) => t.startsWith('Preview cut')));

    await pressYesNo(h.slack, ts, 0, false);
    await choose(h.slack, ts, 1, ['0']);
    await pressSubmit(h.slack, ts);
    assert.deepEqual(await answerFile(h.runDir(RUN)), {
      seq: 1,
      answers: [
        { id: 'plan', type: 'yes-no', prompt: 'Accept the plan?', answer: false },
        {
          id: 'art',
          type: 'choose-one',
          prompt: 'Keep the art?',
          options: ['keep', 'drop'],
          answer: 'keep',
        },
      ],
      questions: batch.questions,
    });
  });

  test('an over-long markdown preview is cut with a note, and the modal holds all of it', async () => {
    const content = Array.from(
      { length: 400 },
      (_, i) => `Step ${i + 1}: the agent *rewrites* module ${i} & runs its tests.`,
    ).join('\n');
    assert.ok(content.length > 20_000);
    const batch = yesNoWithMarkdown('plan', 'Accept the plan?', content);
    const posted = await postBatch(h, RUN, batch);
    const { ts, blocks } = posted;
    const markdownBlocks = blocks.filter((b) => b.type === 'markdown');
    assert.equal(markdownBlocks.length, 1);
    checkCutNote(blocks, String(markdownBlocks[0]?.text), content);

    const { body } = await openPreviewModal(h, ts, 0);
    const sections = body.map((b) => {
      assert.equal(b.type, 'section');
      return (b.text as { type: string; text: string }).text;
    });
    assert.equal(sections.join(''), escapeMrkdwn(content), 'the modal holds the whole preview');

    await click(h.slack, ts, actionId(ACTION_KINDS.oneTap, 0, 'yes'));
    assert.deepEqual(await answerFile(h.runDir(RUN)), {
      seq: 1,
      answers: [{ id: 'plan', type: 'yes-no', prompt: 'Accept the plan?', answer: true }],
      questions: batch.questions,
    });
  });

  test('an over-long ascii preview is cut with a note, and the modal holds all of it verbatim', async () => {
    const row = (i: number) => `|${String(i).padStart(4, '0')}|${' <#> '.repeat(11)}|`;
    const content = Array.from({ length: 400 }, (_, i) => row(i)).join('\n');
    const batch = {
      seq: 1,
      questions: [
        {
          id: 'layout',
          type: 'free-write',
          prompt: 'What should change in this layout?',
          preview: { type: 'ascii', content },
        },
        GO,
      ],
    };
    const posted = await postBatch(h, RUN, batch);
    const { ts, blocks } = posted;
    const richBlocks = blocks.filter((b) => b.type === 'rich_text');
    assert.equal(richBlocks.length, 1);
    checkCutNote(blocks, preformattedText(richBlocks[0]), content);

    const { view, body } = await openPreviewModal(h, ts, 0);
    assert.equal(body.map(preformattedText).join(''), content);
    await h.slack.closeView({ viewId: String(view.id), user: ALICE });

    await writeFreeText(h.slack, ts, 0, 'Widen column 3.');
    await pressYesNo(h.slack, ts, 1, true);
    await pressSubmit(h.slack, ts);
    assert.deepEqual(await answerFile(h.runDir(RUN)), {
      seq: 1,
      answers: [
        {
          id: 'layout',
          type: 'free-write',
          prompt: 'What should change in this layout?',
          answer: 'Widen column 3.',
        },
        { id: 'go', type: 'yes-no', prompt: 'Proceed?', answer: true },
      ],
      questions: batch.questions,
    });
  });
});

describe(`mrkdwn injection (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('mentions, links and & in prompts, options, previews and answers show as text everywhere', async () => {
    const run = h.runDir(EVIL_RUN);
    const longEvil = `${EVIL} ${'and more text '.repeat(6)}`;
    const options = ['<!channel>', '<@U123>', '<http://evil|click>', 'A & B', longEvil];
    const longPreview = Array.from({ length: 300 }, (_, i) => `${i}: ${EVIL}`).join('\n');
    const batch = {
      seq: 1,
      questions: [
        { id: 'who', type: 'choose-one', prompt: `${EVIL}: pick one`, options },
        {
          id: 'notes',
          type: 'free-write',
          prompt: `Notes for ${EVIL}?`,
          preview: { type: 'markdown', content: `# Heads up\n${EVIL}` },
        },
        {
          id: 'ship',
          type: 'yes-no',
          prompt: 'Ship it & ping <!here>?',
          preview: { type: 'ascii', content: `${EVIL}\n+--+` },
        },
        {
          id: 'long',
          type: 'yes-no',
          prompt: 'Read all of it?',
          preview: { type: 'markdown', content: longPreview },
        },
      ],
    };
    const posted = await postBatch(h, EVIL_RUN, batch);
    const { ts } = posted;
    assert.equal(
      posted.text,
      `Run ${escapeMrkdwn(EVIL_RUN)}, batch 1: ${escapeMrkdwn(EVIL)}: pick one (+3 more questions)`,
    );
    // The cut preview of question 4 does not fit beside the others: it goes in the thread.
    const shown = await waitFor(
      () => (thread(h.slack, ts).length >= 2 ? thread(h.slack, ts) : undefined),
      'the continuation in the thread',
    );
    assert.equal(shown.length, 2);
    assert.equal(
      shown[1]?.text,
      `Run ${escapeMrkdwn(EVIL_RUN)}, batch 1 (continued, message 2 of 2)`,
    );
    for (const message of shown) assertSurfaceInert(message, 'the batch messages');
    const texts = mrkdwnTexts(posted.blocks);
    assert.ok(texts.includes(`*1.* ${escapeMrkdwn(EVIL)}: pick one`));
    assert.ok(texts.includes(`*3.* Ship it &amp; ping &lt;!here&gt;?`));
    assert.ok(texts.includes(`*Full text:*\n5. ${escapeMrkdwn(longEvil)}`));
    // Option labels are plain_text, which Slack never parses for mentions or links.
    const labels = controlOf(posted.blocks, 0).element.options as { text: Block }[];
    assert.deepEqual(
      labels.map((o) => o.text),
      options.map((text) => ({ type: 'plain_text', text: shownLabel(text), emoji: true })),
    );
    // The markdown block takes standard Markdown, not mrkdwn; the preformatted text is literal.
    const markdownBlocks = posted.blocks.filter((b) => b.type === 'markdown');
    // (only the @ that could start a mention gets an invisible word joiner)
    assert.equal(markdownBlocks[0]?.text, `# Heads up\n${EVIL.replace('<@', '<@\u2060')}`);
    const ascii = posted.blocks.find((b) => b.type === 'rich_text');
    assert.equal(preformattedText(ascii), `${EVIL}\n+--+`);

    // Submitting too early: the notice quotes the prompt, escaped.
    await pressSubmit(h.slack, ts);
    const notice = await waitFor(() => h.slack.ephemerals(ALICE)[0], 'the missing-answers notice');
    assertSurfaceInert(notice, 'the missing-answers notice');
    assert.match(
      notice.text,
      /&lt;!channel&gt; &lt;@\u2060U123&gt; &lt;http:\/\/evil\|click&gt; &amp; co/,
    );
    assert.deepEqual(await qaFiles(run), ['q-out-001.json']);

    // The free-write modal shows the prompt escaped; the answer comes back escaped.
    await click(h.slack, ts, actionId(ACTION_KINDS.freeWrite, 1));
    const modal = await waitFor(() => h.slack.views(ALICE)[0], 'the free-write modal');
    assertSurfaceInert({ blocks: modal.blocks as Block[] }, 'the free-write modal');
    assert.ok(
      mrkdwnTexts(modal.blocks as Block[]).includes(`*2.* Notes for ${escapeMrkdwn(EVIL)}?`),
    );
    await h.slack.closeView({ viewId: String(modal.id), user: ALICE });
    await writeFreeText(h.slack, ts, 1, `Reply to ${EVIL}\n> not a quote <#C999>`);
    for (const m of thread(h.slack, ts)) assertSurfaceInert(m, 'the messages with the draft');

    // The full preview in its modal is escaped mrkdwn.
    const { view, body } = await openPreviewModal(h, ts, 3);
    assertSurfaceInert({ blocks: view.blocks as Block[] }, 'the preview modal');
    const sections = body.map((b) => (b.text as { text: string }).text);
    assert.equal(sections.join(''), escapeMrkdwn(longPreview));
    await h.slack.closeView({ viewId: String(view.id), user: ALICE });

    await choose(h.slack, ts, 0, ['1']);
    await pressYesNo(h.slack, ts, 2, true);
    await pressYesNo(h.slack, ts, 3, false);
    for (const m of thread(h.slack, ts)) assertSurfaceInert(m, 'the messages with every draft');
    await pressSubmit(h.slack, ts);

    assert.deepEqual(await answerFile(run), {
      seq: 1,
      answers: [
        {
          id: 'who',
          type: 'choose-one',
          prompt: `${EVIL}: pick one`,
          options,
          answer: '<@U123>',
        },
        {
          id: 'notes',
          type: 'free-write',
          prompt: `Notes for ${EVIL}?`,
          answer: `Reply to ${EVIL}\n> not a quote <#C999>`,
        },
        { id: 'ship', type: 'yes-no', prompt: 'Ship it & ping <!here>?', answer: true },
        { id: 'long', type: 'yes-no', prompt: 'Read all of it?', answer: false },
      ],
      questions: batch.questions,
    });

    const final = await waitForAnswered(h.slack, ts);
    for (const m of thread(h.slack, ts)) assertSurfaceInert(m, 'the answered messages');
    assert.equal(
      final.text,
      `Answered: Run ${escapeMrkdwn(EVIL_RUN)}, batch 1: ${escapeMrkdwn(EVIL)}: pick one (+3 more questions)`,
    );
    const finalTexts = mrkdwnTexts(final.blocks);
    assert.ok(finalTexts.includes('*Answer:*\n>&lt;@\u2060U123&gt;'));
    assert.ok(
      finalTexts.includes(
        `*Answer:*\n>Reply to ${escapeMrkdwn(EVIL)}\n>&gt; not a quote &lt;#C999&gt;`,
      ),
    );
    const ephemerals: StoredEphemeral[] = h.slack.ephemerals(ALICE);
    for (const e of ephemerals) assertSurfaceInert(e, 'an ephemeral notice');
  });
});

describe(`links in agent markdown (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('a markdown preview shows where each of its links goes, and the batch is answered', async () => {
    assert.ok(hiddenLinks(HOSTILE_PREVIEW).length > 10, 'the preview hides links as written');
    const batch = {
      seq: 1,
      questions: [
        {
          id: 'release',
          type: 'yes-no',
          prompt: 'Release as planned?',
          preview: { type: 'markdown', content: HOSTILE_PREVIEW },
        },
      ],
    };
    const { ts, blocks } = await postBatch(h, RUN, batch);
    const markdownBlocks = blocks.filter((b) => b.type === 'markdown');
    assert.equal(markdownBlocks.length, 1);
    const shown = String(markdownBlocks[0]?.text);
    assert.equal(shown, HOSTILE_PREVIEW_SHOWN);
    assert.deepEqual(hiddenLinks(shown), [], 'no link in what Slack renders hides its destination');
    assert.ok(!plainTexts(blocks).some((t) => t.startsWith('Preview cut')));

    await click(h.slack, ts, actionId(ACTION_KINDS.oneTap, 0, 'yes'));
    assert.deepEqual(await answerFile(h.runDir(RUN)), {
      seq: 1,
      answers: [{ id: 'release', type: 'yes-no', prompt: 'Release as planned?', answer: true }],
      questions: batch.questions,
    });
  });
});

// ----- control characters -----

/** Any character the relay writes out before sending (see src/core/slack/text/show-controls.ts). */
const HIDDEN = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** The strings of a call's arguments that hold a hidden character, with their JSON paths. */
function hiddenIn(value: unknown, where: string): string[] {
  if (typeof value === 'string') {
    if (HIDDEN.test(value.replace(/[\t\n]/g, ''))) return [`${where}: ${JSON.stringify(value)}`];
    // blocks and views arrive as JSON text in form-encoded calls
    if (value.startsWith('[') || value.startsWith('{')) {
      try {
        return hiddenIn(JSON.parse(value), where);
      } catch {
        return [];
      }
    }
    return [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => hiddenIn(v, `${where}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => hiddenIn(v, `${where}/${k}`));
}

/** NUL, a terminal escape and a right-to-left override ("txt.exe" that reads "exe.txt"). */
const ODD = 'a\u0000b \u001b[31mred\u001b[0m invoice\u202etxt.exe';
const ODD_SHOWN = 'a\\u0000b \\u001b[31mred\\u001b[0m invoice\\u202etxt.exe';
/** A run folder name can hold them too (not NUL: no file name can). */
const ODD_RUN = 'run-\u001b[1m-\u202egnp';
const ODD_RUN_SHOWN = 'run-\\u001b[1m-\\u202egnp';

describe(`control characters (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('NUL, ESC and a bidi override reach Slack written out, in every text the relay sends', async () => {
    const run = h.runDir(ODD_RUN);
    const longPreview = Array.from({ length: 300 }, (_, i) => `${i}: ${ODD}`).join('\n');
    const batch = {
      seq: 1,
      questions: [
        { id: 'pick', type: 'choose-one', prompt: `Pick ${ODD}`, options: [ODD, 'plain'] },
        {
          id: 'long',
          type: 'yes-no',
          prompt: 'Read it all?',
          preview: { type: 'markdown', content: longPreview },
        },
        {
          id: 'art',
          type: 'yes-no',
          prompt: 'Art?',
          preview: { type: 'ascii', content: `+--+\n${ODD}\n+--+` },
        },
      ],
    };
    // a look-alike name: the notice names the run and its folder
    await writeQaFile(run, 'q-out-01.json', '{}');
    await writeQuestionFile(run, 1, batch);
    const posted = await waitForBatchMessage(h.slack, ODD_RUN_SHOWN, 1);
    const { ts } = posted;
    assert.ok(posted.text.startsWith(`Run ${ODD_RUN_SHOWN}, batch 1: Pick ${ODD_SHOWN}`));
    assert.ok(mrkdwnTexts(posted.blocks).some((t) => t.includes(`Pick ${ODD_SHOWN}`)));
    await waitFor(() => {
      try {
        return locate(h.slack, ts, actionId(ACTION_KINDS.showPreview, 1));
      } catch {
        return undefined; // the cut preview may be in a thread reply still on its way
      }
    }, 'the show-preview button');
    const { view } = await openPreviewModal(h, ts, 1);
    assert.ok(JSON.stringify(view.blocks).includes(JSON.stringify(ODD_SHOWN).slice(1, -1)));
    await h.slack.closeView({ viewId: String(view.id), user: ALICE });
    const notice = await waitFor(
      () => h.slack.messages(CHANNEL).find((m) => m.text.includes('looks like Q&amp;A files')),
      'the look-alike notice',
    );
    assert.ok(notice.text.includes(`Run ${ODD_RUN_SHOWN}:`), notice.text);

    await choose(h.slack, ts, 0, ['0']);
    await pressYesNo(h.slack, ts, 1, true);
    await pressYesNo(h.slack, ts, 2, false);
    await pressSubmit(h.slack, ts);
    const answered = await waitForAnswered(h.slack, ts);
    assert.ok(JSON.stringify(answered.blocks).includes(JSON.stringify(ODD_SHOWN).slice(1, -1)));
    // the answer file is the agent's own text, unchanged
    const answers = (await answerFile(run)).answers as { answer: unknown }[];
    assert.equal(answers[0]?.answer, ODD);

    const leaks = h.slack.calls.flatMap((c, i) => hiddenIn(c.args, `${c.method} #${i}`));
    assert.deepEqual(leaks, [], 'no call to Slack carries a control character as it is');
  });
});
