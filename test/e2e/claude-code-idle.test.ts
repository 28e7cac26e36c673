// Claude Code's "waiting for your input" (its Notification hook, idle_prompt) told in Slack:
// `hook` leaves a notice in the relay's state folder and the relay posts one line in the
// project's channel, defused and with secrets masked. Anything in that folder that is not a
// notice is logged with why and removed; the relay carries on.
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { noticesDir } from '../../src/claude-code/idle-notices.js';
import { captureLog, LEVEL } from '../support/log-capture.js';
import {
  ALICE,
  BOB,
  CHANNEL,
  type Harness,
  startRelayHarness,
  visibleText,
} from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import { E2E_MODE } from './relay-steps.js';
import { spawnHook } from './steps/hook-prompts.js';

const BETA = 'C0BETA001';
const TOKEN = `xoxb-${'1234567890'.repeat(3)}-abcdefABCDEF`;

/** `o7-slack-relay hook` given a Notification of `type` from a session in `project`. */
async function notify(stateDir: string, project: string, type: string, message: string) {
  const proc = spawnHook(stateDir, project, 'f00dfeed-1234', {
    hook_event_name: 'Notification',
    message,
    notification_type: type,
  });
  const { code } = await proc.exited;
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

const noticesIn = (h: Harness, channel: string) =>
  h.slack.messages(channel).filter((m) => visibleText(m).includes('Claude Code is waiting'));

describe(`Claude Code waiting for the person, told in Slack (${E2E_MODE} mode)`, () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  async function start(log = captureLog('info')) {
    h = await startRelayHarness(E2E_MODE, {
      log: log.log,
      prepare: async (slack, root) => {
        slack.addChannel({ id: BETA, name: 'beta', members: [ALICE, BOB] });
        await mkdir(path.join(root, 'beta', 'service'), { recursive: true });
        return {
          watch: [
            { path: path.join(root, 'runs'), channel: CHANNEL },
            { path: path.join(root, 'beta'), channel: BETA },
          ],
        };
      },
    });
    return { h, log };
  }

  test("idle_prompt: one line in the project's channel, naming the project and session; the notice is gone", async () => {
    const { h } = await start();
    const project = path.join(h.root, 'beta', 'service');
    const said = `Claude is waiting for your input <!here> ${TOKEN}`;
    const run = await notify(h.config.stateDir, project, 'idle_prompt', said);
    assert.deepEqual([run.code, run.stdout, run.stderr], [0, '', '']);
    const posted = await waitFor(() => noticesIn(h, BETA)[0], 'the note in beta');
    const text = visibleText(posted);
    assert.match(text, /project .*beta\/service · session f00dfeed/);
    assert.match(text, /Claude is waiting for your input/);
    assert.ok(!JSON.stringify(posted).includes(TOKEN.slice(5)), 'the token is masked');
    assert.ok(!JSON.stringify(posted).includes('<!here>'), 'no mention reaches Slack');
    assert.deepEqual(noticesIn(h, CHANNEL), [], 'not in the default channel');
    await waitFor(
      async () => (await readdir(noticesDir(h.config.stateDir))).length === 0,
      'the notice file removed',
    );

    // a session outside every watched folder: the default channel
    await notify(h.config.stateDir, h.root, 'idle_prompt', 'Claude is waiting for your input');
    await waitFor(() => noticesIn(h, CHANNEL).length === 1, 'the note in the default channel');
    // other notifications stay in the terminal
    const other = await notify(h.config.stateDir, project, 'permission_prompt', 'Claude needs …');
    assert.deepEqual([other.code, other.stdout, other.stderr], [0, '', '']);
    assert.deepEqual(await readdir(noticesDir(h.config.stateDir)), [], 'nothing left for it');
  });

  test('a file in the notices folder that is not a notice is logged with why and removed, a stale one too; the next notice is posted', async () => {
    const { h, log } = await start();
    const dir = noticesDir(h.config.stateDir);
    const bad = path.join(dir, '20261206T120000000Z-0badf00d.json');
    await writeFile(bad, JSON.stringify({ project: '', message: 1 }));
    await waitFor(
      () =>
        log.records.some(
          (r) => r.level === LEVEL.warn && r.file === bad && /not a notice/.test(String(r.msg)),
        ),
      'the warning naming the file',
    );
    await waitFor(async () => !(await readdir(dir)).includes(path.basename(bad)), 'removed');
    // one left an hour ago (the relay was down): Claude may long have gone on, so not posted
    const stale = path.join(dir, '20261206T110000000Z-0000aaaa.json');
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await writeFile(
      stale,
      JSON.stringify({ project: h.root, session: 's', message: 'm', at: hourAgo }),
    );
    await waitFor(
      () => log.records.some((r) => r.file === stale && /older than 10 min/.test(String(r.msg))),
      'the stale notice logged',
    );
    await waitFor(async () => !(await readdir(dir)).includes(path.basename(stale)), 'removed');
    await notify(h.config.stateDir, h.root, 'idle_prompt', 'Claude is waiting for your input');
    await waitFor(() => noticesIn(h, CHANNEL).length === 1, 'the next note posted');
    assert.equal(noticesIn(h, CHANNEL).length, 1, 'only that one');
  });
});
