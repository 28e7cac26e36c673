// RELAY_ALLOWED_USERS end to end: people not on the list get an ephemeral for every control
// and change nothing; people on it (by ID or through a user group) answer as usual; a modal
// opened while allowed is refused at submit once access is gone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ACTION_KINDS,
  actionId,
  CALLBACK_IDS,
  FREE_WRITE_INPUT,
  parseBlockId,
} from '../../src/core/slack/controls/ids.js';
import type { FakeSlack } from '../support/fake-slack/index.js';
import { captureLog, LEVEL, type LogRecord } from '../support/log-capture.js';
import {
  ALICE,
  BOB,
  CHANNEL,
  findElement,
  type Harness,
  visibleText,
} from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  at,
  choose,
  current,
  E2E_MODE,
  expectAnswerFile,
  expectedAnswerFile,
  ids,
  nextEphemeral,
  pressSubmit,
  pressYesNo,
  qaNames,
  relayStarter,
  waitForAnswerFile,
  waitForBatchMessage,
  waitForMessage,
  writeFreeText,
} from './relay-steps.js';

const numbered = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

/** One question per kind of control, and a select long enough to search (type-ahead). */
const EVERY_CONTROL = {
  seq: 1,
  questions: [
    { id: 'radio', type: 'choose-one', prompt: 'Radio?', options: ['a', 'b', 'c'] },
    { id: 'boxes', type: 'choose-many', prompt: 'Boxes?', options: ['a', 'b', 'c'] },
    { id: 'city', type: 'choose-one', prompt: 'City?', options: numbered(120, 'City') },
    { id: 'yn', type: 'yes-no', prompt: 'Yes or no?' },
    { id: 'text', type: 'free-write', prompt: 'Say something' },
  ],
};

const ONE_TAP = { seq: 1, questions: [{ id: 'deploy', type: 'yes-no', prompt: 'Deploy now?' }] };

const SMALL = {
  seq: 1,
  questions: [
    { id: 'pick', type: 'choose-one', prompt: 'Pick one?', options: ['x', 'y'] },
    { id: 'why', type: 'free-write', prompt: 'Why?' },
  ],
};

const GROUP = 'S0ANSWER1';

const REFUSED =
  /^Only .* may answer these questions; ask one of them, or ask an admin to add you to `RELAY_ALLOWED_USERS`/;

