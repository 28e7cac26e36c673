// A crash while an answer file is published can leave our dot-prefixed temp file in the
// agent's qa/ folder (and, between link and unlink, a second name for the answer file). At
// start the relay removes its own leftovers there: only names of the form it writes, and only
// those of a process that is gone. Agents' and editors' dot files, and temp files of a live
// process, stay.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { tempPathBeside } from '../../src/fs/durable-io.js';
import { E2E_MODE, healthyRelayPerTest, postBatch } from '../e2e/relay-steps.js';
import { sampleBatch } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

const RUN = 'run-crashed';

const mode = E2E_MODE;
describe(`temp answer files a crash left behind (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('are removed at start, ours only', { timeout: 60_000 }, async () => {
    const run = h.runDir(RUN);
    const qa = path.join(run, 'qa');
    await postBatch(h, RUN, sampleBatch(1));
    const sleeper = spawn('sleep', ['60']);
    try {
      const ours = path.basename(tempPathBeside(path.join(qa, 'q-answers-001.json')));
      const gone = await deadPid();
      const leftovers = [
        ours.replace(`.${process.pid}.`, `.${gone}.`), // a relay that crashed
        ours, // an earlier process that had our pid (containers)
      ];
      const kept = [
        ours.replace(`.${process.pid}.`, `.${sleeper.pid}.`), // a live process publishing
        '.q-out-002.json.tmp', // the agent's own temp file
        '.q-answers-001.json.swp', // an editor's
        `.notes.json.${gone}.0123456789ab.tmp`, // our shape, but not an answer file
      ];
      await h.restart(async () => {
        for (const name of [...leftovers, ...kept]) await writeFile(path.join(qa, name), '{');
      });
      await waitFor(async () => {
        const names = await readdir(qa);
        return leftovers.every((name) => !names.includes(name));
      }, 'the leftovers removed');
      assert.deepEqual((await readdir(qa)).sort(), [...kept, 'q-out-001.json'].sort());
    } finally {
      sleeper.kill();
    }
  });
});
