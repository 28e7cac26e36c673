import assert from 'node:assert/strict';
import { access, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { runLogName } from '../../src/store/run-log.js';
import { ALICE, CHANNEL, elementsOf, visibleText } from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  current,
  E2E_MODE,
  hasNoControls,
  relayPerTest,
  waitForAnswerFile,
  waitForBatchMessage,
} from './relay-steps.js';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

const oneTap = { seq: 1, questions: [{ id: 'go', type: 'yes-no', prompt: 'Ship it?' }] };

const mode = E2E_MODE;
describe(`a run folder that goes away (${mode} mode)`, () => {
  const h = relayPerTest();
  const stateFile = (runDir: string) => path.join(h.config.stateDir, 'runs', runLogName(runDir));

  test('its open batch is shown as removed, then the run is forgotten', async () => {
    const run = h.runDir('run-gone');
    await writeQuestionFile(run, 1, oneTap);
    const posted = await waitForBatchMessage(h.slack, 'run-gone', 1);
    await waitFor(() => exists(stateFile(run)), 'the open run to have a state file');

    await rm(run, { recursive: true });
    // rm deletes the question file before the folders: a sync in between sees the file
    // withdrawn; otherwise the folder is gone. Both close the batch.
    const closed = await waitFor(() => {
      const message = current(h.slack, posted.ts);
      const text = visibleText(message);
      return (text.includes('Run folder removed') || text.includes('Withdrawn')) && message;
    }, 'the message to say the batch is closed');
    assert.ok(hasNoControls(closed), 'nothing left to press');
    await waitFor(async () => !(await exists(stateFile(run))), 'the state file to go');
  });

  test('a run deleted while the relay was stopped is forgotten at the next start', async () => {
    const run = h.runDir('run-done');
    await writeQuestionFile(run, 1, oneTap);
    const posted = await waitForBatchMessage(h.slack, 'run-done', 1);
    const yes = elementsOf(posted.blocks).find(
      (e) => e.actionId.startsWith(ACTION_KINDS.oneTap) && e.element.value === 'yes',
    );
    assert.ok(yes, 'a one-tap Yes button');
    await h.slack.clickButton({
      channel: CHANNEL,
      ts: posted.ts,
      blockId: yes.blockId,
      actionId: yes.actionId,
      user: ALICE,
    });
    await waitForAnswerFile(run, 1);
    await waitFor(() => hasNoControls(current(h.slack, posted.ts)), 'the answered message');
    assert.ok(await exists(stateFile(run)), 'an answered run keeps its state while it exists');

    await h.restart(() => rm(run, { recursive: true }));
    await waitFor(async () => !(await exists(stateFile(run))), 'the state file to go');
    assert.equal(h.slack.messages(CHANNEL).length, 1, 'nothing new posted');
  });
});
