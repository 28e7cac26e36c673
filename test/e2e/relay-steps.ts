// The end-to-end tests' steps: what a person does in Slack (click, choose, write, submit, hand
// off), what they see (a batch's messages, its controls, its texts), what an agent or another
// tool does in a run folder, and how the relay under test is started. Every e2e test, the
// hostile-input tests and the demo act through these, so each step is written once.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import type { Level } from 'pino';
import { escapeMrkdwn } from '../../src/core/slack/escape-mrkdwn.js';
import { FOLLOW_UP_INPUT, FREE_WRITE_INPUT } from '../../src/core/slack/ids.js';
import { HAND_OFF_INPUTS } from '../../src/core/slack/team-ids.js';
import type { FakeSlack, ObservedView } from '../support/fake-slack/index.js';
import type { ObservedMessage, StoredMessage, WebApiCall } from '../support/fake-slack/types.js';
import { captureLog, type LogRecord } from '../support/log-capture.js';
import {
  ALICE,
  CHANNEL,
  elementsOf,
  type FoundElement,
  type Harness,
  type Mode,
  type RelayHarnessOptions,
  startRelayHarness,
} from '../support/relay-harness.js';
import { writeQaFile, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

type Blocks = readonly Record<string, unknown>[];

// ---- the relay under test ----

/** Both ways the relay can receive interactions; the transport contract runs in each. */
export const MODES: readonly Mode[] = ['socket', 'http'];

/**
 * The one mode the other end-to-end scenarios run in: what they test does not depend on the
 * transport, which `transport-contract.test.ts` covers once for both.
 */
export const E2E_MODE: Mode = 'socket';

/** Slack answered every call with ok and every interaction was acknowledged in time. */
export function assertSlackHealthy(h: Harness): void {
  assert.deepEqual(h.slack.failures, [], 'no interaction went unacknowledged');
  const refused = h.slack.calls
    .filter((c) => c.response.ok === false)
    .map((c) => ({ method: c.method, error: c.response.error, errors: c.response.errors }));
  assert.deepEqual(refused, [], 'Slack refused no call (no invalid_blocks)');
}

/** Options of {@link relayPerTest}: the harness's, and how the test relay is checked and heard. */
export interface RelayPerTestOptions extends RelayHarnessOptions {
  /** default {@link E2E_MODE} */
  mode?: Mode;
  /** after each test, Slack must have refused nothing and missed no ack (see `assertSlackHealthy`) */
  healthy?: boolean;
  /** keep the relay's log lines from this level up, in `logged` */
  captureLog?: Level;
}

/** The relay of the current test, and the log lines it kept (with `captureLog`). */
export type TestRelay = Harness & { logged: LogRecord[] };

/**
 * A fresh relay for each test of the enclosing `describe`, stopped after it. The value stands
 * for whichever relay the current test has.
 */
export function relayPerTest(options: RelayPerTestOptions = {}): TestRelay {
  const { mode = E2E_MODE, healthy = false, captureLog: level, ...harness } = options;
  let relay: TestRelay | undefined;
  beforeEach(async () => {
    const capture = level ? captureLog(level) : undefined;
    const log = capture ? { log: capture.log } : {};
    const started = await startRelayHarness(mode, { ...harness, ...log });
    relay = Object.assign(started, { logged: capture?.records ?? [] });
  });
  afterEach(async () => {
    const h = relay;
    relay = undefined;
    try {
      if (h && healthy) assertSlackHealthy(h);
    } finally {
      await h?.stop();
    }
  });
  return new Proxy({} as TestRelay, {
    get(_, key) {
      if (!relay) throw new Error('relayPerTest: use the relay inside a test');
      return relay[key as keyof TestRelay];
    },
  });
}

/** {@link relayPerTest} whose Slack must have refused nothing and missed no ack. */
export const healthyRelayPerTest = (mode: Mode = E2E_MODE): TestRelay =>
  relayPerTest({ mode, healthy: true });

/**
 * For tests that start their relay themselves, each with options of its own: the function
 * starts one (in {@link E2E_MODE} unless `mode` says otherwise), and every relay it started is
 * stopped after the test.
 */
export function relayStarter(): (
  options?: RelayHarnessOptions & { mode?: Mode },
) => Promise<Harness> {
  const started: Harness[] = [];
  afterEach(async () => {
    for (const h of started.splice(0)) await h.stop();
  });
  return async ({ mode = E2E_MODE, ...options } = {}) => {
    const h = await startRelayHarness(mode, options);
    started.push(h);
    return h;
  };
}

// ---- run folders ----

const seqText = (seq: number) => String(seq).padStart(3, '0');
const answerName = (seq: number) => `q-answers-${seqText(seq)}.json`;

/** Every name in a run's `qa/` folder, temp files included, sorted. */
export async function qaNames(runDir: string): Promise<string[]> {
  return (await readdir(path.join(runDir, 'qa'))).sort();
}

/** The protocol files in a run's `qa/` folder (temp files left out), sorted. */
export async function qaFiles(runDir: string): Promise<string[]> {
  return (await qaNames(runDir)).filter((n) => !n.startsWith('.'));
}

/** The bytes of `q-answers-NNN.json`, as text. */
export function readAnswerFile(runDir: string, seq = 1): Promise<string> {
  return readFile(path.join(runDir, 'qa', answerName(seq)), 'utf8');
}

/** Waits until the relay has published `q-answers-NNN.json`; returns its text. */
export function waitForAnswerFile(runDir: string, seq = 1): Promise<string> {
  return waitFor(
    async () => (await qaNames(runDir)).includes(answerName(seq)) && readAnswerFile(runDir, seq),
    `${answerName(seq)} in ${runDir}`,
  );
}

/** Waits for the answer file of `batch` in `runDir` and checks its text against `answers`. */
export async function expectAnswerFile(
  runDir: string,
  batch: { seq: number; questions: readonly Record<string, unknown>[] },
  answers: Record<string, unknown>,
): Promise<void> {
  assert.equal(await waitForAnswerFile(runDir, batch.seq), expectedAnswerFile(batch, answers));
}

/** Waits for `q-answers-NNN.json` of a run and parses it. */
export async function answerFile(runDir: string, seq = 1): Promise<Record<string, unknown>> {
  return JSON.parse(await waitForAnswerFile(runDir, seq));
}

/** Exactly what the relay writes for an answer file (2-space JSON and a final newline). */
function answerFileText(content: unknown): string {
  return `${JSON.stringify(content, null, 2)}\n`;
}

/** The answer file the relay should write: one entry per question, then the questions echoed. */
export function expectedAnswerFile(
  batch: { seq: number; questions: readonly Record<string, unknown>[] },
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

/** Publishes a q-answers file the way the terminal UI does: a temp file renamed into place. */
export function writeAnswerFileAsOtherTool(
  runDir: string,
  seq: number,
  content: unknown,
): Promise<string> {
  return writeQaFile(runDir, answerName(seq), answerFileText(content), '.tui-tmp');
}

/**
 * Makes a run folder appear at once with all its files (name → JSON value or raw text): written
 * in a staging folder beside the watched runs folder, then renamed into it, so the relay's first
 * look sees them all.
 */
export async function publishRun(runDir: string, files: Record<string, unknown>): Promise<void> {
  const temp = path.join(path.dirname(path.dirname(runDir)), 'staging', path.basename(runDir));
  await mkdir(path.join(temp, 'qa'), { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2);
    await writeFile(path.join(temp, 'qa', name), text);
  }
  await rename(temp, runDir);
}

/** Publishes batch 1 of {@link formatBatch} into the run `name` of `h`; waits for its message. */
export async function postFormatBatch(h: Harness, name: string) {
  const run = h.runDir(name);
  await publishRun(run, { 'q-out-001.json': formatBatch(1) });
  return { run, posted: await waitForBatchMessage(h.slack, name, 1) };
}

/** "Proceed?": the yes-no question that ends the one-choice batches of the e2e tests. */
export const GO = { id: 'go', type: 'yes-no', prompt: 'Proceed?' } as const;

/** A two-question batch answered with a radio pick and a yes-no button. */
export const formatBatch = (seq: number) => ({
  seq,
  questions: [
    { id: 'format', type: 'choose-one', prompt: 'Output format?', options: ['JSON', 'CSV'] },
    GO,
  ],
});

/** Batch 1 of `count` questions of one `type`, question n (from 1) asking `prompt(n)`, ids q1, q2, … */
export const batchOfMany = (count: number, type: string, prompt: (n: number) => string) => ({
  seq: 1,
  questions: Array.from({ length: count }, (_, i) => ({
    id: `q${i + 1}`,
    type,
    prompt: prompt(i + 1),
  })),
});

/** `count` options named `Option 001`, `Option 002`, … */
export const numberedOptions = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `Option ${String(i + 1).padStart(3, '0')}`);

const numbered = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

/** Ten options too long for Slack's 75-character labels, together too long to list in full. */
export const LONG_OPTIONS = Array.from(
  { length: 10 },
  (_, i) => `Long option ${i + 1}: ${'a rather wordy description '.repeat(12).trim()}`,
);

/**
 * One question per control the renderer has: radio buttons, checkboxes, static and external
 * selects (single and multi), yes-no buttons, a free-write button behind a preview too long
 * for a message ("Show full preview"), options too long to list ("Show full options"), and
 * Submit. It is too big for one message, so it continues in two thread replies.
 */
export const EVERY_CONTROL_BATCH = {
  seq: 1,
  questions: [
    { id: 'radio', type: 'choose-one', prompt: 'Radio?', options: ['a', 'b', 'c'] },
    { id: 'boxes', type: 'choose-many', prompt: 'Boxes?', options: ['a', 'b', 'c'] },
    { id: 'select', type: 'choose-one', prompt: 'Select?', options: numbered(12, 'Colour') },
    { id: 'multi', type: 'choose-many', prompt: 'Multi?', options: numbered(12, 'Tag') },
    { id: 'ext', type: 'choose-one', prompt: 'External?', options: numbered(120, 'City') },
    {
      id: 'multiext',
      type: 'choose-many',
      prompt: 'Many external?',
      options: numbered(120, 'Lib'),
    },
    { id: 'yn', type: 'yes-no', prompt: 'Yes or no?' },
    {
      id: 'text',
      type: 'free-write',
      prompt: 'Say something',
      preview: { type: 'ascii', content: '+--+\n|  |\n'.repeat(1200) },
    },
    { id: 'long', type: 'choose-one', prompt: 'Long ones?', options: LONG_OPTIONS },
  ],
};

/** The label Slack shows for an option: cut to 75 characters with an ellipsis. */
export const shownLabel = (text: string): string =>
  text.length <= 75 ? text : `${text.slice(0, 74)}…`;

// ---- what people see ----

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

/** Posts a batch of `pick` then {@link GO} into the run `runName`; finds the control of `pick`. */
export async function postPickAndGo(h: Harness, runName: string, pick: Record<string, unknown>) {
  const batch = { seq: 1, questions: [pick, GO] };
  const posted = await postBatch(h, runName, batch);
  return { batch, posted, ts: posted.ts, control: controlOf(posted.blocks, 0) };
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

/** Batch 1 of one yes-no question whose preview is `markdown`. */
export const yesNoWithMarkdown = (id: string, prompt: string, markdown: string) => ({
  seq: 1,
  questions: [{ id, type: 'yes-no', prompt, preview: { type: 'markdown', content: markdown } }],
});

/**
 * Says Yes to {@link GO} (question 2) and presses Submit on the batch at `ts` of `run`, then
 * checks the answer file: `answer` to the first question, Yes to GO. Returns the final message.
 */
export async function submitWithGo(
  h: Harness,
  run: string,
  ts: string,
  batch: { seq: number; questions: readonly Record<string, unknown>[] },
  answer: unknown,
): Promise<StoredMessage> {
  await pressYesNo(h.slack, ts, 1, true);
  await pressSubmit(h.slack, ts);
  const first = String(batch.questions[0]?.id);
  await expectAnswerFile(h.runDir(run), batch, { [first]: answer, [GO.id]: true });
  return waitForAnswered(h.slack, ts);
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

/** Opens `user`'s App Home tab (the event Slack sends) and waits for the view it publishes. */
export async function openHome(slack: FakeSlack, user: string): Promise<ObservedView> {
  const published = () => slack.calls.filter((c) => c.method === 'views.publish').length;
  const before = published();
  const result = await slack.sendEvent({
    type: 'app_home_opened',
    user,
    channel: 'D0HOME001',
    tab: 'home',
  });
  assert.equal(result.acked, true, 'the app_home_opened event was acknowledged');
  await waitFor(() => published() > before, `views.publish for ${user}`);
  return waitFor(() => slack.homeView(user), `${user}'s Home tab`);
}

/** Waits for the user's next ephemeral after the first `seen` ones. */
export function nextEphemeral(slack: FakeSlack, user: string, seen: number) {
  return waitFor(() => slack.ephemerals(user)[seen], `ephemeral #${seen + 1} for ${user}`);
}

// ---- what people do ----

/** Block and action id of an element, as the stand-in's user actions take them. */
export function ids(e: { blockId: string; actionId: string }) {
  return { blockId: e.blockId, actionId: e.actionId };
}

/** Where an element is in the channel, plus the acting user: what the user actions take. */
export const at = (ts: string, e: FoundElement, user = ALICE) => ({
  channel: CHANNEL,
  ts,
  user,
  ...ids(e),
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
    const have = elementsOf(blocks).map((e) => e.actionId);
    throw new Error(`no element ${actionId} in the message (have: ${have.join(', ')})`);
  }
  return found;
}

/** The message of a batch's thread (`ts` and its replies) holding an element, and the element. */
export function locate(
  slack: FakeSlack,
  ts: string,
  actionId: string,
): { ts: string; found: FoundElement } {
  for (const message of thread(slack, ts)) {
    const found = elementsOf(message.blocks).find((e) => e.actionId === actionId);
    if (found) return { ts: message.ts, found };
  }
  throw new Error(`no element ${actionId} in message ${ts} or its thread`);
}

/** Clicks the button with this action id, wherever in the batch's thread it is. */
export async function click(slack: FakeSlack, ts: string, actionId: string, user = ALICE) {
  const { ts: where, found } = locate(slack, ts, actionId);
  assert.equal(found.type, 'button');
  const result = await slack.clickButton(at(where, found, user));
  assert.equal(result.acked, true, `the click on ${actionId} was acknowledged`);
  return result;
}

/** Presses Yes or No on question `qi` and waits until the batch shows it ticked. */
export async function pressYesNo(
  slack: FakeSlack,
  ts: string,
  qi: number,
  yes: boolean,
  user = ALICE,
): Promise<void> {
  const actionId = `o7.yes-no:${qi}:${yes ? 'yes' : 'no'}`;
  await click(slack, ts, actionId, user);
  const label = `✓ ${yes ? 'Yes' : 'No'}`;
  await waitFor(
    () => (locate(slack, ts, actionId).found.element.text as { text: string }).text === label,
    `question ${qi + 1} showing ${label}`,
  );
}

/**
 * The form (modal) a click opened: the one the relay's `views.open` with the click's trigger_id
 * made, never another the same person has open. Slack keeps one stack of forms per person and
 * `views.open` replaces it, so when another click of theirs opened a form since, this one is
 * gone: undefined then.
 */
export async function formOpenedBy(
  slack: FakeSlack,
  clicked: { payload: Record<string, unknown> },
  user: string,
): Promise<ObservedView | undefined> {
  const trigger = clicked.payload.trigger_id;
  const call = await waitFor(
    () => slack.calls.find((c) => c.method === 'views.open' && c.args.trigger_id === trigger),
    `the form opened by the click with trigger ${String(trigger)}`,
  );
  const id = (call.response.view as { id?: unknown } | undefined)?.id;
  assert.ok(call.response.ok && id, `views.open was refused: ${String(call.response.error)}`);
  return slack.views(user).find((v) => v.id === id);
}

/** How often a step opens a form again that another click of the same person replaced. */
const FORM_ATTEMPTS = 5;

/**
 * Clicks `actionId` and submits the form it opened with `values`, as `user`. When another
 * click of theirs replaced that form first (a person answering two batches at once), the
 * button is clicked again, as they would; the form submitted is always this click's own.
 */
export async function submitFormOf(
  slack: FakeSlack,
  ts: string,
  actionId: string,
  values: Record<string, Record<string, unknown>>,
  user = ALICE,
) {
  for (let attempt = 1; attempt <= FORM_ATTEMPTS; attempt += 1) {
    const form = await formOpenedBy(slack, await click(slack, ts, actionId, user), user);
    // checked and sent in one go: no other click can replace the form in between
    if (form && slack.views(user).at(-1)?.id === form.id) {
      const sent = await slack.submitView({ viewId: String(form.id), user, values });
      assert.equal(sent.acked, true, `the form of ${actionId} was acknowledged`);
      return { form, sent };
    }
  }
  throw new Error(
    `the form of ${actionId} was replaced by another of ${user}'s forms ${FORM_ATTEMPTS} times`,
  );
}

/** Writes `text` into free-write question `qi` through its modal; waits until the batch quotes it. */
export async function writeFreeText(
  slack: FakeSlack,
  ts: string,
  qi: number,
  text: string,
  user = ALICE,
): Promise<void> {
  await submitFormOf(
    slack,
    ts,
    `o7.free-write:${qi}`,
    { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: text } },
    user,
  );
  const quoted = escapeMrkdwn(text)
    .split('\n')
    .map((line) => `>${line}`)
    .join('\n');
  await waitFor(
    () => thread(slack, ts).some((m) => mrkdwnTexts(m.blocks).some((t) => t.includes(quoted))),
    `question ${qi + 1} quoting the written answer`,
  );
}

/**
 * Picks options (by value: their index) of question `qi`'s choice control, a select, radio or
 * checkbox group wherever in the batch's thread it is; waits until it shows them chosen.
 */
export async function choose(
  slack: FakeSlack,
  ts: string,
  qi: number,
  values: readonly (string | number)[],
  user = ALICE,
): Promise<FoundElement> {
  const where = thread(slack, ts).find((m) => {
    try {
      return controlOf(m.blocks, qi);
    } catch {
      return false;
    }
  });
  if (!where) throw new Error(`no choice control for question ${qi + 1} in message ${ts}`);
  const control = controlOf(where.blocks, qi);
  const chosen = values.map(String);
  const result = control.actionId.startsWith('o7.choose-many:')
    ? await slack.selectOptions({ ...at(where.ts, control, user), values: chosen })
    : await slack.selectOption({ ...at(where.ts, control, user), value: chosen[0] as string });
  assert.equal(result.acked, true, `the choice for question ${qi + 1} was acknowledged`);
  return waitForSelection(slack, where.ts, qi, chosen);
}

/** Waits until question `qi`'s control in message `ts` shows `values` (in any order) chosen. */
export function waitForSelection(
  slack: FakeSlack,
  ts: string,
  qi: number,
  values: readonly string[],
): Promise<FoundElement> {
  const wanted = [...values].sort().join(',');
  return waitFor(
    () => {
      const control = controlOf(current(slack, ts).blocks, qi);
      return selectedValues(control).sort().join(',') === wanted && control;
    },
    `question ${qi + 1} showing selection [${values.join(', ')}]`,
  );
}

/** The option values a select, radio group or checkbox group shows as chosen. */
function selectedValues(control: FoundElement): string[] {
  const { element } = control;
  const one = element.initial_option as { value: string } | undefined;
  const many = element.initial_options as { value: string }[] | undefined;
  return one ? [one.value] : (many ?? []).map((o) => o.value);
}

/** Presses Submit, in whichever message of the batch's thread has it. */
export async function pressSubmit(slack: FakeSlack, ts: string, user = ALICE): Promise<void> {
  await click(slack, ts, 'o7.submit', user);
}

/** Presses Hand off as `from` and submits the modal; returns the modal as it was left. */
export async function handOffBatch(
  slack: FakeSlack,
  input: { channel: string; ts: string; from: string; to: string; note?: string },
) {
  const button = elementById(slack.message(input.channel, input.ts)?.blocks ?? [], 'o7.hand-off');
  const clicked = await slack.clickButton({ ...input, ...ids(button), user: input.from });
  const modal = await formOpenedBy(slack, clicked, input.from);
  assert.ok(modal, `the hand-off form of ${input.from} is open`);
  assert.equal(modal.callback_id, 'o7.hand-off');
  const values: Record<string, Record<string, unknown>> = {
    [HAND_OFF_INPUTS.user.blockId]: { [HAND_OFF_INPUTS.user.actionId]: input.to },
  };
  if (input.note !== undefined) {
    values[HAND_OFF_INPUTS.note.blockId] = { [HAND_OFF_INPUTS.note.actionId]: input.note };
  }
  const result = await slack.submitView({ viewId: String(modal.id), user: input.from, values });
  return { result, viewId: String(modal.id) };
}

/** The batch copy in `user`'s direct messages, once the relay sent it. */
export async function directCopy(
  slack: FakeSlack,
  user: string,
): Promise<{ channel: string; ts: string }> {
  const channel = await waitFor(() => {
    const call = slack.calls.find(
      (c) => c.method === 'conversations.open' && c.args.users === user && c.status === 200,
    );
    return (call?.response.channel as { id?: string } | undefined)?.id;
  }, `direct message with ${user}`);
  const message = await waitFor(() => slack.messages(channel)[0], `copy sent to ${user}`);
  return { channel, ts: message.ts };
}

/** The header of an `ask` batch's message. */
export const ASK_TITLE = 'Questions from an agent';

/** The `n`th (0-based) message of an `ask` batch in the channel, once it is posted. */
export function askMessage(slack: FakeSlack, n = 0): Promise<ObservedMessage> {
  return waitFor(
    () => slack.messages(CHANNEL).filter((m) => headerOf(m.blocks) === ASK_TITLE)[n],
    `ask message ${n + 1}`,
  );
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

// ---- Slack misbehaving ----

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
    waitRefused: (count = 1) =>
      waitFor(
        () => refusedSoFar() - before >= count,
        `${count} refused ${method} call(s) from the relay`,
      ),
    /** Drops the failures still queued so the relay's next try goes through. */
    release: () => slack.clearFailures(method),
  };
}

/** Holds `chat.update` (see {@link holdCalls}). */
export const holdMessageUpdates = (slack: FakeSlack) => holdCalls(slack, 'chat.update');

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
