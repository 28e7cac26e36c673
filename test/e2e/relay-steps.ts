// Steps and looks shared by the end-to-end tests of a batch's life and of Slack failures.
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FREE_WRITE_INPUT } from '../../src/core/slack/ids.js';
import type { FakeSlack } from '../support/fake-slack/index.js';
import type { ObservedMessage, StoredMessage, WebApiCall } from '../support/fake-slack/types.js';
import { ALICE, CHANNEL, elementsOf, type FoundElement } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';

/** Long enough for the queue's back-off (1 s, 2 s, 4 s, … up to 60 s) after a few failed attempts. */
export const AFTER_BACKOFF_MS = 90_000;

const seqText = (seq: number) => String(seq).padStart(3, '0');

/** The names in a run's `qa/` folder, sorted. */
export async function qaNames(runDir: string): Promise<string[]> {
  return (await readdir(path.join(runDir, 'qa'))).sort();
}

/** The bytes of `q-answers-NNN.json`, as text. */
export function readAnswerFile(runDir: string, seq: number): Promise<string> {
  return readFile(path.join(runDir, 'qa', `q-answers-${seqText(seq)}.json`), 'utf8');
}

/** Waits until the relay has published `q-answers-NNN.json`; returns its text. */
export async function waitForAnswerFile(runDir: string, seq: number): Promise<string> {
  return waitFor(
    async () => {
      const names = await qaNames(runDir);
      return names.includes(`q-answers-${seqText(seq)}.json`) && readAnswerFile(runDir, seq);
    },
    `q-answers-${seqText(seq)}.json in ${runDir}`,
  );
}

/** Exactly what the relay writes for an answer file (2-space JSON and a final newline). */
export function answerFileText(content: unknown): string {
  return `${JSON.stringify(content, null, 2)}\n`;
}

/** Publishes a q-answers file the way the terminal UI does: a temp file renamed into place. */
export async function writeAnswerFileAsOtherTool(
  runDir: string,
  seq: number,
  content: unknown,
): Promise<string> {
  const qa = path.join(runDir, 'qa');
  await mkdir(qa, { recursive: true });
  const name = `q-answers-${seqText(seq)}.json`;
  const temp = path.join(qa, `.${name}.tui-tmp`);
  await writeFile(temp, answerFileText(content));
  await rename(temp, path.join(qa, name));
  return path.join(qa, name);
}

/**
 * Makes a run folder appear at once with all its files (name → JSON value or raw text): written
 * in `staging`, then renamed into the watched runs folder, so the relay's first look sees them all.
 */
export async function publishRun(
  staging: string,
  runDir: string,
  files: Record<string, unknown>,
): Promise<void> {
  const temp = path.join(staging, path.basename(runDir));
  await mkdir(path.join(temp, 'qa'), { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2);
    await writeFile(path.join(temp, 'qa', name), text);
  }
  await rename(temp, runDir);
}

/** The answer file the relay should write: one entry per question, then the questions echoed. */
export function expectedAnswerFile(
  batch: { seq: number; questions: Record<string, unknown>[] },
  answers: Record<string, unknown>,
): string {
  return answerFileText({
    seq: batch.seq,
    answers: batch.questions.map((q) => ({
      id: q.id,
      type: q.type,
      prompt: q.prompt,
      ...('options' in q ? { options: q.options } : {}),
      answer: answers[String(q.id)],
    })),
    questions: batch.questions,
  });
}

/** The header every message of a batch starts with (continuations add " (continued)"). */
const headerOf = (runName: string, seq: number) => `Run ${runName} · batch ${seq}`;

function header(message: { blocks: readonly Record<string, unknown>[] }): string | undefined {
  const first = message.blocks[0] as { type?: string; text?: { text?: string } } | undefined;
  return first?.type === 'header' ? first.text?.text : undefined;
}

/** The channel messages of one batch (normally one), found by their header. */
export function batchMessages(slack: FakeSlack, runName: string, seq: number): ObservedMessage[] {
  return slack.messages(CHANNEL).filter((m) => header(m) === headerOf(runName, seq));
}

/** Waits for the channel message of a batch and returns it. */
export function waitForBatchMessage(
  slack: FakeSlack,
  runName: string,
  seq: number,
  timeoutMs = 10_000,
): Promise<ObservedMessage> {
  return waitFor(
    () => batchMessages(slack, runName, seq)[0],
    `the message of ${runName} batch ${seq}`,
    timeoutMs,
  );
}

