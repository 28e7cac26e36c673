// Helpers for the end-to-end tests of `o7-slack-relay ask`: a real `ask` process against a
// real relay (in this process, or spawned) and the loopback Slack stand-in.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { FOLLOW_UP_INPUT } from '../../src/core/slack/ids.js';
import type { FakeSlack, ObservedMessage, StoredMessage } from '../support/fake-slack/index.js';
import { ALICE, CHANNEL, elementsOf, type FoundElement } from '../support/relay-harness.js';
import { type RelayProcess, spawnRelay } from '../support/spawn-relay.js';
import { waitFor } from '../support/wait.js';

/** The header of an `ask` batch's message. */
export const ASK_TITLE = 'Questions from an agent';

/** Runs `o7-slack-relay ask <args>` as a real process, the message piped to its stdin. */
export function spawnAsk(
  stateDir: string,
  cwd: string,
  message: string,
  args: string[] = [],
): RelayProcess {
  return spawnRelay(['ask', ...args], { env: { RELAY_STATE_DIR: stateDir }, cwd, stdin: message });
}

/** Waits for the process to end; its exit code. */
export async function exitCodeOf(proc: RelayProcess): Promise<number | null> {
  const { code } = await proc.exited;
  return code;
}

/** The `n`th (0-based) message of an `ask` batch in the channel, once it is posted. */
export function askMessage(slack: FakeSlack, n = 0): Promise<ObservedMessage> {
  return waitFor(
    () => slack.messages(CHANNEL).filter((m) => headerOf(m.blocks) === ASK_TITLE)[n],
    `ask message ${n + 1}`,
    20_000,
  );
}

function headerOf(blocks: readonly Record<string, unknown>[]): string | undefined {
  const header = blocks.find((b) => b.type === 'header') as { text?: { text?: string } };
  return header?.text?.text;
}

/** A message as it is now. */
export function now(slack: FakeSlack, ts: string): StoredMessage {
  const found = slack.message(CHANNEL, ts);
  if (!found) throw new Error(`message ${ts} is gone`);
  return found;
}

/** The element with exactly this action id in the message as it is now. */
export function element(slack: FakeSlack, ts: string, actionId: string): FoundElement {
  const found = elementsOf(now(slack, ts).blocks).find((e) => e.actionId === actionId);
  if (!found) {
    const ids = elementsOf(now(slack, ts).blocks).map((e) => e.actionId);
    throw new Error(`no element ${actionId} (have: ${ids.join(', ')})`);
  }
  return found;
}

const where = (ts: string, e: FoundElement, user: string) => ({
  channel: CHANNEL,
  ts,
  user,
  blockId: e.blockId,
  actionId: e.actionId,
});

/** Picks option `index` of question `q` (radio buttons) as `user`. */
export async function pick(slack: FakeSlack, ts: string, q: number, index: number, user = ALICE) {
  const result = await slack.selectOption({
    ...where(ts, element(slack, ts, `o7.choose:${q}`), user),
    value: String(index),
  });
  assert.equal(result.acked, true);
  await waitForSelection(slack, ts, `o7.choose:${q}`, [String(index)]);
}

/** Ticks exactly options `indices` of question `q` (checkboxes) as `user`. */
export async function tick(
  slack: FakeSlack,
  ts: string,
  q: number,
  indices: number[],
  user = ALICE,
) {
  const values = indices.map(String);
  const result = await slack.selectOptions({
    ...where(ts, element(slack, ts, `o7.choose-many:${q}`), user),
    values,
  });
  assert.equal(result.acked, true);
  await waitForSelection(slack, ts, `o7.choose-many:${q}`, values);
}

/** Waits until the message shows these option values as chosen (the choice was stored). */
async function waitForSelection(slack: FakeSlack, ts: string, actionId: string, values: string[]) {
  await waitFor(
    () => {
      const { element: control } = element(slack, ts, actionId);
      const one = control.initial_option as { value: string } | undefined;
      const many = control.initial_options as { value: string }[] | undefined;
      const shown = one ? [one.value] : (many ?? []).map((o) => o.value);
      return shown.length === values.length && shown.every((v, i) => v === values[i]);
    },
    `${actionId} showing [${values.join(', ')}]`,
  );
}

/** Clicks a button of the message as `user`. */
export async function press(slack: FakeSlack, ts: string, actionId: string, user = ALICE) {
  const result = await slack.clickButton(where(ts, element(slack, ts, actionId), user));
  assert.equal(result.acked, true, `the click on ${actionId} was acknowledged`);
}

/** The follow-up modal `user` has open, once it is open. */
export function followUpModal(slack: FakeSlack, user = ALICE) {
  return waitFor(
    () => slack.views(user).find((v) => v.callback_id === 'o7.follow-up'),
    'the follow-up modal',
  );
}

/** Types `text` into the open follow-up modal and saves it. */
export async function saveFollowUp(slack: FakeSlack, text: string, user = ALICE) {
  const modal = await followUpModal(slack, user);
  const result = await slack.submitView({
    viewId: String(modal.id),
    user,
    values: { [FOLLOW_UP_INPUT.blockId]: { [FOLLOW_UP_INPUT.actionId]: text } },
  });
  assert.equal(result.acked, true);
}

/** Waits until the message's text contains `fragment`. */
export function waitForText(slack: FakeSlack, ts: string, fragment: string) {
  return waitFor(
    () => JSON.stringify(now(slack, ts).blocks).includes(fragment),
    `the message showing ${JSON.stringify(fragment)}`,
  );
}

/** The only folder under `<stateDir>/asks`, once `ask` has made it. */
export async function askDir(stateDir: string): Promise<string> {
  const root = path.join(stateDir, 'asks');
  const [only] = await waitFor(async () => {
    const names = await readdir(root).catch(() => []);
    return names.length === 1 ? names : undefined;
  }, 'the ask folder');
  return path.join(root, only as string);
}

/** The files of an ask folder's `qa/`, sorted, temp files left out. */
export async function qaFilesOf(dir: string): Promise<string[]> {
  return (await readdir(path.join(dir, 'qa'))).filter((n) => !n.startsWith('.')).sort();
}

/** The parsed answer file of an ask folder. */
export async function answerOf(dir: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(dir, 'qa', 'q-answers-001.json'), 'utf8'));
}
