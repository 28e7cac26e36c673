import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { FileWriteError } from '../../src/fs/file-write-error.js';
import { publishFileNoClobber } from '../../src/fs/publish-file.js';
import {
  ALICE,
  CHANNEL,
  channelMessages,
  elementsOf,
  findElement,
  type Harness,
  startRelayHarness,
  visibleText,
} from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { answerFile, at, E2E_MODE } from './relay-steps.js';

const BATCH = {
  seq: 1,
  questions: [
    {
      id: 'env',
      type: 'choose-one',
      prompt: 'Which environment?',
      options: ['staging', 'prod', 'dev', 'qa', 'perf', 'demo'],
    },
  ],
};

const mode = E2E_MODE;
describe(`an answer file that cannot be written (${mode} mode)`, () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  test('the message says so, the answers are kept, and Submit works once the disk is back', async () => {
    let failures = 1;
    h = await startRelayHarness(mode, {
      start: {
        // The disk refuses the first write, the way a full or read-only disk would.
        publish: async (dir, name, content) => {
          if (failures > 0) {
            failures -= 1;
            const cause = Object.assign(new Error('ENOSPC: no space left on device'), {
              code: 'ENOSPC',
            });
            throw new FileWriteError('writing', path.join(dir, name), cause);
          }
          return publishFileNoClobber(dir, name, content);
        },
      },
    });
    const run = h.runDir('run-disk');
    await writeQuestionFile(run, 1, BATCH);
    const posted = await waitFor(() => channelMessages(h.slack)[0], 'batch message');
    const ts = posted.ts;
    const current = () => h.slack.message(CHANNEL, ts) ?? posted;
    const choose = findElement(current().blocks, ACTION_KINDS.choose);
    await h.slack.selectOption({ ...at(ts, choose), value: '1' });
    const submit = findElement(current().blocks, ACTION_KINDS.submit);
    await h.slack.clickButton(at(ts, submit));

    const notice = await waitFor(() => h.slack.ephemerals(ALICE)[0], 'failure notice');
    assert.match(notice.text, /could not be written/);
    assert.match(notice.text, /no space left on device/);
    assert.match(notice.text, /press Submit again/);
    await waitFor(
      () => /no space left on device/.test(visibleText(current())),
      'failure shown in the message',
    );
    assert.deepEqual(
      await readdir(path.join(run, 'qa')),
      ['q-out-001.json'],
      'nothing written, no temp file left',
    );
    assert.ok(
      elementsOf(current().blocks).some((e) => e.actionId === ACTION_KINDS.submit),
      'Submit is still there',
    );

    const again = findElement(current().blocks, ACTION_KINDS.submit);
    await h.slack.clickButton(at(ts, again));
    const written = await answerFile(run);
    assert.equal(
      (written.answers as { answer: unknown }[])[0]?.answer,
      'prod',
      'the choice made before the failure was kept',
    );
    await waitFor(() => elementsOf(current().blocks).length === 0, 'final message');
    assert.doesNotMatch(visibleText(current()), /no space left/);
    assert.deepEqual(h.slack.failures, []);
  });
});