/** Slack's Web API, called as the relay's bot (to open a modal with a refused click's trigger). */
async function callSlack(slack: FakeSlack, method: string, args: Record<string, unknown>) {
  const res = await fetch(`${slack.apiUrl}${method}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${slack.botToken}`,
      'content-type': 'application/json; charset=utf-8',
    },
    body: JSON.stringify(args),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** The parts of an open modal that `views.open` takes, to open the same form for someone else. */
function modalDefinition(view: Record<string, unknown>): Record<string, unknown> {
  const { type, callback_id, title, close, submit, private_metadata, blocks } = view;
  return { type, callback_id, title, close, submit, private_metadata, blocks };
}

/** Waits until the relay has fetched the user groups twice more: the newer fetch saw the change. */
async function groupsRefetched(slack: FakeSlack): Promise<void> {
  const fetches = () => slack.calls.filter((c) => c.method === 'usergroups.users.list').length;
  const before = fetches();
  await waitFor(() => fetches() >= before + 2, 'two more usergroups.users.list calls');
}

const refusals = (records: LogRecord[]) =>
  records.filter((r) => r.level === LEVEL.warn && r.msg.startsWith('refused:'));

const chatUpdates = (slack: FakeSlack) =>
  slack.calls.filter((c) => c.method === 'chat.update').length;

const mode = E2E_MODE;
describe(`who may answer (${mode} mode)`, () => {
  let h: Harness | undefined;
  const startRelay = relayStarter();

  test('someone not on the list tries every control: an ephemeral each time, nothing changes; the listed person answers', async () => {
    const { log, records } = captureLog('info');
    h = await startRelay({
      log,
      config: { allowedUsers: { users: [ALICE], groups: [] } },
    });
    const slack = h.slack;
    const run = h.runDir('run-guard');
    await writeQuestionFile(run, 1, EVERY_CONTROL);
    const top = await waitForBatchMessage(slack, 'run-guard', 1);
    const ts = top.ts;
    const key = parseBlockId(findElement(top.blocks, ACTION_KINDS.submit).blockId)?.key;
    assert.ok(key);
    const blocksBefore = JSON.stringify(current(slack, ts).blocks);
    const updatesBefore = chatUpdates(slack);
    const el = (prefix: string) => at(ts, findElement(current(slack, ts).blocks, prefix), BOB);

    // ALICE opens the free-text form, so there is a real relay modal to copy for BOB below.
    await slack.clickButton({ ...el(ACTION_KINDS.freeWrite), user: ALICE });
    const aliceModal = await waitFor(() => slack.views(ALICE)[0], "ALICE's free-write modal");

    let seen = 0;
    const expectRefusal = async (what: string) => {
      const notice = await nextEphemeral(slack, BOB, seen++);
      assert.match(notice.text, REFUSED, what);
      assert.match(notice.text, new RegExp(`<@${ALICE}>`), `${what}: names who may answer`);
      assert.equal(notice.channel, CHANNEL);
    };
    const acked = (result: { acked: boolean }, what: string) =>
      assert.equal(result.acked, true, `${what} is acknowledged, so Slack shows no error`);

    acked(
      await slack.selectOption({ ...el(actionId(ACTION_KINDS.choose, 0)), value: '2' }),
      'choose',
    );
    await expectRefusal('choose');
    acked(
      await slack.selectOptions({ ...el(actionId(ACTION_KINDS.chooseMany, 1)), values: ['1'] }),
      'many',
    );
    await expectRefusal('choose-many');
    const search = await slack.suggest({
      ...el(actionId(ACTION_KINDS.choose, 2)),
      value: 'city 1',
    });
    acked(search, 'suggestion');
    assert.deepEqual(search.options, [], 'type-ahead offers nothing');
    await expectRefusal('suggestion search');
    acked(await slack.clickButton(el(actionId(ACTION_KINDS.yesNo, 3, 'no'))), 'yes-no');
    await expectRefusal('yes-no');
    const write = await slack.clickButton(el(actionId(ACTION_KINDS.freeWrite, 4)));
    acked(write, 'free-write');
    await expectRefusal('free-write button');
    assert.deepEqual(slack.views(BOB), [], 'no modal opens for BOB');

    // A form BOB got hold of anyway (as if opened before he lost access) saves nothing.
    const opened = await callSlack(slack, 'views.open', {
      trigger_id: write.payload.trigger_id,
      view: modalDefinition(aliceModal),
    });
    assert.equal(opened.ok, true, JSON.stringify(opened));
    const bobModal = await waitFor(() => slack.views(BOB)[0], "BOB's copy of the modal");
    const submitted = await slack.submitView({
      viewId: String(bobModal.id),
      user: BOB,
      values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: 'BOB WAS HERE' } },
    });
    acked(submitted, 'modal submit');
    const errors = slack.views(BOB)[0]?.errors;
    assert.match(errors?.[FREE_WRITE_INPUT.blockId] ?? '', /allow list/);
    await slack.closeView({ viewId: String(bobModal.id), user: BOB });

    acked(await slack.clickButton(el(ACTION_KINDS.submit)), 'submit');
    await expectRefusal('submit');

    // Nothing BOB did reached the batch: same message, no edit, no answer file.
    assert.equal(JSON.stringify(current(slack, ts).blocks), blocksBefore);
    assert.equal(chatUpdates(slack), updatesBefore);
    assert.deepEqual(await qaNames(run), ['q-out-001.json']);
    const warned = refusals(records);
    assert.equal(warned.length, 7, 'every attempt is logged');
    for (const record of warned) {
      assert.equal(record.user, BOB);
      assert.match(String(record.action), /^o7\./);
      assert.equal(record.key, key);
    }
    assert.ok(warned.some((r) => r.kind === 'view' && r.action === CALLBACK_IDS.freeWrite));

    // ALICE, who is listed, answers everything; only her answers are written.
    await slack.closeView({ viewId: String(aliceModal.id), user: ALICE });
    await choose(slack, ts, 0, [0]);
    await choose(slack, ts, 1, [0, 2]);
    const cities = await slack.suggest({
      ...el(actionId(ACTION_KINDS.choose, 2)),
      user: ALICE,
      value: 'city 10',
    });
    assert.ok(cities.options.length > 0, 'ALICE can search');
    await choose(slack, ts, 2, [99]);
    await pressYesNo(slack, ts, 3, true);
    await writeFreeText(slack, ts, 4, 'from alice');
    assert.doesNotMatch(visibleText(current(slack, ts)), /BOB WAS HERE/);
    await pressSubmit(slack, ts);
    await expectAnswerFile(run, EVERY_CONTROL, {
      radio: 'a',
      boxes: ['a', 'c'],
      city: 'City 100',
      yn: true,
      text: 'from alice',
    });

    // One-tap buttons are guarded too.
    const tapRun = h.runDir('run-tap');
    await writeQuestionFile(tapRun, 1, ONE_TAP);
    const tap = await waitForBatchMessage(slack, 'run-tap', 1);
    const yes = {
      channel: CHANNEL,
      ts: tap.ts,
      ...ids(findElement(tap.blocks, actionId(ACTION_KINDS.oneTap, 0, 'yes'))),
    };
    acked(await slack.clickButton({ ...yes, user: BOB }), 'one-tap');
    await expectRefusal('one-tap');
    assert.deepEqual(await qaNames(tapRun), ['q-out-001.json']);
    await slack.clickButton({ ...yes, user: ALICE });
    assert.equal(await waitForAnswerFile(tapRun, 1), expectedAnswerFile(ONE_TAP, { deploy: true }));
    assert.deepEqual(slack.failures, []);
  });

  test('a user-group allow list: members answer, others are refused, membership changes are picked up, and a modal opened before removal is refused on submit', async () => {
    const { log, records } = captureLog('info');
    h = await startRelay({
      log,
      config: { allowedUsers: { users: [], groups: [GROUP] } },
      start: { allowList: { refreshMs: 150 } },
    });
    const slack = h.slack;
    slack.addUserGroup({ id: GROUP, users: [BOB] });
    await groupsRefetched(slack);

    const run = h.runDir('run-group');
    await writeQuestionFile(run, 1, SMALL);
    const top = await waitForBatchMessage(slack, 'run-group', 1);
    const ts = top.ts;
    const radio = () => ({
      channel: CHANNEL,
      ts,
      ...ids(findElement(current(slack, ts).blocks, actionId(ACTION_KINDS.choose, 0))),
    });

    // ALICE is not in the group.
    await slack.selectOption({ ...radio(), user: ALICE, value: '1' });
    const notice = await nextEphemeral(slack, ALICE, 0);
    assert.match(notice.text, REFUSED);
    assert.match(notice.text, new RegExp(`<!subteam\\^${GROUP}>`));

    // BOB is: his pick is recorded, and he opens the free-text form.
    await choose(slack, ts, 0, [0], BOB);
    const write = findElement(current(slack, ts).blocks, actionId(ACTION_KINDS.freeWrite, 1));
    await slack.clickButton(at(ts, write, BOB));
    const form = await waitFor(() => slack.views(BOB)[0], "BOB's free-write modal");

    // The group changes: BOB is out, ALICE is in.
    slack.addUserGroup({ id: GROUP, users: [ALICE] });
    await groupsRefetched(slack);
    const before = JSON.stringify(current(slack, ts).blocks);
    const submitted = await slack.submitView({
      viewId: String(form.id),
      user: BOB,
      values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: 'too late' } },
    });
    assert.equal(submitted.acked, true);
    assert.match(slack.views(BOB)[0]?.errors?.[FREE_WRITE_INPUT.blockId] ?? '', /allow list/);
    assert.equal(JSON.stringify(current(slack, ts).blocks), before, 'no draft was saved');
    await slack.closeView({ viewId: String(form.id), user: BOB });
    assert.ok(
      refusals(records).some((r) => r.user === BOB && r.kind === 'view'),
      'the refused submission is logged with the user',
    );

    // ALICE now answers; the answer file has her text, never BOB's late one.
    await writeFreeText(slack, ts, 1, 'alice joined');
    await pressSubmit(slack, ts, ALICE);
    await expectAnswerFile(run, SMALL, { pick: 'x', why: 'alice joined' });
    const final = await waitForMessage(
      slack,
      ts,
      (m) => visibleText(m).includes(`<@${ALICE}>`),
      'the final message',
    );
    assert.doesNotMatch(visibleText(final), /too late/);
    assert.deepEqual(slack.failures, []);
  });
});