/** A message as it is now: the top-level one or a thread reply. */
export function current(slack: FakeSlack, ts: string): StoredMessage {
  const found = slack.message(CHANNEL, ts);
  if (!found) throw new Error(`message ${ts} is gone from ${CHANNEL}`);
  return found;
}

/** The relay's calls of `method` to the channel that Slack answered with `ok: true`. */
export function okCalls(slack: FakeSlack, method: string) {
  return slack.calls.filter(
    (c) => c.method === method && c.args.channel === CHANNEL && c.status === 200 && c.response.ok,
  );
}

/** The relay's calls of `method` to the channel that failed (HTTP error or `ok: false`). */
export function failedCalls(slack: FakeSlack, method: string) {
  return slack.calls.filter(
    (c) =>
      c.method === method && c.args.channel === CHANNEL && !(c.status === 200 && c.response.ok),
  );
}

/**
 * Makes every call of `method` fail with `error` until `release()`. Holding `chat.update` is
 * how a click on an outdated message is made: while Slack takes no edits, people keep seeing
 * (and clicking) the controls they have, and the stand-in only lets a user click what a
 * message shows.
 */
export function holdCalls(slack: FakeSlack, method: string, error = 'internal_error') {
  const refusedSoFar = () =>
    slack.calls.filter(
      (c) => c.method === method && c.args.channel === CHANNEL && c.response.error === error,
    ).length;
  const before = refusedSoFar();
  slack.failNext(method, { error }, 1000);
  return {
    /** Waits until the relay has tried (and failed) `count` times. */
    waitRefused: (count = 1, timeoutMs = 20_000) =>
      waitFor(
        () => refusedSoFar() - before >= count,
        `${count} refused ${method} call(s) from the relay`,
        timeoutMs,
      ),
    /** Drops the failures still queued so the relay's next try goes through. */
    release: () => slack.clearFailures(method),
  };
}

/** Holds `chat.update` (see {@link holdCalls}). */
export const holdMessageUpdates = (slack: FakeSlack) => holdCalls(slack, 'chat.update');

/** Every interactive element of a batch: the channel message and its thread replies. */
export function batchElements(
  slack: FakeSlack,
  message: ObservedMessage,
): (FoundElement & { ts: string })[] {
  const all = [current(slack, message.ts), ...message.replies.map((r) => current(slack, r.ts))];
  return all.flatMap((m) => elementsOf(m.blocks).map((e) => ({ ...e, ts: m.ts })));
}

/** Waits for the user's next ephemeral after the first `seen` ones. */
export function nextEphemeral(slack: FakeSlack, user: string, seen: number) {
  return waitFor(() => slack.ephemerals(user)[seen], `ephemeral #${seen + 1} for ${user}`);
}

/** Block and action id of an element, as the stand-in's click helpers take them. */
export function ids(e: { blockId: string; actionId: string }) {
  return { blockId: e.blockId, actionId: e.actionId };
}

