import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS, actionId, CALLBACK_IDS } from '../../src/core/slack/controls/ids.js';
import { escapeMrkdwn } from '../../src/core/slack/text/escape-mrkdwn.js';
import { ALICE, type Harness } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import {
  at,
  E2E_MODE,
  elementById,
  healthyRelayPerTest,
  mrkdwnTexts,
  plainTexts,
  postPickAndGo,
  shownLabel,
  submitWithGo,
  waitForSelection,
} from './relay-steps.js';

const RUN = 'run-long';

/** A sentence of exactly `length` characters that ends in a word found nowhere else. */
function longOption(n: number, length: number): string {
  const tail = ` (site-${String(n).padStart(3, '0')}-end)`;
  const head = `Deploy option ${n}: replicate to every region with nightly snapshots and `;
  const filler = 'cold-storage archives, '.repeat(Math.ceil(length / 23));
  return (head + filler).slice(0, length - tail.length) + tail;
}

/** The body of the "Show full options" modal: every section after the heading, joined. */
function modalBody(view: Record<string, unknown>): string {
  const blocks = view.blocks as Record<string, unknown>[];
  assert.equal(blocks[0]?.type, 'context', 'the modal opens with the question as a heading');
  return blocks
    .slice(1)
    .map((block) => {
      assert.equal(block.type, 'section');
      return (block.text as { type: string; text: string }).text;
    })
    .join('');
}

async function openOptionsModal(h: Harness, ts: string, blocks: Record<string, unknown>[]) {
  const button = elementById(blocks, actionId(ACTION_KINDS.showOptions, 0));
  assert.equal((button.element.text as { text: string }).text, 'Show full options');
  const clicked = await h.slack.clickButton(at(ts, button));
  assert.equal(clicked.acked, true);
  const view = await waitFor(() => h.slack.views(ALICE)[0], 'the options modal');
  assert.equal(view.callback_id, CALLBACK_IDS.options);
  assert.deepEqual(view.title, { type: 'plain_text', text: 'Options', emoji: true });
  const opened = h.slack.calls.filter((c) => c.method === 'views.open');
  assert.equal(opened.length, 1);
  assert.equal(opened[0]?.response.ok, true, 'views.open took the real trigger_id');
  return view;
}

const numberedLines = (options: readonly string[]) =>
  options.map((text, i) => `${i + 1}. ${text}`).join('\n');

const mode = E2E_MODE;
describe(`options longer than a label (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('cut radio labels list their full text under the control; the answer is the full string', async () => {
    const options = ['Short', longOption(2, 76), 'Also short', longOption(4, 200)];
    const pick = { id: 'plan', type: 'choose-one', prompt: 'Which plan?', options };
    const { batch, posted, ts, control } = await postPickAndGo(h, RUN, pick);
    assert.equal(control.type, 'radio_buttons');
    const labels = (control.element.options as { text: { text: string } }[]).map(
      (o) => o.text.text,
    );
    assert.deepEqual(labels, options.map(shownLabel));
    assert.ok(labels.every((label) => label.length <= 75));
    assert.equal(labels[3]?.endsWith('…'), true);

    const listing = `*Full text:*\n2. ${escapeMrkdwn(options[1] as string)}\n4. ${escapeMrkdwn(options[3] as string)}`;
    const controlAt = posted.blocks.findIndex((b) => b.block_id === control.blockId);
    assert.deepEqual(posted.blocks[controlAt + 1], {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: listing }],
      block_id: posted.blocks[controlAt + 1]?.block_id,
    });

    await h.slack.selectOption({ ...at(ts, control), value: '3' });
    const shown = await waitForSelection(h.slack, ts, 0, ['3']);
    assert.equal(
      (shown.element.initial_option as { text: { text: string } }).text.text,
      shownLabel(options[3] as string),
    );
    const final = await submitWithGo(h, RUN, ts, batch, options[3]);
    assert.ok(
      mrkdwnTexts(final.blocks).includes(`*Answer:*\n>${escapeMrkdwn(options[3] as string)}`),
    );
  });

  test('too many long options for one line open a "Show full options" modal with every option whole', async () => {
    const options = Array.from({ length: 12 }, (_, i) => longOption(i + 1, 300));
    const pick = { id: 'plans', type: 'choose-many', prompt: 'Which plans?', options };
    const { batch, posted, ts, control } = await postPickAndGo(h, RUN, pick);
    assert.equal(control.type, 'multi_static_select');
    assert.ok(
      plainTexts(posted.blocks).includes('12 options are longer than the 75 characters shown.'),
    );
    const view = await openOptionsModal(h, ts, posted.blocks);
    assert.equal(modalBody(view), escapeMrkdwn(numberedLines(options)));

    await h.slack.selectOptions({ ...at(ts, control), values: ['9', '1'] });
    await waitForSelection(h.slack, ts, 0, ['1', '9']);
    await submitWithGo(h, RUN, ts, batch, [options[1], options[9]]);
  });

  test('150 long options: search reaches past the cut label, the modal lists them all, the answer is whole', async () => {
    const options = Array.from({ length: 150 }, (_, i) => longOption(i + 1, 110));
    const pick = { id: 'site', type: 'choose-one', prompt: 'Which site?', options };
    const { batch, posted, ts, control } = await postPickAndGo(h, RUN, pick);
    assert.equal(control.type, 'external_select');
    const view = await openOptionsModal(h, ts, posted.blocks);
    assert.equal(modalBody(view), escapeMrkdwn(numberedLines(options)));

    // "site-042-end" is only in the part of the text the label cuts off.
    assert.ok(!shownLabel(options[41] as string).includes('site-042-end'));
    const found = await h.slack.suggest({ ...at(ts, control), value: 'site-042-end' });
    assert.deepEqual(
      found.options.map((o) => [(o.text as { text: string }).text, o.value]),
      [[shownLabel(options[41] as string), '41']],
    );
    await h.slack.selectOption({ ...at(ts, control), value: '41' });
    await waitForSelection(h.slack, ts, 0, ['41']);
    const final = await submitWithGo(h, RUN, ts, batch, options[41]);
    assert.ok(
      mrkdwnTexts(final.blocks).includes(`*Answer:*\n>${escapeMrkdwn(options[41] as string)}`),
    );
  });
});
