// A real relay process with one batch posted, for hostile tests: an uncaught error in an
// in-process relay would end the test runner instead of showing the crash.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before } from 'node:test';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import { controlOf } from '../e2e/relay-steps.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { ALICE, CHANNEL, findElement, freePort, type Mode } from '../support/relay-harness.js';
import { type RelayProcess, spawnRelayFor } from '../support/spawn-relay.js';
import { makeTempDir, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

/** In every hostile body that has room for it; no log line may ever show it. */
export const SECRET = 'xoxb-hostile-marker-0000';
/** Over the 4 MB a relay takes in HTTP mode. */
export const FIVE_MB = 5 * 1024 * 1024;

/** Two questions, so the choice is not a one-tap batch: picking records a draft, Submit answers. */
export const BATCH = {
  seq: 1,
  questions: [
    {
      id: 'format',
      type: 'choose-one',
      prompt: 'Output format?',
      options: ['JSON', 'CSV', 'YAML'],
    },
    { id: 'go', type: 'yes-no', prompt: 'Proceed?' },
  ],
};

/** The `user` of hostile payloads. */
export const user = { id: ALICE, username: 'alice', team_id: 'T0' };
/** A click payload with `fields` laid over it. */
export const click = (fields: Record<string, unknown>) => ({
  type: 'block_actions',
  token: SECRET,
  user,
  team: { id: 'T0' },
  actions: [{ action_id: actionId(ACTION_KINDS.choose, 0), type: 'radio_buttons' }],
  ...fields,
});
/** JSON text of arrays nested `levels` deep. */
export const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** A relay process with one batch posted, and the click that proves it still answers. */
export interface Session {
  slack: FakeSlack;
  proc: RelayProcess;
  runDir: string;
  ts: string;
  cleanup(): Promise<void>;
}

/** Starts a relay process in `mode` against a fresh stand-in and waits for its batch. */
async function startSession(mode: Mode): Promise<Session> {
  const slack = await startFakeSlack();
  const { dir: root, cleanup } = await makeTempDir(`o7-hostile-${mode}-`);
  await mkdir(path.join(root, 'runs'), { recursive: true });
  const port = mode === 'http' ? await freePort() : undefined;
  const proc = spawnRelayFor(slack, root, { logLevel: 'info', httpPort: port });
  await proc.waitForLog('relay ready');
  const runDir = path.join(root, 'runs', 'run-hostile');
  await writeQuestionFile(runDir, 1, BATCH);
  const message = await waitFor(() => slack.messages(CHANNEL)[0], 'the batch posted');
  return {
    slack,
    proc,
    runDir,
    ts: message.ts,
    async cleanup() {
      await proc.kill();
      await slack.close();
      await cleanup();
    },
  };
}

/**
 * One session for all the tests of the describe this is called in: started before them, cleaned
 * up after them. Call the function it returns inside a test.
 */
export function sessionPerSuite(mode: Mode): () => Session {
  let session: Session | undefined;
  before(async () => {
    session = await startSession(mode);
  });
  after(async () => {
    await session?.cleanup();
  });
  return () => {
    assert.ok(session, `the ${mode} session of sessionPerSuite is there only while its tests run`);
    return session;
  };
}

/** The option value the choice control of question 1 shows as picked, if any. */
export function picked(s: Session): string | undefined {
  const blocks = s.slack.message(CHANNEL, s.ts)?.blocks ?? [];
  const element = controlOf(blocks, 0).element as { initial_option?: { value: string } };
  return element.initial_option?.value;
}

/** Alice picks another option; the relay must record it and show it. */
export async function answersNextClick(s: Session): Promise<void> {
  assert.equal(s.proc.child.exitCode, null, `the relay exited: ${s.proc.stderr().slice(-800)}`);
  assert.equal(s.proc.child.signalCode, null);
  const value = String((Number(picked(s) ?? '-1') + 1) % 3);
  const control = controlOf(s.slack.message(CHANNEL, s.ts)?.blocks ?? [], 0);
  const result = await s.slack.selectOption({
    channel: CHANNEL,
    ts: s.ts,
    blockId: control.blockId,
    actionId: control.actionId,
    user: ALICE,
    value,
  });
  assert.equal(result.acked, true, 'the next click was acknowledged');
  await waitFor(() => picked(s) === value, `option ${value} shown as picked`);
}

/** Waits for the refusal logged since `since` whose problem matches, and checks no line leaked the secret. */
export async function refusalSince(s: Session, since: number, msg: string, problem: RegExp) {
  const line = await waitFor(
    () => s.proc.logs.slice(since).find((l) => l.msg === msg && problem.test(String(l.problem))),
    `"${msg}" with a problem matching ${problem} (logged: ${JSON.stringify(s.proc.logs.slice(since)).slice(0, 600)})`,
  );
  assert.equal(line.level, 40, 'logged as a warning');
  const leaked = s.proc.logs.slice(since).filter((l) => JSON.stringify(l).includes(SECRET));
  assert.deepEqual(leaked, [], 'no log line shows the body');
  return line;
}

/** Yes on question 2, then Submit; returns the answer file the relay wrote. */
async function submitAndReadAnswers(s: Session): Promise<unknown> {
  const blocks = () => s.slack.message(CHANNEL, s.ts)?.blocks ?? [];
  const yes = findElement(blocks(), actionId(ACTION_KINDS.yesNo, 1, 'yes'));
  await s.slack.clickButton({
    channel: CHANNEL,
    ts: s.ts,
    blockId: yes.blockId,
    actionId: yes.actionId,
    user: ALICE,
  });
  await waitFor(() => JSON.stringify(blocks()).includes('✓ Yes'), 'yes shown');
  const submit = findElement(blocks(), ACTION_KINDS.submit);
  const result = await s.slack.clickButton({
    channel: CHANNEL,
    ts: s.ts,
    blockId: submit.blockId,
    actionId: submit.actionId,
    user: ALICE,
  });
  assert.equal(result.acked, true);
  const qa = path.join(s.runDir, 'qa');
  await waitFor(
    async () => (await readdir(qa)).includes('q-answers-001.json'),
    'q-answers-001.json',
  );
  return JSON.parse(await readFile(path.join(qa, 'q-answers-001.json'), 'utf8'));
}

/**
 * After every refusal: Yes and Submit write the answer file with the last choice, and the
 * relay logged no error (the guards, not the safety net, handled everything).
 */
export async function assertSubmitWritesAnswers(s: Session): Promise<void> {
  const choice = BATCH.questions[0]?.options?.[Number(picked(s))];
  const answers = (await submitAndReadAnswers(s)) as { answers: { answer: unknown }[] };
  assert.deepEqual(
    answers.answers.map((a) => a.answer),
    [choice, true],
  );
  assert.deepEqual(
    s.proc.logs.filter((l) => Number(l.level) >= 50),
    [],
    'no error logged',
  );
}
