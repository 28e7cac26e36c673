import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  at,
  controlOf,
  current,
  E2E_MODE,
  GO,
  healthyRelayPerTest,
  mrkdwnTexts,
  numberedOptions,
  postBatch,
  postPickAndGo,
  qaFiles,
  submitWithGo,
  waitForSelection,
} from './relay-steps.js';

const RUN = 'run-shapes';

/** Each option count and the control Slack gets for it, per question type. */
const STATIC_SHAPES = [
  {
    type: 'choose-one',
    options: ['JSON', 'CSV', 'plain text'],
    element: 'radio_buttons',
    pick: ['2'],
    answer: 'plain text',
  },
  {
    type: 'choose-one',
    options: numberedOptions(12),
    element: 'static_select',
    pick: ['10'],
    answer: 'Option 011',
  },
  {
    type: 'choose-many',
    options: ['web', 'ios', 'android'],
    element: 'checkboxes',
    pick: ['2', '0'],
    answer: ['web', 'android'],
  },
  {
    type: 'choose-many',
    options: numberedOptions(12),
    element: 'multi_static_select',
    pick: ['11', '3', '7'],
    answer: ['Option 004', 'Option 008', 'Option 012'],
  },
] as const;

const mode = E2E_MODE;
describe(`question shapes (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  for (const shape of STATIC_SHAPES) {
    test(`${shape.type} with ${shape.options.length} options is a ${shape.element}`, async () => {
      const pick = {
        id: 'pick',
        type: shape.type,
        prompt: `Pick from ${shape.options.length}`,
        options: [...shape.options],
      };
      const batch = { seq: 1, questions: [pick, GO] };
      const posted = await postBatch(h, RUN, batch);
      const { ts } = posted;
      assert.equal(
        posted.text,
        `Run ${RUN}, batch 1: Pick from ${shape.options.length} (+1 more question)`,
      );
      assert.ok(mrkdwnTexts(posted.blocks).includes(`*1.* Pick from ${shape.options.length}`));

      const control = controlOf(posted.blocks, 0);
      assert.equal(control.type, shape.element);
      const listed = control.element.options as {
        text: { type: string; text: string };
        value: string;
      }[];
      assert.deepEqual(
        listed.map((o) => [o.text.type, o.text.text, o.value]),
        shape.options.map((text, i) => ['plain_text', text, String(i)]),
        'every option is listed with its full text and its index as value',
      );

      const result =
        shape.type === 'choose-one'
          ? await h.slack.selectOption({ ...at(ts, control), value: shape.pick[0] as string })
          : await h.slack.selectOptions({ ...at(ts, control), values: [...shape.pick] });
      assert.equal(result.acked, true);
      const sorted = [...shape.pick].sort((a, b) => Number(a) - Number(b));
      await waitForSelection(h.slack, ts, 0, sorted);
      const final = await submitWithGo(h, RUN, ts, batch, shape.answer);
      const quoted =
        typeof shape.answer === 'string'
          ? [`>${shape.answer}`]
          : shape.answer.map((a: string) => `>• ${a}`);
      assert.ok(
        mrkdwnTexts(final.blocks).includes(`*Answer:*\n${quoted.join('\n')}`),
        `the final message quotes the answer: ${mrkdwnTexts(final.blocks).join(' | ')}`,
      );
      assert.ok(mrkdwnTexts(final.blocks).includes('*Answer:*\n>Yes'));
      assert.match(final.text, /^Answered: Run run-shapes, batch 1: Pick from/);
      assert.deepEqual(await qaFiles(h.runDir(RUN)), ['q-answers-001.json', 'q-out-001.json']);
    });
  }

  test('choose-one with 150 options is an external_select answered through block_suggestion', async () => {
    const options = numberedOptions(150);
    const pick = { id: 'region', type: 'choose-one', prompt: 'Which region?', options };
    const { batch, ts, control } = await postPickAndGo(h, RUN, pick);
    assert.equal(control.type, 'external_select');
    assert.equal(control.element.options, undefined, 'an external select lists no options itself');
    assert.equal(control.element.min_query_length, 0);
    assert.deepEqual(control.element.placeholder, {
      type: 'plain_text',
      text: 'Type to search 150 options',
      emoji: true,
    });

    const opened = await h.slack.suggest({ ...at(ts, control), value: '' });
    assert.equal(opened.acked, true);
    assert.deepEqual(
      opened.options.map(optionPair),
      options.slice(0, 100).map((text, i) => [text, String(i)]),
      'an empty query offers the first 100 options in order',
    );

    const typed = await h.slack.suggest({ ...at(ts, control), value: 'OPTION 14' });
    assert.deepEqual(
      typed.options.map(optionPair),
      [139, 140, 141, 142, 143, 144, 145, 146, 147, 148].map((i) => [options[i], String(i)]),
      'a query offers every option containing it, case-insensitively, in order',
    );
    const none = await h.slack.suggest({ ...at(ts, control), value: 'no such region' });
    assert.deepEqual(none.options, []);

    const exact = await h.slack.suggest({ ...at(ts, control), value: 'Option 137' });
    assert.deepEqual(exact.options.map(optionPair), [['Option 137', '136']]);
    const value = (exact.options[0] as { value: string }).value;
    const picked = await h.slack.selectOption({ ...at(ts, control), value });
    assert.equal(picked.acked, true);
    const shown = await waitForSelection(h.slack, ts, 0, ['136']);
    assert.deepEqual((shown.element.initial_option as { text: unknown }).text, {
      type: 'plain_text',
      text: 'Option 137',
      emoji: true,
    });
    const final = await submitWithGo(h, RUN, ts, batch, 'Option 137');
    assert.ok(mrkdwnTexts(final.blocks).includes('*Answer:*\n>Option 137'));
  });

  test('choose-many with 150 options is a multi_external_select built up over several searches', async () => {
    const options = numberedOptions(150);
    const pick = { id: 'regions', type: 'choose-many', prompt: 'Which regions?', options };
    const { batch, ts, control } = await postPickAndGo(h, RUN, pick);
    assert.equal(control.type, 'multi_external_select');
    assert.equal(control.element.options, undefined);
    assert.equal(control.element.min_query_length, 0);

    const first = await h.slack.suggest({ ...at(ts, control), value: 'option 14' });
    assert.deepEqual(
      first.options.map(optionPair),
      options.slice(139, 149).map((text, i) => [text, String(139 + i)]),
    );
    await h.slack.selectOptions({ ...at(ts, control), values: ['148', '139'] });
    const after = await waitForSelection(h.slack, ts, 0, ['139', '148']);

    // A second search: the earlier picks stay selected (Slack keeps them as initial options).
    const second = await h.slack.suggest({ ...at(ts, after), value: '07' });
    assert.deepEqual(
      second.options.map(optionPair),
      [6, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 106].map((i) => [options[i], String(i)]),
    );
    await h.slack.selectOptions({ ...at(ts, after), values: ['139', '148', '6'] });
    const three = await waitForSelection(h.slack, ts, 0, ['6', '139', '148']);
    assert.deepEqual(
      (three.element.initial_options as { text: { text: string } }[]).map((o) => o.text.text),
      ['Option 007', 'Option 140', 'Option 149'],
    );

    // Un-picking one leaves the other two.
    await h.slack.selectOptions({ ...at(ts, three), values: ['139', '6'] });
    await waitForSelection(h.slack, ts, 0, ['6', '139']);
    const final = await submitWithGo(h, RUN, ts, batch, ['Option 007', 'Option 140']);
    assert.ok(mrkdwnTexts(final.blocks).includes('*Answer:*\n>• Option 007\n>• Option 140'));
    assert.equal(current(h.slack, ts).blocks.length, final.blocks.length);
  });
});

function optionPair(option: Record<string, unknown>): [string, string] {
  const text = option.text as { type: string; text: string };
  assert.equal(text.type, 'plain_text');
  return [text.text, String(option.value)];
}
