import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { webApi } from '@slack/bolt';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import {
  ALICE,
  CHANNEL,
  channelMessages,
  findElement,
  type Harness,
} from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { E2E_MODE, relayStarter } from './relay-steps.js';

const batch = (prompt: string) => ({
  seq: 1,
  questions: [{ id: 'go', type: 'yes-no', prompt }],
});

const mode = E2E_MODE;
describe(`a batch message deleted in Slack (${mode} mode)`, () => {
  let h: Harness;
  const startRelay = relayStarter();

  test('is posted again on its next change instead of retrying an edit forever', async () => {
    h = await startRelay();
    const run = h.runDir('run-deleted');
    await writeQuestionFile(run, 1, batch('Ship it?'));
    const first = await waitFor(() => channelMessages(h.slack)[0], 'batch message');
    const client = new webApi.WebClient(h.slack.botToken, { slackApiUrl: h.slack.apiUrl });
    await client.chat.delete({ channel: CHANNEL, ts: first.ts });

    // The agent rewrites the batch: the relay must show it, and the old message is gone.
    await writeQuestionFile(run, 1, batch('Ship it now?'));
    const again = await waitFor(
      () =>
        channelMessages(h.slack).find((m) => m.ts !== first.ts && m.text.includes('Ship it now?')),
      'the batch posted again',
    );
    const yes = findElement(again.blocks, ACTION_KINDS.oneTap);
    await h.slack.clickButton({
      channel: CHANNEL,
      ts: again.ts,
      blockId: yes.blockId,
      actionId: yes.actionId,
      user: ALICE,
    });
    await waitFor(
      async () => (await readdir(path.join(run, 'qa'))).includes('q-answers-001.json'),
      'answer file',
    );
    assert.equal(channelMessages(h.slack).length, 1, 'one live message for the batch');
    assert.deepEqual(h.slack.failures, []);
  });
});
