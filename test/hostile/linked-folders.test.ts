// Run folders and qa/ folders that are symbolic links. A symlinked question file was refused,
// but a symlinked qa/ folder was followed: its questions were shown and the answer file was
// written through the link, outside the watched folder. Now one rule (src/fs/folder-guard.ts)
// decides what is read and written: a real folder below a watched root, reached through no
// link below it. Each refused folder gets one notice naming it, and nothing is written
// anywhere but the watched folder and the state folder.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  answerFile,
  batchMessages,
  E2E_MODE,
  GO,
  pressSubmit,
  pressYesNo,
  relayPerTest,
  waitForBatchMessage,
} from '../e2e/relay-steps.js';
import { CHANNEL } from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

/** Every file below `dir` with its content, paths relative to `dir`; `skip` names top folders. */
async function filesBelow(dir: string, skip: readonly string[] = []): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      const rel = path.relative(dir, full);
      if (skip.includes(rel)) continue;
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) found.set(rel, await readFile(full, 'utf8'));
      else found.set(rel, `(${entry.isSymbolicLink() ? 'link' : 'other'})`);
    }
  };
  await walk(dir);
  return found;
}

const batch = (prompt: string) => ({
  seq: 1,
  questions: [{ id: 'ok', type: 'yes-no', prompt }, GO],
});

const mode = E2E_MODE;
describe(`run folders and qa/ folders that are links (${mode} mode)`, () => {
  const h = relayPerTest({ mode });
  let elsewhere: string;
  before(async () => {
    elsewhere = await mkdtemp(path.join(os.tmpdir(), 'o7-elsewhere-'));
  });
  after(async () => {
    await rm(elsewhere, { recursive: true, force: true });
  });

  /** The channel's notices that name `folder` (top-level text, escaped like all mrkdwn). */
  const noticesAbout = (folder: string) =>
    h.slack.messages(CHANNEL).filter((m) => m.text.startsWith(`${folder} is a symbolic link`));

  test('are refused with a notice naming each, and nothing is written outside', async () => {
    const runs = path.join(h.root, 'runs');
    const outside = await mkdtemp(path.join(elsewhere, 'run-'));
    // qa -> a temp folder outside the root, holding a batch
    await writeQuestionFile(outside, 1, batch('Through a qa/ link?'));
    await mkdir(path.join(runs, 'run-qa-link'), { recursive: true });
    await symlink(path.join(outside, 'qa'), path.join(runs, 'run-qa-link', 'qa'));
    // a run folder that is a link to a run outside
    const outsideRun = await mkdtemp(path.join(elsewhere, 'run-'));
    await writeQuestionFile(outsideRun, 1, batch('Through a run folder link?'));
    await symlink(outsideRun, path.join(runs, 'run-linked'));
    // `..` tricks: a relative qa/ link climbing out of the root, and a run folder link to `..`
    await writeQuestionFile(path.join(h.root, 'beside'), 1, batch('Up and out?'));
    await mkdir(path.join(runs, 'run-up'), { recursive: true });
    await symlink('../../beside/qa', path.join(runs, 'run-up', 'qa'));
    await writeQuestionFile(h.root, 1, batch('The root above the runs?'));
    await symlink('..', path.join(runs, 'up'));
    const before = {
      elsewhere: await filesBelow(elsewhere),
      root: await filesBelow(h.root, ['runs', 'state']),
    };

    // a run of real folders beside them, shown and answered as ever
    await writeQuestionFile(path.join(runs, 'run-ok'), 1, batch('Real folders?'));
    const ok = await waitForBatchMessage(h.slack, 'run-ok', 1);
    await pressYesNo(h.slack, ok.ts, 0, true);
    await pressYesNo(h.slack, ok.ts, 1, true);
    await pressSubmit(h.slack, ok.ts);
    assert.equal((await answerFile(path.join(runs, 'run-ok'))).seq, 1);

    const refused = [
      path.join(runs, 'run-qa-link', 'qa'),
      path.join(runs, 'run-linked'),
      path.join(runs, 'run-up', 'qa'),
      path.join(runs, 'up'),
    ];
    for (const folder of refused) {
      await waitFor(() => noticesAbout(folder)[0], `the notice about ${folder}`);
    }
    const [qaNotice] = noticesAbout(refused[0] as string);
    assert.ok(qaNotice?.text.includes(`to ${path.join(outside, 'qa')}`), qaNotice?.text);
    for (const name of ['run-qa-link', 'run-linked', 'run-up', 'up']) {
      assert.deepEqual(batchMessages(h.slack, name, 1), [], `nothing of ${name} is shown`);
    }
    // one notice each, however often the folders were looked at
    await h.restart();
    await writeQuestionFile(path.join(runs, 'run-after'), 1, batch('After a restart?'));
    await waitForBatchMessage(h.slack, 'run-after', 1);
    for (const folder of refused) assert.equal(noticesAbout(folder).length, 1, folder);

    assert.deepEqual(await filesBelow(elsewhere), before.elsewhere, 'nothing written outside');
    assert.deepEqual(await filesBelow(h.root, ['runs', 'state']), before.root);
  });

  test('a qa/ folder turned into a link after its batch was shown gets no answer file', async () => {
    const run = path.join(h.root, 'runs', 'run-swap');
    await writeQuestionFile(run, 1, batch('Swapped?'));
    const { ts } = await waitForBatchMessage(h.slack, 'run-swap', 1);
    await pressYesNo(h.slack, ts, 0, true);
    await pressYesNo(h.slack, ts, 1, false);
    // the agent's qa/ moves away and a link to a copy outside takes its place
    const outside = await mkdtemp(path.join(elsewhere, 'swap-'));
    await rename(path.join(run, 'qa'), path.join(outside, 'qa'));
    await symlink(path.join(outside, 'qa'), path.join(run, 'qa'));
    await waitFor(() => noticesAbout(path.join(run, 'qa'))[0], 'the notice about the link');

    await pressSubmit(h.slack, ts);
    const failed = await waitFor(
      () =>
        h.slack
          .message(CHANNEL, ts)
          ?.blocks.map((b) => JSON.stringify(b))
          .find((b) => b.includes('could not be saved')),
      'the batch saying the answers could not be saved',
    );
    assert.ok(failed.includes(`is a symbolic link to ${path.join(outside, 'qa')}`), failed);
    assert.deepEqual(await readdir(path.join(outside, 'qa')), ['q-out-001.json']);

    // the folder back: Submit writes the answers, kept meanwhile, where they belong
    await rm(path.join(run, 'qa'));
    await rename(path.join(outside, 'qa'), path.join(run, 'qa'));
    await pressSubmit(h.slack, ts);
    const answers = (await answerFile(run)).answers as { answer: unknown }[];
    assert.deepEqual(
      answers.map((a) => a.answer),
      [true, false],
    );
  });
});
