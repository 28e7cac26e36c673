import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type DigestItem, digestItemOf } from '../../../src/core/digest/digest-item.js';
import {
  parseApproveAllTarget,
  readApproveAllPicks,
  renderApproveAll,
} from '../../../src/core/digest/render-approve-all.js';
import { DIGEST_LINES_SHOWN, renderDigest } from '../../../src/core/digest/render-digest.js';
import {
  pageCount,
  parseDigestPagesTarget,
  renderDigestPage,
} from '../../../src/core/digest/render-digest-pages.js';
import {
  APPROVE_ALL_BLOCK,
  DIGEST_CONTROLS,
  parseBlockId,
} from '../../../src/core/slack/controls/ids.js';
import {
  formatIssue,
  validateMessageBlocks,
  validateView,
} from '../../support/fake-slack/index.js';
import { makeRecord } from '../../support/make-record.js';

const item = (n: number, question: Record<string, unknown> = {}, changes = {}): DigestItem => {
  const record = makeRecord(`/runs/app-${n % 3}/run-${n}`, 1, {
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
    ...changes,
  });
  const batch = {
    seq: 1,
    questions: [{ id: 'go', type: 'yes-no' as const, prompt: `Ship <!here> ${n}?`, ...question }],
    source: {},
  };
  const made = digestItemOf(record, batch as never);
  assert.ok(made);
  return made;
};
const many = (count: number) => Array.from({ length: count }, (_, i) => item(i + 1));
/** Every action id in these blocks, in order. */
const elementIds = (blocks: readonly unknown[]): string[] =>
  [...JSON.stringify(blocks).matchAll(/"action_id":"([^"]+)"/g)].map((m) => m[1] as string);

describe('the digest message', () => {
  test('150 lines fit every Slack limit: the oldest 20 shown, then how many more', () => {
    const message = renderDigest(many(150));
    assert.deepEqual(validateMessageBlocks(message.blocks).map(formatIssue), []);
    const text = JSON.stringify(message.blocks);
    assert.ok(text.includes('run-1*'));
    assert.ok(!text.includes(`run-${DIGEST_LINES_SHOWN + 1}*`));
    assert.ok(text.includes('Showing the oldest 20 of 150'));
    assert.ok(text.includes('Approve all 150…'));
    assert.equal(message.text, '150 agents are waiting for a quick answer');
  });

  test("each line's buttons name its batch at its revision; agent text is escaped", () => {
    const [first] = many(1);
    assert.ok(first);
    const { blocks } = renderDigest([first]);
    const actions = blocks.find((b) => b.type === 'actions' && b.block_id !== 'o7.digest.foot');
    assert.deepEqual(parseBlockId(String(actions?.block_id)), {
      key: first.key,
      revision: first.revision,
      digest: true,
    });
    assert.ok(JSON.stringify(blocks).includes('Ship &lt;!here&gt; 1?'));
  });

  test('a held answer: its line says what, from whom and until when, with Undo alone; Approve all and its form leave it out', () => {
    const held = item(
      5,
      {},
      {
        status: 'held',
        drafts: { go: true },
        answeredBy: 'U0BOB0001',
        held: { until: '2026-01-01T00:10:00.000Z', drafts: {} },
      },
    );
    assert.deepEqual(held.held, {
      by: 'U0BOB0001',
      answer: 'Yes',
      until: '2026-01-01T00:10:00.000Z',
    });
    const waiting = many(4);
    const message = renderDigest([...waiting, held]);
    assert.deepEqual(validateMessageBlocks(message.blocks).map(formatIssue), []);
    assert.equal(
      message.text,
      '4 agents are waiting for a quick answer (1 answered, with Undo open for a moment)',
    );
    const text = JSON.stringify(message.blocks);
    assert.ok(
      text.includes(
        '*Yes* from <@U0BOB0001> · sent to the agent at <!date^1767226200^{time_secs}|00:10:00 UTC> unless undone',
      ),
    );
    const lines = message.blocks.filter(
      (b) => b.type === 'actions' && b.block_id !== 'o7.digest.foot',
    );
    const undo = lines.at(-1) as { elements: { action_id: string; text: { text: string } }[] };
    assert.deepEqual(
      undo.elements.map((e) => [e.action_id, e.text.text]),
      [[`${DIGEST_CONTROLS.undo}:4`, 'Undo']],
    );
    assert.ok(text.includes('Approve all 4…'), 'the held one is not approved again');
    const form = JSON.stringify(
      renderApproveAll([...waiting, held], 'U0ALICE01', { channel: 'C1', at: 'x' }),
    );
    assert.ok(!form.includes(held.key), 'the held one is not in the form');
    assert.ok(
      waiting.every((w) => form.includes(w.key)),
      'the four waiting are',
    );
  });

  test('Show all pages through every line in a form: 20 a page, Previous and Next, each page within every limit', () => {
    const items = many(150);
    assert.ok(JSON.stringify(renderDigest(items).blocks).includes('Show all 150…'));
    assert.ok(!JSON.stringify(renderDigest(many(20)).blocks).includes('Show all'), 'all shown');
    const nav = (view: ReturnType<typeof renderDigestPage>) =>
      elementIds(view.blocks).filter((id) => id.startsWith(DIGEST_CONTROLS.page));
    for (let page = 0; page < pageCount(150); page += 1) {
      const view = renderDigestPage(items, { channel: 'C1', page });
      assert.deepEqual(validateView(view).map(formatIssue), [], `page ${page}`);
      assert.deepEqual(parseDigestPagesTarget(view.private_metadata), { channel: 'C1', page });
    }
    const second = renderDigestPage(items, { channel: 'C1', page: 1 });
    const text = JSON.stringify(second.blocks);
    assert.ok(text.includes('Lines 21–40 of 150, oldest first · page 2 of 8'));
    assert.ok(
      text.includes('*run-21*') && !text.includes('*run-41*') && !text.includes('*run-20*'),
    );
    assert.deepEqual(nav(second), [
      `${DIGEST_CONTROLS.page}:previous`,
      `${DIGEST_CONTROLS.page}:next`,
    ]);
    const last = renderDigestPage(items, { channel: 'C1', page: 99 });
    assert.ok(
      JSON.stringify(last.blocks).includes('Lines 141–150 of 150'),
      'past the end: the last page',
    );
    assert.deepEqual(nav(last), [`${DIGEST_CONTROLS.page}:previous`]);
    assert.equal(
      parseDigestPagesTarget('{"channel":"C1","at":"x"}'),
      undefined,
      'an Approve all form is not one',
    );
  });

  test('a choose-one line has its options and no Approve all', () => {
    const choice = item(1, { type: 'choose-one', options: ['red', 'blue'] });
    const text = JSON.stringify(renderDigest([choice]).blocks);
    assert.ok(text.includes('"red"') && text.includes('"blue"'));
    assert.ok(!text.includes('Approve all'));
  });
});

