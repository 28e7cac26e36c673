// What people see in the channel: a batch's messages and threads, their texts and controls,
// and the ephemerals the relay sends them.
import type { FakeSlack } from '../../support/fake-slack/index.js';
import type { ObservedMessage, StoredMessage } from '../../support/fake-slack/types.js';
import {
  ALICE,
  CHANNEL,
  elementsOf,
  type FoundElement,
  type Harness,
} from '../../support/relay-harness.js';
import { writeQuestionFile } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait.js';
import { formatBatch } from './batches.js';
import { publishRun } from './run-folders.js';

/** Block Kit blocks, as messages and views hold them. */
export type Blocks = readonly Record<string, unknown>[];

/** The label Slack shows for an option: cut to 75 characters with an ellipsis. */
export const shownLabel = (text: string): string =>
  text.length <= 75 ? text : `${text.slice(0, 74)}…`;

/** The header text of a message, if it has one. */
export function headerOf(blocks: Blocks): string | undefined {
  const header = blocks.find((b) => b.type === 'header') as { text?: { text?: string } };
  return header?.text?.text;
}

/** The channel messages of one batch (normally one), found by their header. */
export function batchMessages(slack: FakeSlack, runName: string, seq: number): ObservedMessage[] {
  const title = `Run ${runName} · batch ${seq}`;
  return slack.messages(CHANNEL).filter((m) => headerOf(m.blocks) === title);
}

/** Waits for the channel message of a batch and returns it. */
export function waitForBatchMessage(
  slack: FakeSlack,
  runName: string,
  seq: number,
): Promise<ObservedMessage> {
  return waitFor(
    () => batchMessages(slack, runName, seq)[0],
    `the message of ${runName} batch ${seq}`,
  );
}

/** Writes batch `seq` of a run as an agent does and waits for its message in the channel. */
export async function postBatch(
  h: Harness,
  runName: string,
  batch: { seq: number; questions: unknown[] },
): Promise<ObservedMessage> {
  await writeQuestionFile(h.runDir(runName), batch.seq, batch);
  return waitForBatchMessage(h.slack, runName, batch.seq);
}

/** Publishes batch 1 of {@link formatBatch} into the run `name` of `h`; waits for its message. */
export async function postFormatBatch(h: Harness, name: string) {
  const run = h.runDir(name);
  await publishRun(run, { 'q-out-001.json': formatBatch(1) });
  return { run, posted: await waitForBatchMessage(h.slack, name, 1) };
}

/** A channel message as it is now (top-level or a thread reply); throws if it is gone. */
export function current(slack: FakeSlack, ts: string): StoredMessage {
  const found = slack.message(CHANNEL, ts);
  if (!found) throw new Error(`message ${ts} is not in ${CHANNEL}`);
  return found;
}

/** A message and, when it starts a thread, its replies, as they are now. */
export function thread(slack: FakeSlack, ts: string): StoredMessage[] {
  const root = slack.messages(CHANNEL).find((m) => m.ts === ts);
  if (!root) return [current(slack, ts)];
  const { replies, ...top } = root;
  return [{ ...top, replyTs: replies.map((r) => r.ts) }, ...replies];
}

/** Waits until message `ts`, as people see it now, passes `check`; returns it. */
export function waitForMessage(
  slack: FakeSlack,
  ts: string,
  check: (message: StoredMessage) => boolean,
  what: string,
): Promise<StoredMessage> {
  return waitFor(() => {
    const message = slack.message(CHANNEL, ts);
    return message && check(message) && message;
  }, what);
}

/** True when a message shows no interactive element (a finished batch). */
export const hasNoControls = (message: { blocks: Blocks }) =>
  elementsOf(message.blocks).length === 0;

/** Waits until the message at `ts` has no controls left (answered, closed or withdrawn). */
export const waitForClosed = (slack: FakeSlack, ts: string, what: string): Promise<StoredMessage> =>
  waitForMessage(slack, ts, hasNoControls, what);

/** Waits until a message shows Alice's answers and no controls. */
export function waitForAnswered(slack: FakeSlack, ts: string): Promise<StoredMessage> {
  return waitForMessage(
    slack,
    ts,
    (m) =>
      hasNoControls(m) &&
      mrkdwnTexts(m.blocks).some((t) => t.startsWith(`Answered by <@${ALICE}>`)),
    'the message in its answered state',
  );
}

/** Waits until the message's blocks contain `fragment`. */
export function waitForText(slack: FakeSlack, ts: string, fragment: string) {
  return waitForMessage(
    slack,
    ts,
    (m) => JSON.stringify(m.blocks).includes(fragment),
    `the message showing ${JSON.stringify(fragment)}`,
  );
}

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

/** Every interactive element of a batch: the channel message and its thread replies. */
export function batchElements(
  slack: FakeSlack,
  message: { ts: string },
): (FoundElement & { ts: string })[] {
  return thread(slack, message.ts).flatMap((m) =>
    elementsOf(m.blocks).map((e) => ({ ...e, ts: m.ts })),
  );
}

/** Waits for the user's next ephemeral after the first `seen` ones. */
export function nextEphemeral(slack: FakeSlack, user: string, seen: number) {
  return waitFor(() => slack.ephemerals(user)[seen], `ephemeral #${seen + 1} for ${user}`);
}
