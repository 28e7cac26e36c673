import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ACTION_KINDS, CALLBACK_IDS, FREE_WRITE_INPUT } from '../../src/core/slack/controls/ids.js';
import {
  answerFile,
  at,
  controlOf,
  current,
  E2E_MODE,
  FORMAT_AND_NOTES,
  healthyRelayPerTest,
  postBatch,
  pressSubmit,
  waitForSelection,
} from '../e2e/relay-steps.js';
import type { JsonObject } from '../support/fake-slack/index.js';
import { ALICE, CHANNEL, findElement, type Harness } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';

// These need a leaked signing secret or app token; Slack apps treat payloads as untrusted anyway.

type Actions = { block_id: string }[];
const updates = (h: Harness) => h.slack.calls.filter((c) => c.method === 'chat.update').length;
const ephemeralTexts = (h: Harness) => h.slack.ephemerals(ALICE).map((e) => e.text);
const qaFiles = async (h: Harness, run: string) =>
  (await readdir(path.join(h.runDir(run), 'qa'))).sort();

/** Opens the free-write form of question 2 as Alice and gives its view id. */
async function openNotes(h: Harness, ts: string): Promise<string> {
  const before = h.slack.views(ALICE).length;
  const write = findElement(current(h.slack, ts).blocks, ACTION_KINDS.freeWrite);
  await h.slack.clickButton(at(ts, write));
  const view = await waitFor(() => h.slack.views(ALICE)[before], 'the free-write form');
  assert.equal(view.callback_id, CALLBACK_IDS.freeWrite);
  return String(view.id);
}

/** Submits a form with text, its payload changed by `forge`. */
const submitNotes = (
  h: Harness,
  viewId: string,
  text: string,
  forge?: (p: JsonObject) => JsonObject,
) =>
  h.slack.submitView({
    viewId,
    user: ALICE,
    values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: text } },
    ...(forge ? { forge } : {}),
  });

/** The form's errors, once Slack shows them under its input. */
const formError = (h: Harness) =>
  waitFor(
    () => h.slack.views(ALICE)[0]?.errors?.[FREE_WRITE_INPUT.blockId],
    'the error under the input',
  );

