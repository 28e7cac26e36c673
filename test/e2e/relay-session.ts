import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { escapeMrkdwn } from '../../src/core/slack/escape-mrkdwn.js';
import { CALLBACK_IDS, FREE_WRITE_INPUT } from '../../src/core/slack/ids.js';
import { HAND_OFF_INPUTS } from '../../src/core/slack/team-ids.js';
import type { ObservedMessage, StoredMessage } from '../support/fake-slack/index.js';
import {
  ALICE,
  CHANNEL,
  channelMessages,
  elementsOf,
  type FoundElement,
  type Harness,
  type Mode,
  startRelayHarness,
} from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

/** Both ways the relay can receive interactions; every end-to-end test runs in each. */
export const MODES: readonly Mode[] = ['socket', 'http'];

type Blocks = readonly Record<string, unknown>[];

/** Writes batch `seq` of a run and waits for its first message in the channel. */
export async function postBatch(
  h: Harness,
  runName: string,
  batch: { seq: number; questions: unknown[] },
): Promise<ObservedMessage> {
  await writeQuestionFile(h.runDir(runName), batch.seq, batch);
  const title = `Run ${runName} · batch ${batch.seq}`;
  return waitFor(
    () => channelMessages(h.slack).find((m) => headerOf(m.blocks) === title),
    `the message of ${runName} batch ${batch.seq}`,
  );
}

/** The header text of a message, if it has one. */
export function headerOf(blocks: Blocks): string | undefined {
  const header = blocks.find((b) => b.type === 'header') as { text?: { text?: string } };
  return header?.text?.text;
}

/** A message as it is now; throws if it is gone. */
export function current(h: Harness, ts: string): StoredMessage {
  const found = h.slack.message(CHANNEL, ts);
  if (!found) throw new Error(`message ${ts} is not in ${CHANNEL}`);
  return found;
}

/** The ids a click on an element needs. */
const ref = (e: { blockId: string; actionId: string }) => ({
  blockId: e.blockId,
  actionId: e.actionId,
});

/** Where an element is, plus the acting user: what the stand-in's user actions take. */
export const at = (ts: string, e: FoundElement, user = ALICE) => ({
  channel: CHANNEL,
  ts,
  user,
  ...ref(e),
});

const CHOICE_KINDS = new Set(['o7.choose', 'o7.choose-many']);

/** The choice control (select, radio or checkbox group) of question `index` (0-based). */
export function controlOf(blocks: Blocks, index: number): FoundElement {
  const found = elementsOf(blocks).filter((e) => {
    const [kind, suffix] = e.actionId.split(':');
    return CHOICE_KINDS.has(kind as string) && suffix === String(index);
  });
  const [only] = found;
  if (!only || found.length !== 1) {
    throw new Error(
      `expected one control for question ${index + 1}, found ${found.map((e) => e.actionId).join(', ') || 'none'}`,
    );
  }
  return only;
}

/** The element with exactly this action id. */
export function elementById(blocks: Blocks, actionId: string): FoundElement {
  const found = elementsOf(blocks).find((e) => e.actionId === actionId);
  if (!found) {
    const ids = elementsOf(blocks).map((e) => e.actionId);
    throw new Error(`no element ${actionId} in the message (have: ${ids.join(', ')})`);
  }
  return found;
}

/** A batch's messages as they are now: the channel message, then its thread replies. */
export function thread(h: Harness, rootTs: string): StoredMessage[] {
  const root = channelMessages(h.slack).find((m) => m.ts === rootTs);
  if (!root) throw new Error(`message ${rootTs} is not in ${CHANNEL}`);
  const { replies, ...top } = root;
  return [{ ...top, replyTs: replies.map((r) => r.ts) }, ...replies];
}

/** The message of a batch's thread holding an element, and the element. */
export function locate(
  h: Harness,
  rootTs: string,
  actionId: string,
): { ts: string; found: FoundElement } {
  for (const message of thread(h, rootTs)) {
    const found = elementsOf(message.blocks).find((e) => e.actionId === actionId);
    if (found) return { ts: message.ts, found };
  }
  throw new Error(`no element ${actionId} in any message of batch ${rootTs}`);
}

/** Clicks the button with this action id, wherever in the batch's thread it is. */
export async function click(h: Harness, rootTs: string, actionId: string, user = ALICE) {
  const { ts, found } = locate(h, rootTs, actionId);
  assert.equal(found.type, 'button');
  const result = await h.slack.clickButton(at(ts, found, user));
  assert.equal(result.acked, true, `the click on ${actionId} was acknowledged`);
  return result;
}

