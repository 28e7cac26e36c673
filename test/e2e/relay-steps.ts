// The end-to-end tests' steps: what a person does in Slack (click, choose, write, submit, hand
// off), what they see (a batch's messages, its controls, its texts), what an agent or another
// tool does in a run folder, and how the relay under test is started. Every e2e test, the
// hostile-input tests and the demo act through these, so each step is written once. This file
// holds what people do and gathers the rest, each part in steps/ by what it drives.
import assert from 'node:assert/strict';
import {
  ACTION_KINDS,
  actionId,
  CALLBACK_IDS,
  FOLLOW_UP_INPUT,
  FREE_WRITE_INPUT,
  HAND_OFF_INPUTS,
} from '../../src/core/slack/controls/ids.js';
import { escapeMrkdwn } from '../../src/core/slack/text/escape-mrkdwn.js';
import type { FakeSlack, ObservedView } from '../support/fake-slack/index.js';
import type { ObservedMessage, StoredMessage } from '../support/fake-slack/types.js';
import {
  ALICE,
  CHANNEL,
  elementsOf,
  type FoundElement,
  findElement,
  type Harness,
} from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import { EVERY_CONTROL_BATCH, GO, LONG_OPTIONS } from './steps/batches.js';
import {
  type Blocks,
  current,
  headerOf,
  mrkdwnTexts,
  postBatch,
  thread,
  waitForAnswered,
} from './steps/messages.js';
import { expectAnswerFile, expectedAnswerFile } from './steps/run-folders.js';

export * from './steps/batches.js';
export * from './steps/home.js';
export * from './steps/messages.js';
export * from './steps/run-folders.js';
export * from './steps/slack-calls.js';
export * from './steps/test-relay.js';

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

const CHOICE_KINDS = new Set<string>([ACTION_KINDS.choose, ACTION_KINDS.chooseMany]);

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
  const actionId = `${ACTION_KINDS.yesNo}:${qi}:${yes ? 'yes' : 'no'}`;
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
    `${ACTION_KINDS.freeWrite}:${qi}`,
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
  const result = control.actionId.startsWith(`${ACTION_KINDS.chooseMany}:`)
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
  await click(slack, ts, ACTION_KINDS.submit, user);
}

/** Presses Hand off as `from` and submits the modal; returns the modal as it was left. */
export async function handOffBatch(
  slack: FakeSlack,
  input: { channel: string; ts: string; from: string; to: string; note?: string },
) {
  const button = elementById(
    slack.message(input.channel, input.ts)?.blocks ?? [],
    ACTION_KINDS.handOff,
  );
  const clicked = await slack.clickButton({ ...input, ...ids(button), user: input.from });
  const modal = await formOpenedBy(slack, clicked, input.from);
  assert.ok(modal, `the hand-off form of ${input.from} is open`);
  assert.equal(modal.callback_id, CALLBACK_IDS.handOff);
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
    () => slack.views(user).find((v) => v.callback_id === CALLBACK_IDS.followUp),
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

// ---- what people do, then check ----

/** Posts a batch of `pick` then {@link GO} into the run `runName`; finds the control of `pick`. */
export async function postPickAndGo(h: Harness, runName: string, pick: Record<string, unknown>) {
  const batch = { seq: 1, questions: [pick, GO] };
  const posted = await postBatch(h, runName, batch);
  return { batch, posted, ts: posted.ts, control: controlOf(posted.blocks, 0) };
}

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

/**
 * Answers every question of {@link EVERY_CONTROL_BATCH} posted at `ts`, searching both external
 * selects on the way and writing `text` in its free-write (in `replies.text`); returns the answer
 * file Submit should then write.
 */
export async function answerEveryControl(
  slack: FakeSlack,
  ts: string,
  replies: { text: string; last: string },
  text: string,
): Promise<string> {
  await choose(slack, ts, 0, [1]);
  await choose(slack, ts, 1, [2, 0]);
  await choose(slack, ts, 2, [4]);
  await choose(slack, ts, 3, [11, 0]);
  const cities = await slack.suggest({
    ...at(ts, findElement(current(slack, ts).blocks, actionId(ACTION_KINDS.choose, 4))),
    value: 'city 10',
  });
  assert.ok(
    cities.options.some((o) => o.value === '99'),
    'City 100 is offered',
  );
  await choose(slack, ts, 4, [99]);
  await slack.suggest({
    ...at(ts, findElement(current(slack, ts).blocks, actionId(ACTION_KINDS.chooseMany, 5))),
    value: 'lib 7',
  });
  await choose(slack, ts, 5, [6, 69]);
  await pressYesNo(slack, ts, 6, false);
  await writeFreeText(slack, replies.text, 7, text);
  await choose(slack, replies.last, 8, [3]);
  return expectedAnswerFile(EVERY_CONTROL_BATCH, {
    radio: 'b',
    boxes: ['a', 'c'],
    select: 'Colour 5',
    multi: ['Tag 1', 'Tag 12'],
    ext: 'City 100',
    multiext: ['Lib 7', 'Lib 70'],
    yn: false,
    text,
    long: LONG_OPTIONS[3],
  });
}
