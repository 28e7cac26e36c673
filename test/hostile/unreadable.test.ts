// Files and folders the relay's user may not read used to reach only the log: a q-out the
// agent wrote with mode 600 under another user, or a qa/ folder without read permission,
// left the agent waiting with nobody in Slack the wiser. Now an unreadable q-out is shown as
// a batch that cannot be read, with the reason, and an unreadable folder gets one notice;
// both recover once the permissions are fixed.
//
// Permissions do not stop root, which CI and this machine run as. So when the tests run as
// root, the relay runs as a real child process under the unprivileged user `nobody`, where
// chmod 000 gives a real EACCES; as any other user, chmod alone does it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { E2E_MODE, headerOf } from '../e2e/relay-steps.js';
import { asRoot, needs, reachableBy } from '../support/preconditions.js';
import { CHANNEL, elementsOf, freePort, visibleText } from '../support/relay-harness.js';
import { relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const NOBODY = { uid: 65534, gid: 65534 };

const mode = E2E_MODE;
describe(`files and folders the relay may not read (${mode} mode)`, () => {
  const fx = relayProcessPerTest('o7-eacces-', () =>
    execFileSync('chmod', ['-R', 'u+rwX', fx.root]),
  );

  const messages = () => fx.slack.messages(CHANNEL);
  const batchMessage = (run: string) =>
    messages().find((m) => headerOf(m.blocks) === `Run ${run} · batch 1`);

  test('reach Slack with the reason, once, and recover when fixed', {
    timeout: 120_000,
    ...needs(reachableBy(NOBODY, 'user nobody')),
  }, async () => {
    const fileRun = path.join(fx.root, 'runs', 'run-file');
    const folderRun = path.join(fx.root, 'runs', 'run-folder');
    const file = await writeQuestionFile(fileRun, 1, sampleBatch(1));
    await writeQuestionFile(folderRun, 1, sampleBatch(1));
    const qa = path.join(folderRun, 'qa');
    const lockedRun = path.join(fx.root, 'runs', 'run-locked');
    await writeQuestionFile(lockedRun, 1, sampleBatch(1));
    await mkdir(path.join(fx.root, 'state'));
    if (asRoot) execFileSync('chown', ['-R', `${NOBODY.uid}:${NOBODY.gid}`, fx.root]);
    await chmod(file, 0o000);
    await chmod(qa, 0o000);
    await chmod(lockedRun, 0o000);

    const port = mode === 'http' ? await freePort() : undefined;
    fx.relay = spawnRelayFor(fx.slack, fx.root, {
      logLevel: 'info',
      ...(port !== undefined ? { httpPort: port } : {}),
      ...(asRoot ? { user: NOBODY } : {}),
    });
    await fx.relay.waitForLog('relay ready');
    if (asRoot) {
      const owner = execFileSync('stat', ['-c', '%u', path.join(fx.root, 'state', 'relay.lock')]);
      assert.equal(String(owner).trim(), String(NOBODY.uid), 'the relay runs as nobody');
    }

    // the unreadable q-out: a batch that cannot be read, saying why
    const refused = await waitFor(() => batchMessage('run-file'), 'the run-file message');
    assert.ok(
      visibleText(refused).includes(
        `${file}: 1 problem\n  - at (whole file): the relay will not read it: the relay's user may not read it (EACCES); grant it read permission on the file and its folders`,
      ),
      visibleText(refused),
    );
    // unreadable folders: one notice each, however many times (and ways) they were met; a
    // run folder without permissions makes its qa/ unreadable too, which is the same problem
    const noticeOf = (where: string) =>
      `The relay may not read ${where} (EACCES), so questions in it cannot be shown. Grant the user running the relay read permission on it (and search permission on its folders), or stop watching it.`;
    const notices = () => messages().filter((m) => m.text.startsWith('The relay may not read'));
    await waitFor(() => notices().length === 2, 'the two folder notices');
    assert.deepEqual(
      notices()
        .map((m) => m.text)
        .sort(),
      [noticeOf(qa), noticeOf(lockedRun)].sort(),
    );

    await chmod(file, 0o644);
    await chmod(qa, 0o755);
    await chmod(lockedRun, 0o755);
    await waitFor(
      () => elementsOf(batchMessage('run-file')?.blocks ?? []).length > 0,
      'the run-file batch, readable now',
    );
    // the folders are shown and watched again: a rewritten q-out in them is seen
    for (const [run, dir] of [
      ['run-folder', folderRun],
      ['run-locked', lockedRun],
    ] as const) {
      const shown = await waitFor(() => batchMessage(run), `the ${run} batch`);
      const rewritten = sampleBatch(1);
      rewritten.questions[0] = {
        ...rewritten.questions[0],
        prompt: 'Output format, second try?',
      } as never;
      await writeQuestionFile(dir, 1, rewritten);
      await waitFor(
        () => visibleText(fx.slack.message(CHANNEL, shown.ts) ?? shown).includes('second try'),
        `the rewritten batch of ${run}`,
      );
    }
    assert.equal(notices().length, 2);
    assert.equal(
      fx.relay.logs.filter((l) => l.msg === 'cannot read a watched path').length,
      2,
      'one log warning for each',
    );
  });
});
