import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type HomeBatch,
  type HomeDetails,
  renderHome,
  selectHomeBatches,
} from '../../../../src/core/slack/views/render-home.js';
import { formatIssue, validateView } from '../../../support/fake-slack/index.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString();

function batch(key: string, over: Partial<HomeBatch> = {}): HomeBatch {
  return {
    key,
    runDir: `/work/.7/runs/${key}`,
    seq: 1,
    status: 'open',
    createdAt: minutesAgo(5),
    updatedAt: minutesAgo(5),
    ...over,
  };
}

type Block = { type: string; text?: { text: string } };
const blocksOf = (view: { blocks: unknown[] }) => view.blocks as Block[];
const sectionTexts = (view: { blocks: unknown[] }) =>
  blocksOf(view)
    .filter((b) => b.type === 'section')
    .map((b) => b.text?.text ?? '');

function assertValid(view: unknown) {
  assert.deepEqual(validateView(view).map(formatIssue), []);
}

describe('selectHomeBatches', () => {
  test('open (and submitting, malformed) oldest first; answered newest first, at most ten; closed ones left out', () => {
    const records = [
      batch('b', { createdAt: minutesAgo(3) }),
      batch('a', { createdAt: minutesAgo(9), status: 'malformed' }),
      batch('c', { createdAt: minutesAgo(1), status: 'submitting' }),
      batch('w', { status: 'withdrawn' }),
      batch('r', { status: 'run-removed' }),
      ...Array.from({ length: 12 }, (_, i) =>
        batch(`done${i}`, { status: 'answered', answeredAt: minutesAgo(100 - i) }),
      ),
      batch('else', { status: 'answered-elsewhere', updatedAt: minutesAgo(0) }),
    ];
    const { open, answered } = selectHomeBatches(records);
    assert.deepEqual(
      open.map((r) => r.key),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(
      answered.map((r) => r.key),
      ['else', 'done11', 'done10', 'done9', 'done8', 'done7', 'done6', 'done5', 'done4', 'done3'],
    );
  });

  test('lists as many open batches as the view has room for, however they are ordered, and counts the rest and their runs', () => {
    const open = Array.from({ length: 3000 }, (_, i) =>
      batch(`k${String(i).padStart(4, '0')}`, {
        runDir: `/runs/run-${i % 1000}`,
        createdAt: minutesAgo(5000 - i),
      }),
    );
    // newest first, so every record offered displaces one already kept
    const selection = selectHomeBatches([...open].reverse());
    assert.deepEqual(
      selection.open.map((r) => r.key),
      open.slice(0, 93).map((r) => r.key),
      'the oldest 93, with one block left for "…and N more"',
    );
    assert.equal(selection.moreOpen, 3000 - 93);
    assert.equal(selection.openRuns, 1000);
    assert.deepEqual(selection.answered, []);

    const few = selectHomeBatches(open.slice(0, 94));
    assert.equal(few.open.length, 94, 'all of them when they fit');
    assert.equal(few.moreOpen, 0);
  });
});

describe('renderHome', () => {
  test('open batches with run, first question, age and link; answered ones with who and when', () => {
    const details = new Map<string, HomeDetails>([
      [
        'alpha',
        {
          firstQuestion: 'Deploy <alpha> & ping <!channel>?\nSecond line',
          link: 'https://x.slack.com/archives/C1/p1?thread_ts=1.0&cid=C1',
        },
      ],
      ['bravo', { firstQuestion: 'Bravo?' }],
      ['done', { firstQuestion: 'Was it fine?', link: 'https://x.slack.com/archives/C1/p3' }],
    ]);
    const view = renderHome({
      ...selectHomeBatches([
        batch('bravo', { createdAt: minutesAgo(3), seq: 4 }),
        batch('alpha', { createdAt: minutesAgo(12) }),
        batch('done', { status: 'answered', answeredBy: 'U0ALICE01', answeredAt: minutesAgo(65) }),
        batch('other', { status: 'answered-elsewhere', updatedAt: minutesAgo(2) }),
      ]),
      details,
      now: NOW,
    });
    assertValid(view);
    assert.equal(view.type, 'home');
    const texts = sectionTexts(view);
    assert.deepEqual(texts, [
      '*alpha* · batch 1 · waiting 12 min · <https://x.slack.com/archives/C1/p1?thread_ts=1.0&amp;cid=C1|Open message>\n>Deploy &lt;alpha&gt; &amp; ping &lt;!channel&gt;? Second line',
      '*bravo* · batch 4 · waiting 3 min\n>Bravo?',
      '*other* · batch 1 · answered in another tool 2 min ago',
      '*done* · batch 1 · answered by <@U0ALICE01> 1 h 5 min ago · <https://x.slack.com/archives/C1/p3|Open message>\n>Was it fine?',
    ]);
    const headers = blocksOf(view)
      .filter((b) => b.type === 'header')
      .map((b) => b.text?.text);
    assert.deepEqual(headers, ['Waiting for an answer', 'Recently answered']);
    assert.match(JSON.stringify(view), /2 batches from 2 runs waiting, oldest first/);
  });

  test('an empty store says so in both parts', () => {
    const view = renderHome({ ...selectHomeBatches([]), details: new Map(), now: NOW });
    assertValid(view);
    const text = JSON.stringify(view);
    assert.match(text, /Nothing is waiting for an answer/);
    assert.match(text, /Nothing answered yet/);
  });

  test('an open batch names its assignee, else whoever is on it', () => {
    const view = renderHome({
      ...selectHomeBatches([
        batch('a', { assignee: 'U0BOB0001', claimedBy: 'U0ALICE01', createdAt: minutesAgo(3) }),
        batch('c', { claimedBy: 'U0ALICE01', createdAt: minutesAgo(2) }),
        batch('g', { assignee: 'S0ONCALL1', createdAt: minutesAgo(1) }),
      ]),
      details: new Map(),
      now: NOW,
    });
    const texts = sectionTexts(view);
    assert.match(texts[0] ?? '', /assigned to <@U0BOB0001>/);
    assert.doesNotMatch(texts[0] ?? '', /U0ALICE01/);
    assert.match(texts[1] ?? '', /<@U0ALICE01> is on it/);
    assert.match(texts[2] ?? '', /assigned to <!subteam\^S0ONCALL1>/);
    assertValid(view);
  });

  test('states other than waiting are named', () => {
    const view = renderHome({
      ...selectHomeBatches([
        batch('s', { status: 'submitting', createdAt: minutesAgo(3) }),
        batch('m', { status: 'malformed', createdAt: minutesAgo(2) }),
        batch('p', { problem: 'EACCES', createdAt: minutesAgo(1) }),
        batch('u', {
          undeliverable: { code: 'not_in_channel', fix: 'invite the bot <now>' },
          createdAt: minutesAgo(1),
        }),
        batch('x', { status: 'answered', answeredBy: '<!here>', answeredAt: minutesAgo(1) }),
      ]),
      details: new Map(),
      now: NOW,
    });
    const texts = sectionTexts(view);
    assert.match(texts[0] ?? '', /answers being written/);
    assert.match(texts[1] ?? '', /question file is malformed, waiting 2 min/);
    assert.match(texts[2] ?? '', /could not be written, press Submit again/);
    assert.match(
      texts[3] ?? '',
      /:warning: not shown in Slack \(not_in_channel\), waiting 1 min: invite the bot &lt;now&gt;/,
    );
    assert.match(
      texts[4] ?? '',
      /answered by &lt;!here&gt;/,
      'a bad user id is escaped, not a mention',
    );
  });

  test('batches in several channels each name theirs; in one channel none does', () => {
    const records = [
      batch('a', { createdAt: minutesAgo(3) }),
      batch('b', { createdAt: minutesAgo(2) }),
      batch('c', { status: 'answered', answeredBy: 'U0ALICE01', answeredAt: minutesAgo(1) }),
      batch('odd', { createdAt: minutesAgo(1) }),
    ];
    const several = renderHome({
      ...selectHomeBatches(records),
      details: new Map<string, HomeDetails>([
        ['a', { channel: 'C0AAAA', link: 'https://x/p1' }],
        ['b', { channel: 'G0BBBB' }],
        ['c', { channel: 'C0AAAA' }],
        ['odd', { channel: '<!here>' }],
      ]),
      now: NOW,
    });
    assertValid(several);
    assert.deepEqual(sectionTexts(several), [
      '*a* · batch 1 in <#C0AAAA> · waiting 3 min · <https://x/p1|Open message>',
      '*b* · batch 1 in <#G0BBBB> · waiting 2 min',
      '*odd* · batch 1 in &lt;!here&gt; · waiting 1 min',
      '*c* · batch 1 in <#C0AAAA> · answered by <@U0ALICE01> 1 min ago',
    ]);

    const one = renderHome({
      ...selectHomeBatches(records.slice(0, 3)),
      details: new Map<string, HomeDetails>([
        ['a', { channel: 'C0AAAA' }],
        ['b', { channel: 'C0AAAA' }],
        ['c', { channel: 'C0AAAA' }],
      ]),
      now: NOW,
    });
    assert.ok(sectionTexts(one).every((t) => !t.includes('<#')));
  });

  test('more open batches than fit in several channels: their messages are in their channels', () => {
    const records = Array.from({ length: 120 }, (_, i) =>
      batch(`k${String(i).padStart(3, '0')}`, { createdAt: minutesAgo(200 - i) }),
    );
    const details = new Map<string, HomeDetails>(
      records.map((r, i) => [r.key, { channel: i % 2 === 0 ? 'C0AAAA' : 'C0BBBB' }]),
    );
    const view = renderHome({ ...selectHomeBatches(records), details, now: NOW });
    assertValid(view);
    assert.match(
      JSON.stringify(view),
      /more, newer than these\. Their messages are in their channels\./,
    );
  });

  test('long run names and questions are cut; the view stays within 100 blocks however many are open', () => {
    const records = [
      ...Array.from({ length: 5000 }, (_, i) =>
        batch(`k${String(i).padStart(4, '0')}`, {
          runDir: `/runs/${'r'.repeat(300)}${i}`,
          createdAt: minutesAgo(1000 - i),
        }),
      ),
      ...Array.from({ length: 15 }, (_, i) =>
        batch(`a${i}`, { status: 'answered', answeredBy: 'U0ALICE01', answeredAt: minutesAgo(i) }),
      ),
    ];
    const details = new Map<string, HomeDetails>(
      records.map((r) => [r.key, { firstQuestion: '&'.repeat(5000), link: 'https://x/p1' }]),
    );
    const view = renderHome({ ...selectHomeBatches(records), details, now: NOW });
    assertValid(view);
    assert.equal(view.blocks.length, 100);
    const texts = sectionTexts(view);
    assert.equal(texts.length, 84 + 10, 'as many open ones as fit, and the ten latest answered');
    assert.ok(texts.every((t) => t.length < 3000));
    assert.match(texts[0] ?? '', /^\*r{79}…\* · batch 1 · waiting 16 h 40 min/);
    assert.match(JSON.stringify(view), /…and 4916 more, newer than these/);
    assert.ok(Buffer.byteLength(JSON.stringify(view)) < 250_000, "under Slack's view ceiling");
  });
});

describe('renderHome in shared mode', () => {
  test("each batch names the machine holding its run; a node's name is escaped", () => {
    const view = renderHome({
      ...selectHomeBatches([
        batch('a', { node: 'build-box' }),
        batch('b', { node: 'lap<top>' }),
        batch('c'),
      ]),
      details: new Map(),
      now: NOW,
    });
    assertValid(view);
    const texts = sectionTexts(view).join('\n');
    assert.match(texts, /\*a\* · batch 1 · on build-box/);
    assert.match(texts, /\*b\* · batch 1 · on lap&lt;top&gt;/);
    assert.match(texts, /\*c\* · batch 1(?! · on)/);
  });
});
