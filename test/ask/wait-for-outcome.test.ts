import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { type AskFolder, askFolder } from '../../src/ask/ask-folder.js';
import { waitForOutcome } from '../../src/ask/wait-for-outcome.js';
import { serializeCancellation } from '../../src/core/envelope/ask-cancellation.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('waiting for an ask to end', () => {
  let cleanup: () => Promise<void>;
  let folder: AskFolder;

  beforeEach(async () => {
    let root: string;
    ({ dir: root, cleanup } = await makeTempDir('o7-wait-'));
    folder = askFolder(root, 'ask-1');
    await mkdir(path.dirname(folder.questionFile), { recursive: true });
    await writeFile(folder.questionFile, '{}');
  });
  afterEach(async () => {
    await cleanup();
  });

  test('ends with the answer file once it appears', async () => {
    const waiting = waitForOutcome(folder, { pollMs: 50 });
    setTimeout(() => void writeFile(folder.answerFile, '{"seq":1}'), 30);
    assert.deepEqual(await waiting, { kind: 'answered', text: '{"seq":1}' });
  });

  test('ends with the cancellation the relay wrote', async () => {
    const cancellation = { seq: 1, cancelledBy: 'U1', cancelledAt: '2026-05-01T00:00:00.000Z' };
    const waiting = waitForOutcome(folder, { pollMs: 50 });
    setTimeout(
      () =>
        void writeFile(
          path.join(folder.dir, 'cancelled.json'),
          serializeCancellation(cancellation),
        ),
      30,
    );
    assert.deepEqual(await waiting, { kind: 'cancelled', cancellation });
  });

  test('on timeout removes the question file, so the relay withdraws the batch', async () => {
    assert.deepEqual(await waitForOutcome(folder, { timeoutMs: 50, pollMs: 20 }), {
      kind: 'timed-out',
    });
    assert.deepEqual(await readdir(path.dirname(folder.questionFile)), []);
  });

  test('an abort withdraws too, and names its reason', async () => {
    const controller = new AbortController();
    const waiting = waitForOutcome(folder, { signal: controller.signal, pollMs: 20 });
    controller.abort('SIGINT');
    assert.deepEqual(await waiting, { kind: 'aborted', reason: 'SIGINT' });
    assert.deepEqual(await readdir(path.dirname(folder.questionFile)), []);
  });

  test('an answer that is already there wins over a timeout', async () => {
    await writeFile(folder.answerFile, 'answered');
    const outcome = await waitForOutcome(folder, { timeoutMs: 1, pollMs: 20 });
    assert.deepEqual(outcome, { kind: 'answered', text: 'answered' });
    assert.ok((await readdir(path.dirname(folder.questionFile))).includes('q-out-001.json'));
  });
});