describe('the Approve all form', () => {
  test('150 batches fit a form: grouped by project, ten a block, all ticked; what cannot fit is counted', () => {
    const target = { channel: 'C1', at: '2026-01-02T00:00:00.000Z' };
    const view = renderApproveAll(many(150), 'U0ALICE01', target);
    assert.deepEqual(validateView(view).map(formatIssue), []);
    const picks = view.blocks.filter((b) => b.block_id?.startsWith(APPROVE_ALL_BLOCK));
    const listed = picks.flatMap(
      (b) => (b as never as { element: { options: unknown[] } }).element.options,
    );
    assert.equal(listed.length, 150);
    assert.deepEqual(parseApproveAllTarget(view.private_metadata), target);
  });

  test('a choice without a default, and a batch someone else is on, are named but not ticked', () => {
    const items = [
      item(1),
      item(2, { type: 'choose-one', options: ['a', 'b'] }),
      item(3, {}, { claimedBy: 'U0BOB0001' }),
      item(4, {}, { claimedBy: 'U0ALICE01' }),
    ];
    const view = renderApproveAll(items, 'U0ALICE01', { channel: 'C1', at: 'x' });
    const text = JSON.stringify(view.blocks);
    assert.ok(text.includes('Answer these 2 batches'));
    assert.ok(text.includes('run-2: a choice with no default answer'));
    assert.ok(text.includes('run-3: <@U0BOB0001> is on it'));
  });

  test('the ticked batches are read back once each, whatever block holds them', () => {
    const values = {
      [`${APPROVE_ALL_BLOCK}.0`]: {
        'o7.approve-all.pick': {
          selected_options: [{ value: 'k1.1|aaaa' }, { value: 'k2.1|bbbb' }],
        },
      },
      [`${APPROVE_ALL_BLOCK}.1`]: {
        'o7.approve-all.pick': { selected_options: [{ value: 'k1.1|aaaa' }, { value: 'nobar' }] },
      },
      other: { 'o7.approve-all.pick': { selected_options: [{ value: 'k9.1|cccc' }] } },
    };
    assert.deepEqual(readApproveAllPicks(values), [
      { key: 'k1.1', revision: 'aaaa' },
      { key: 'k2.1', revision: 'bbbb' },
    ]);
  });
});
