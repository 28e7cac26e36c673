// The same checks over both ways Slack reaches the relay, Socket Mode and HTTP (as bolt runs its
// receiver specs): every kind of interaction the relay takes arrives, is acknowledged in time
// and is answered the same. The other end-to-end scenarios run in one mode (E2E_MODE), since
// what they test lies behind the transport.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALICE, BOB } from '../support/relay-harness.js';
import {
  answerFile,
  at,
  choose,
  controlOf,
  GO,
  healthyRelayPerTest,
  MODES,
  nextEphemeral,
  openHome,
  postBatch,
  pressSubmit,
  pressYesNo,
  qaFiles,
  waitForAnswered,
  waitForSelection,
  writeFreeText,
} from './relay-steps.js';

const EVERY_KIND = {
  seq: 1,
  questions: [
    { id: 'format', type: 'choose-one', prompt: 'Output format?', options: ['JSON', 'CSV'] },
    { id: 'targets', type: 'choose-many', prompt: 'Targets?', options: ['web', 'ios', 'android'] },
    { id: 'notes', type: 'free-write', prompt: 'Anything else?' },
    GO,
  ],
};

/** More options than a static select holds: the control loads them from the relay. */
const MANY = Array.from({ length: 150 }, (_, i) => `Site ${String(i + 1).padStart(3, '0')}`);

for (const mode of MODES) {
  describe(`the relay over ${mode === 'socket' ? 'Socket Mode' : 'HTTP'}`, () => {
    const h = healthyRelayPerTest(mode);

    test('block actions and a modal submission answer a batch; the answer file is exact', async () => {
      const { ts } = await postBatch(h, 'run-kinds', EVERY_KIND);
      await choose(h.slack, ts, 0, [1]);
      await choose(h.slack, ts, 1, [0, 2]);
      await writeFreeText(h.slack, ts, 2, 'Ship on Friday.');
      await pressYesNo(h.slack, ts, 3, true);
      await pressSubmit(h.slack, ts);
      const [format, targets, notes, go] = EVERY_KIND.questions;
      assert.deepEqual(await answerFile(h.runDir('run-kinds')), {
        seq: 1,
        answers: [
          { ...format, answer: 'CSV' },
          { ...targets, answer: ['web', 'android'] },
          { ...notes, answer: 'Ship on Friday.' },
          { ...go, answer: true },
        ],
        questions: EVERY_KIND.questions,
      });
      await waitForAnswered(h.slack, ts);
    });

    test('options load for a long list (block_suggestion) and the pick is stored', async () => {
      const batch = {
        seq: 1,
        questions: [{ id: 'site', type: 'choose-one', prompt: 'Site?', options: MANY }],
      };
      const { ts, blocks } = await postBatch(h, 'run-many', batch);
      const control = controlOf(blocks, 0);
      assert.equal(control.type, 'external_select');
      const found = await h.slack.suggest({ ...at(ts, control), value: 'Site 142' });
      assert.equal(found.acked, true);
      assert.deepEqual(
        found.options.map((o) => o.value),
        ['141'],
      );
      await h.slack.selectOption({ ...at(ts, control), value: '141' });
      await waitForSelection(h.slack, ts, 0, ['141']);
    });

    test('the App Home tab is published when opened (an event)', async () => {
      await postBatch(h, 'run-home', EVERY_KIND);
      const home = await openHome(h.slack, ALICE);
      assert.match(JSON.stringify(home.blocks), /run-home/);
    });

    test('a Submit the relay refuses is acknowledged and answered with an ephemeral', async () => {
      const { ts } = await postBatch(h, 'run-refused', EVERY_KIND);
      await choose(h.slack, ts, 0, [0]);
      await pressYesNo(h.slack, ts, 3, false);
      await pressSubmit(h.slack, ts, BOB);
      const told = await nextEphemeral(h.slack, BOB, 0);
      assert.match(
        String(told.text),
        /Questions 2 \("Targets\?"\) and 3 \("Anything else\?"\) still need answers\./,
      );
      assert.deepEqual(await qaFiles(h.runDir('run-refused')), ['q-out-001.json']);
    });
  });
}