/** Clicks a yes-no button of question `index` and waits until the thread shows the choice. */
export async function answerYesNo(h: Harness, rootTs: string, index: number, yes: boolean) {
  const actionId = `o7.yes-no:${index}:${yes ? 'yes' : 'no'}`;
  await click(h, rootTs, actionId);
  const label = `✓ ${yes ? 'Yes' : 'No'}`;
  await waitFor(
    () => (locate(h, rootTs, actionId).found.element.text as { text: string }).text === label,
    `question ${index + 1} showing ${label}`,
  );
}

/** Writes a free-write answer through its modal and waits until the thread quotes it. */
export async function answerFreeWrite(h: Harness, rootTs: string, index: number, text: string) {
  await click(h, rootTs, `o7.free-write:${index}`);
  const modal = await waitFor(
    () => h.slack.views(ALICE).find((v) => v.callback_id === CALLBACK_IDS.freeWrite),
    'the free-write modal',
  );
  await h.slack.submitView({
    viewId: String(modal.id),
    user: ALICE,
    values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: text } },
  });
  const quoted = escapeMrkdwn(text)
    .split('\n')
    .map((line) => `>${line}`)
    .join('\n');
  await waitFor(
    () => thread(h, rootTs).some((m) => mrkdwnTexts(m.blocks).some((t) => t.includes(quoted))),
    `question ${index + 1} quoting the written answer`,
  );
}

/** Picks options of question `index`'s choice control and waits until the thread shows them. */
export async function choose(
  h: Harness,
  rootTs: string,
  index: number,
  values: readonly string[],
): Promise<FoundElement> {
  const { ts } = locateControl(h, rootTs, index);
  const control = controlOf(current(h, ts).blocks, index);
  const multiple = control.actionId.startsWith('o7.choose-many:');
  const result = multiple
    ? await h.slack.selectOptions({ ...at(ts, control), values: [...values] })
    : await h.slack.selectOption({ ...at(ts, control), value: values[0] as string });
  assert.equal(result.acked, true);
  const sorted = [...values].sort((a, b) => Number(a) - Number(b));
  return waitForSelection(h, ts, index, sorted);
}

/** The message holding question `index`'s choice control. */
function locateControl(h: Harness, rootTs: string, index: number) {
  for (const message of thread(h, rootTs)) {
    try {
      return { ts: message.ts, found: controlOf(message.blocks, index) };
    } catch {
      // not in this message
    }
  }
  throw new Error(`no choice control for question ${index + 1} in batch ${rootTs}`);
}

/** Waits until a control shows `values` (option values) as its current selection. */
export async function waitForSelection(
  h: Harness,
  ts: string,
  index: number,
  values: readonly string[],
): Promise<FoundElement> {
  return waitFor(
    () => {
      const control = controlOf(current(h, ts).blocks, index);
      return sameList(selectedValues(control), values) ? control : undefined;
    },
    `question ${index + 1} showing selection [${values.join(', ')}]`,
  );
}

/** The option values a select, radio group or checkbox group shows as chosen. */
function selectedValues(control: FoundElement): string[] {
  const { element } = control;
  const one = element.initial_option as { value: string } | undefined;
  const many = element.initial_options as { value: string }[] | undefined;
  return one ? [one.value] : (many ?? []).map((o) => o.value);
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** Clicks Submit, in whichever message of the batch's thread has it. */
export async function submit(h: Harness, rootTs: string): Promise<void> {
  await click(h, rootTs, 'o7.submit');
}

/** Waits for `q-answers-NNN.json` of a run and parses it. */
export async function answerFile(runDir: string, seq = 1): Promise<unknown> {
  const name = `q-answers-${String(seq).padStart(3, '0')}.json`;
  await waitFor(async () => (await readdir(path.join(runDir, 'qa'))).includes(name), name);
  return JSON.parse(await readFile(path.join(runDir, 'qa', name), 'utf8'));
}

/** The protocol files in a run's `qa/` folder, sorted. */
export async function qaFiles(runDir: string): Promise<string[]> {
  return (await readdir(path.join(runDir, 'qa'))).filter((n) => !n.startsWith('.')).sort();
}

/** Waits until a message shows the answered state and no controls. */
export async function waitForAnswered(h: Harness, ts: string): Promise<StoredMessage> {
  return waitFor(() => {
    const m = current(h, ts);
    const done = elementsOf(m.blocks).length === 0 && mrkdwnTexts(m.blocks).some(isAnsweredLine);
    return done ? m : undefined;
  }, 'the message in its answered state');
}

const isAnsweredLine = (text: string) => text.startsWith(`Answered by <@${ALICE}>`);

/** The text of every mrkdwn object in blocks: what Slack parses for mentions and links. */
export const mrkdwnTexts = (blocks: Blocks): string[] => textsOfType(blocks, 'mrkdwn');

/** The text of every plain_text object in blocks (labels, options, headers, notes). */
export const plainTexts = (blocks: Blocks): string[] => textsOfType(blocks, 'plain_text');

function textsOfType(blocks: Blocks, type: 'mrkdwn' | 'plain_text'): string[] {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) for (const item of value) walk(item);
    else if (value && typeof value === 'object') {
      const obj = value as Record<string, unknown>;
      if (obj.type === type && typeof obj.text === 'string') found.push(obj.text);
      for (const child of Object.values(obj)) walk(child);
    }
  };
  walk(blocks);
  return found;
}