/** Waits until message `ts`, as people see it now, passes `check`; returns it. */
export function waitForMessage(
  slack: FakeSlack,
  ts: string,
  check: (message: StoredMessage) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<StoredMessage> {
  return waitFor(
    () => {
      const message = slack.message(CHANNEL, ts);
      return message && check(message) && message;
    },
    what,
    timeoutMs,
  );
}

/** True when a message shows no interactive element (a finished batch). */
export const hasNoControls = (message: { blocks: readonly Record<string, unknown>[] }) =>
  elementsOf(message.blocks).length === 0;

const elementIn = (message: StoredMessage, actionId: string) =>
  elementsOf(message.blocks).find((e) => e.actionId === actionId);

/** Picks option `index` of the choose-one control (radio or select) of question `qi`; waits until it shows. */
export async function pickOne(
  slack: FakeSlack,
  ts: string,
  qi: number,
  index: number,
  user = ALICE,
): Promise<void> {
  const actionId = `o7.choose:${qi}`;
  const control = elementIn(current(slack, ts), actionId);
  if (!control) throw new Error(`no ${actionId} in message ${ts}`);
  const value = String(index);
  const result = await slack.selectOption({ channel: CHANNEL, ts, ...ids(control), user, value });
  if (!result.acked) throw new Error(`${actionId} was not acknowledged`);
  await waitForMessage(
    slack,
    ts,
    (m) =>
      (elementIn(m, actionId)?.element.initial_option as { value?: string } | undefined)?.value ===
      value,
    `option ${value} of question ${qi} shown as chosen`,
  );
}

/** Picks options `indices` of the choose-many control (checkboxes or multi select) of question `qi`; waits until they show. */
export async function pickMany(
  slack: FakeSlack,
  ts: string,
  qi: number,
  indices: number[],
  user = ALICE,
): Promise<void> {
  const actionId = `o7.choose-many:${qi}`;
  const control = elementIn(current(slack, ts), actionId);
  if (!control) throw new Error(`no ${actionId} in message ${ts}`);
  const values = indices.map(String);
  await slack.selectOptions({ channel: CHANNEL, ts, ...ids(control), user, values });
  const wanted = [...values].sort().join(',');
  await waitForMessage(
    slack,
    ts,
    (m) => {
      const initial = elementIn(m, actionId)?.element.initial_options as
        | { value: string }[]
        | undefined;
      return (
        (initial ?? [])
          .map((o) => o.value)
          .sort()
          .join(',') === wanted
      );
    },
    `options ${wanted} of question ${qi} shown as ticked`,
  );
}

/** Presses Yes or No on the yes-no question `qi`; waits until the message shows it ticked. */
export async function pressYesNo(
  slack: FakeSlack,
  ts: string,
  qi: number,
  yes: boolean,
  user = ALICE,
): Promise<void> {
  const actionId = `o7.yes-no:${qi}:${yes ? 'yes' : 'no'}`;
  const button = elementIn(current(slack, ts), actionId);
  if (!button) throw new Error(`no ${actionId} in message ${ts}`);
  await slack.clickButton({ channel: CHANNEL, ts, ...ids(button), user });
  await waitForMessage(
    slack,
    ts,
    (m) =>
      String((elementIn(m, actionId)?.element.text as { text?: string })?.text).startsWith('✓'),
    `${yes ? 'Yes' : 'No'} of question ${qi} shown as chosen`,
  );
}

/** Writes `text` into the free-write question `qi` through its modal; waits until it shows. */
export async function writeFreeText(
  slack: FakeSlack,
  ts: string,
  qi: number,
  text: string,
  user = ALICE,
): Promise<void> {
  const actionId = `o7.free-write:${qi}`;
  const button = elementIn(current(slack, ts), actionId);
  if (!button) throw new Error(`no ${actionId} in message ${ts}`);
  const openBefore = slack.views(user).length;
  await slack.clickButton({ channel: CHANNEL, ts, ...ids(button), user });
  const modal = await waitFor(() => slack.views(user)[openBefore], 'the free-write modal');
  const before = JSON.stringify(current(slack, ts).blocks);
  await slack.submitView({
    viewId: String(modal.id),
    user,
    values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: text } },
  });
  await waitForMessage(
    slack,
    ts,
    (m) => {
      const now = JSON.stringify(m.blocks);
      return now !== before && now.includes('Your answer so far');
    },
    `the free text of question ${qi} shown`,
  );
}

/** Presses Submit on message `ts` (the last message of the batch). */
export async function pressSubmit(slack: FakeSlack, ts: string, user = ALICE): Promise<void> {
  const submit = elementIn(current(slack, ts), 'o7.submit');
  if (!submit) throw new Error(`no Submit button in message ${ts}`);
  const result = await slack.clickButton({ channel: CHANNEL, ts, ...ids(submit), user });
  if (!result.acked) throw new Error('Submit was not acknowledged');
}

/**
 * Runs `action` once, right after the stand-in answers the first call that `matches`. The
 * stand-in records a call as it answers it, so a `failNext` made here hits the very next call
 * of that method: the only way to fail the second of two calls the relay makes back to back.
 */
export function afterCall(
  slack: FakeSlack,
  matches: (call: WebApiCall) => boolean,
  action: () => void,
): void {
  const calls = slack.calls as WebApiCall[];
  const push = calls.push;
  calls.push = (...items: WebApiCall[]) => {
    const count = push.apply(calls, items);
    if (items.some(matches)) {
      calls.push = push;
      action();
    }
    return count;
  };
}

/** A two-question batch answered with a radio pick and a yes-no button. */
export const formatBatch = (seq: number) => ({
  seq,
  questions: [
    { id: 'format', type: 'choose-one', prompt: 'Output format?', options: ['JSON', 'CSV'] },
    { id: 'go', type: 'yes-no', prompt: 'Proceed?' },
  ],
});