const mode = E2E_MODE;
describe(`forged payloads change nothing (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('a click without a member ID is refused; the next real click is recorded', async () => {
    const posted = await postBatch(h, 'run-a', FORMAT_AND_NOTES);
    const control = controlOf(posted.blocks, 0);
    const before = updates(h);
    for (const id of ['', 'U0ALICE01 ', 'alice', null]) {
      const result = await h.slack.selectOption({
        ...at(posted.ts, control),
        value: '1',
        forge: (p) => ({ ...p, user: { ...(p.user as JsonObject), id } }),
      });
      assert.equal(result.acked, true, 'acknowledged, so Slack shows no error');
    }
    assert.equal(updates(h), before, 'no draft was saved');
    await h.slack.selectOption({ ...at(posted.ts, control), value: '2' });
    await waitForSelection(h.slack, posted.ts, 0, ['2']);
  });

  test('a click naming the batch with a revision that is only a prefix of the real one is refused', async () => {
    const posted = await postBatch(h, 'run-a', FORMAT_AND_NOTES);
    const control = controlOf(posted.blocks, 0);
    const [, key, revision, ...rest] = control.blockId.split('|') as string[];
    const before = updates(h);
    for (const forged of [revision?.slice(0, 1), '', `${revision}0`]) {
      await h.slack.selectOption({
        ...at(posted.ts, control),
        value: '1',
        forge: (p) => ({
          ...p,
          actions: (p.actions as Actions).map((a) => ({
            ...a,
            block_id: ['o7', key, forged, ...rest].join('|'),
          })),
        }),
      });
    }
    assert.equal(updates(h), before);
    await waitFor(() => ephemeralTexts(h).length >= 2, 'the person told');
    assert.ok(
      ephemeralTexts(h).every((t) => /nothing was changed/i.test(t)),
      ephemeralTexts(h).join('\n'),
    );
  });

  test('Submit reads no choices from the blocks of another batch', async () => {
    const a = await postBatch(h, 'run-a', FORMAT_AND_NOTES);
    const b = await postBatch(h, 'run-b', FORMAT_AND_NOTES);
    const keyOf = (blockId: string) => blockId.split('|')[1] as string;
    const keyA = keyOf(controlOf(a.blocks, 0).blockId);
    const keyB = keyOf(controlOf(b.blocks, 0).blockId);
    // Alice's screen of run B shows a pick; the forged Submit on A carries B's blocks as A's
    await h.slack.selectOption({ ...at(b.ts, controlOf(b.blocks, 0)), value: '1' });
    await waitForSelection(h.slack, b.ts, 0, ['1']);
    const stateOfB = h.slack.shownValues({ channel: CHANNEL, ts: b.ts, user: ALICE });
    await submitWith(h, a.ts, (p) => ({ ...p, state: { values: stateOfB } }));
    await submitWith(h, a.ts, (p) => ({
      ...p,
      state: {
        values: Object.fromEntries(
          Object.entries(stateOfB).map(([blockId, v]) => [
            blockId.replace(keyB, keyA).replace(/\|i\d+$/, '|i999'),
            v,
          ]),
        ),
      },
    }));
    await waitFor(() => ephemeralTexts(h).length >= 2, 'both Submits answered');
    assert.ok(
      ephemeralTexts(h).every((t) => /Format\?/.test(t)),
      ephemeralTexts(h).join('\n'),
    );
    assert.deepEqual(await qaFiles(h, 'run-a'), ['q-out-001.json']);
  });

  test('form metadata naming another batch, or a made-up question, is refused; the batch stays answerable', async () => {
    const a = await postBatch(h, 'run-a', FORMAT_AND_NOTES);
    const b = await postBatch(h, 'run-b', FORMAT_AND_NOTES);
    const keyB = controlOf(b.blocks, 0).blockId.split('|')[1] as string;
    const revisionB = controlOf(b.blocks, 0).blockId.split('|')[2] as string;
    const viewId = await openNotes(h, a.ts);
    const metadataOf = (p: JsonObject) => String((p.view as JsonObject).private_metadata);
    const withMetadata = (make: (sealed: string) => string) => (p: JsonObject) => ({
      ...p,
      view: { ...(p.view as JsonObject), private_metadata: make(metadataOf(p)) },
    });
    const before = updates(h);
    const forgeries = [
      // another batch's question, unsealed
      () =>
        JSON.stringify({ key: keyB, revision: revisionB, questionId: 'notes', questionIndex: 1 }),
      // the seal kept, the batch changed
      (sealed: string) =>
        `${sealed.slice(0, 23)}${JSON.stringify({ key: keyB, revision: revisionB, questionId: 'notes' })}`,
      // a question that does not exist
      (sealed: string) => sealed.replace('"questionId":"notes"', '"questionId":"made-up"'),
      (sealed: string) => sealed.replace('"questionId":"notes"', '"questionId":"__proto__"'),
    ];
    for (const forge of forgeries) {
      const result = await submitNotes(h, viewId, 'forged text', withMetadata(forge));
      assert.equal(result.acked, true);
      assert.match(await formError(h), /not one the relay can check/);
    }
    assert.equal(updates(h), before, 'no text saved anywhere');
    // the real form still works, and the batch can be answered
    await submitNotes(h, viewId, 'real notes');
    await waitFor(
      () => JSON.stringify(current(h.slack, a.ts).blocks).includes('real notes'),
      'the notes shown',
    );
    await h.slack.selectOption({
      ...at(a.ts, controlOf(current(h.slack, a.ts).blocks, 0)),
      value: '2',
    });
    await waitForSelection(h.slack, a.ts, 0, ['2']);
    await pressSubmit(h.slack, a.ts);
    const written = (await answerFile(h.runDir('run-a'))) as { answers: { answer: unknown }[] };
    assert.deepEqual(
      written.answers.map((x) => x.answer),
      ['YAML', 'real notes'],
    );
    assert.deepEqual(await qaFiles(h, 'run-b'), ['q-out-001.json']);
  });
});

/** Presses Submit with the payload changed by `forge`. */
async function submitWith(h: Harness, ts: string, forge: (p: JsonObject) => JsonObject) {
  const button = findElement(current(h.slack, ts).blocks, ACTION_KINDS.submit);
  const result = await h.slack.clickButton({ ...at(ts, button), forge });
  assert.equal(result.acked, true);
}