/** Slack answered every call with ok and every interaction was acknowledged in time. */
export function assertSlackHealthy(h: Harness): void {
  assert.deepEqual(h.slack.failures, [], 'no interaction went unacknowledged');
  const refused = h.slack.calls
    .filter((c) => c.response.ok === false)
    .map((c) => ({ method: c.method, error: c.response.error, errors: c.response.errors }));
  assert.deepEqual(refused, [], 'Slack refused no call (no invalid_blocks)');
}

/**
 * A fresh relay for each test of the enclosing `describe`; after each, Slack must have refused
 * nothing and missed no ack (see `assertSlackHealthy`), then it is stopped. The value stands
 * for whichever relay the current test has.
 */
export function healthyRelayPerTest(mode: Mode): Harness {
  let current: Harness | undefined;
  beforeEach(async () => {
    current = await startRelayHarness(mode);
  });
  afterEach(async () => {
    const h = current;
    current = undefined;
    try {
      if (h) assertSlackHealthy(h);
    } finally {
      await h?.stop();
    }
  });
  return new Proxy({} as Harness, {
    get(_, key) {
      if (!current) throw new Error('healthyRelayPerTest: use the relay inside a test');
      return current[key as keyof Harness];
    },
  });
}

/** `count` options named `Option 001`, `Option 002`, … */
export const numberedOptions = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `Option ${String(i + 1).padStart(3, '0')}`);

/** The label Slack shows for an option: cut to 75 characters with an ellipsis. */
export const shownLabel = (text: string): string =>
  text.length <= 75 ? text : `${text.slice(0, 74)}…`;

/** Presses Hand off as `from` and submits the modal; returns the modal as it was left. */
export async function handOffBatch(
  h: Harness,
  input: { channel: string; ts: string; from: string; to: string; note?: string },
) {
  const before = h.slack.views(input.from).length;
  const button = elementById(h.slack.message(input.channel, input.ts)?.blocks ?? [], 'o7.hand-off');
  await h.slack.clickButton({ ...input, ...ref(button), user: input.from });
  const modal = await waitFor(
    () => h.slack.views(input.from)[before],
    `hand-off modal for ${input.from}`,
  );
  assert.equal(modal.callback_id, 'o7.hand-off');
  const values: Record<string, Record<string, unknown>> = {
    [HAND_OFF_INPUTS.user.blockId]: { [HAND_OFF_INPUTS.user.actionId]: input.to },
  };
  if (input.note !== undefined) {
    values[HAND_OFF_INPUTS.note.blockId] = { [HAND_OFF_INPUTS.note.actionId]: input.note };
  }
  const result = await h.slack.submitView({ viewId: String(modal.id), user: input.from, values });
  return { result, viewId: String(modal.id) };
}

/** The bot's direct-message channel with `user`, once the relay opened it. */
export const directChannelOf = (h: Harness, user: string): Promise<string> =>
  waitFor(() => {
    const call = h.slack.calls.find(
      (c) => c.method === 'conversations.open' && c.args.users === user && c.status === 200,
    );
    const channel = call?.response.channel as { id?: string } | undefined;
    return channel?.id;
  }, `direct message with ${user}`);

/** The batch copy in `user`'s direct messages. */
export async function directCopy(
  h: Harness,
  user: string,
): Promise<{ channel: string; ts: string }> {
  const channel = await directChannelOf(h, user);
  const message = await waitFor(() => h.slack.messages(channel)[0], `copy sent to ${user}`);
  return { channel, ts: message.ts };
}
