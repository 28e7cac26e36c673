import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readAuditLog } from '../../src/audit/audit-log.js';
import {
  ACTION_KINDS,
  FREE_WRITE_INPUT,
  HAND_OFF_INPUTS,
} from '../../src/core/slack/controls/ids.js';
import {
  ALICE,
  BOB,
  CHANNEL,
  channelMessages,
  elementsOf,
  findElement,
  type Harness,
  type RelayHarnessOptions,
  visibleText,
} from '../support/relay-harness.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { at, directCopy, E2E_MODE, handOffBatch, relayStarter } from './relay-steps.js';

const CAROL = 'U0CAROL01';
const ROBOT = 'U0ROBOT01';
const GONE = 'U0GONE001';
const TEAM = 'S0TEAM001';

const ids = (e: { blockId: string; actionId: string }) => ({
  blockId: e.blockId,
  actionId: e.actionId,
});

const mode = E2E_MODE;
describe(`hand-off and claim end to end (${mode} mode)`, () => {
  let h: Harness;
  const startRelay = relayStarter();
  const start = async (options?: RelayHarnessOptions) => {
    h = await startRelay(options);
    h.slack.addUser({ id: CAROL, name: 'carol' });
    h.slack.addUser({ id: ROBOT, name: 'robot', isBot: true });
  };

  /** Writes a batch and returns its channel message's ts. */
  async function postBatch(name: string): Promise<{ run: string; ts: string }> {
    const run = h.runDir(name);
    await writeQuestionFile(run, 1, sampleBatch(1));
    const posted = await waitFor(() => channelMessages(h.slack)[0], 'batch message');
    return { run, ts: posted.ts };
  }

  const blocksAt = (channel: string, ts: string) => h.slack.message(channel, ts)?.blocks ?? [];

  const handOff = (input: Parameters<typeof handOffBatch>[1]) => handOffBatch(h.slack, input);

  /** Why Alice's hand-off modal `viewId` refuses the person chosen in it, once it says so. */
  async function refusalIn(viewId: string, what: string): Promise<string> {
    const view = await waitFor(
      () => h.slack.views(ALICE).find((v) => String(v.id) === viewId && v.errors),
      what,
    );
    return String(view.errors?.[HAND_OFF_INPUTS.user.blockId]);
  }
  const dmCopy = (user: string) => directCopy(h.slack, user);

  /** Posts batch 1 into the run `name` and has Alice hand it to Bob; adds Bob's DM copy. */
  async function postHandedToBob(name: string) {
    const posted = await postBatch(name);
    await handOff({ channel: CHANNEL, ts: posted.ts, from: ALICE, to: BOB });
    return { ...posted, dm: await dmCopy(BOB) };
  }

  const shows = (channel: string, ts: string, pattern: RegExp, what: string) =>
    waitFor(() => {
      const m = h.slack.message(channel, ts);
      return m && pattern.test(visibleText(m)) ? m : undefined;
    }, what);

  const isFinal = (channel: string, ts: string) =>
    waitFor(() => {
      const m = h.slack.message(channel, ts);
      return m && elementsOf(m.blocks).length === 0 ? m : undefined;
    }, `final message in ${channel}`);

  /** Answers every question of the sample batch (drafts) in one copy, as `user`. */
  async function answerAll(at: { channel: string; ts: string }, user: string) {
    const blocks = () => blocksAt(at.channel, at.ts);
    await h.slack.selectOption({
      ...at,
      ...ids(findElement(blocks(), ACTION_KINDS.choose)),
      user,
      value: '1',
    });
    await h.slack.selectOptions({
      ...at,
      ...ids(findElement(blocks(), ACTION_KINDS.chooseMany)),
      user,
      values: ['0'],
    });
    const yes = elementsOf(blocks()).find(
      (e) => e.actionId.startsWith(ACTION_KINDS.yesNo) && e.element.value === 'yes',
    );
    assert.ok(yes);
    await h.slack.clickButton({ ...at, ...ids(yes), user });
    const before = h.slack.views(user).length;
    await h.slack.clickButton({
      ...at,
      ...ids(findElement(blocks(), ACTION_KINDS.freeWrite)),
      user,
    });
    const modal = await waitFor(() => h.slack.views(user)[before], 'free-write modal');
    await h.slack.submitView({
      viewId: String(modal.id),
      user,
      values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: `from ${user}` } },
    });
    await shows(at.channel, at.ts, new RegExp(`from ${user}`), 'free text shown');
  }

  const answerFiles = async (run: string) =>
    (await readdir(path.join(run, 'qa'))).filter((n) => n.startsWith('q-answers-'));

  test('hand-off: the teammate gets the live batch in a DM and answers it there', async () => {
    await start();
    const { run, ts } = await postBatch('run-dm');
    const channelAt = { channel: CHANNEL, ts };
    // a choice made before the hand-off travels with it
    await h.slack.selectOption({
      ...channelAt,
      ...ids(findElement(blocksAt(CHANNEL, ts), ACTION_KINDS.choose)),
      user: ALICE,
      value: '1',
    });
    await handOff({ ...channelAt, from: ALICE, to: BOB, note: 'Check <b>this</b> & ship' });

    const dm = await dmCopy(BOB);
    const dmChoose = findElement(blocksAt(dm.channel, dm.ts), ACTION_KINDS.choose);
    assert.equal((dmChoose.element.initial_option as { value: string }).value, '1');
    await shows(CHANNEL, ts, new RegExp(`Assigned to <@${BOB}>`), 'assignee in the channel');
    const thread = await waitFor(
      () => channelMessages(h.slack)[0]?.replies.find((r) => /handed this to/.test(r.text)),
      'hand-off reply in the thread',
    );
    assert.match(thread.text, new RegExp(`<@${ALICE}> handed this to <@${BOB}>`));
    assert.match(thread.text, /Check &lt;b&gt;this&lt;\/b&gt; &amp; ship/);

    // a choice made in the DM shows in the channel
    await h.slack.selectOptions({
      ...dm,
      ...ids(findElement(blocksAt(dm.channel, dm.ts), ACTION_KINDS.chooseMany)),
      user: BOB,
      values: ['2'],
    });
    await waitFor(() => {
      const many = findElement(blocksAt(CHANNEL, ts), ACTION_KINDS.chooseMany);
      const chosen = many.element.initial_options as { value: string }[] | undefined;
      return chosen?.some((o) => o.value === '2');
    }, 'DM choice shown in the channel');

    await answerAll(dm, BOB);
    await h.slack.clickButton({
      ...dm,
      ...ids(findElement(blocksAt(dm.channel, dm.ts), ACTION_KINDS.submit)),
      user: BOB,
    });
    await waitFor(async () => (await answerFiles(run)).length === 1, 'answer file');
    const written = JSON.parse(await readFile(path.join(run, 'qa', 'q-answers-001.json'), 'utf8'));
    assert.equal(written.answers[2].answer, `from ${BOB}`);
    const finalChannel = await isFinal(CHANNEL, ts);
    await isFinal(dm.channel, dm.ts);
    const seen = visibleText(finalChannel);
    assert.match(seen, new RegExp(`Answered by <@${BOB}>`));
    assert.match(seen, new RegExp(`Hand-offs:\\n<@${ALICE}> handed this to <@${BOB}>`));
    // the audit log says it was answered by the person it was handed to
    const { entries } = await waitFor(async () => {
      const read = await readAuditLog(h.config.auditLog);
      return read.entries.length === 1 ? read : undefined;
    }, 'the decision in the audit log');
    assert.deepEqual([entries[0]?.by, entries[0]?.how], [BOB, 'hand-off']);
    assert.deepEqual(h.slack.failures, []);
  });

  test('after a second hand-off the batch is answered in the channel; every copy ends final', async () => {
    await start();
    const { run, ts, dm: bobDm } = await postHandedToBob('run-chain');
    await handOff({ ...bobDm, from: BOB, to: CAROL, note: 'yours now' });
    const carolDm = await dmCopy(CAROL);
    await shows(CHANNEL, ts, new RegExp(`Assigned to <@${CAROL}>`), 'new assignee');
    await shows(bobDm.channel, bobDm.ts, new RegExp(`Assigned to <@${CAROL}>`), 'in Bob’s copy');
    await waitFor(
      () =>
        channelMessages(h.slack)[0]?.replies.filter((r) => /handed this to/.test(r.text)).length ===
        2,
      'two hand-off replies',
    );

    await answerAll({ channel: CHANNEL, ts }, ALICE);
    await h.slack.clickButton(at(ts, findElement(blocksAt(CHANNEL, ts), ACTION_KINDS.submit)));
    await waitFor(async () => (await answerFiles(run)).length === 1, 'answer file');
    for (const copy of [{ channel: CHANNEL, ts }, bobDm, carolDm]) {
      const final = await isFinal(copy.channel, copy.ts);
      const seen = visibleText(final);
      assert.match(seen, new RegExp(`Answered by <@${ALICE}>`));
      assert.match(
        seen,
        new RegExp(
          `<@${ALICE}> handed this to <@${BOB}>.*\\n<@${BOB}> handed this to <@${CAROL}>.*yours now`,
        ),
      );
    }
    assert.deepEqual(await answerFiles(run), ['q-answers-001.json']);
    assert.deepEqual(h.slack.failures, []);
  });

  test('two people submitting at once: one answer file, the other is told', async () => {
    await start();
    const { run, ts, dm } = await postHandedToBob('run-race');
    await answerAll({ channel: CHANNEL, ts }, ALICE);
    await shows(dm.channel, dm.ts, new RegExp(`from ${ALICE}`), 'answers shown in the DM');
    const submitIn = (at: { channel: string; ts: string }, user: string) =>
      h.slack.clickButton({
        ...at,
        ...ids(findElement(blocksAt(at.channel, at.ts), ACTION_KINDS.submit)),
        user,
      });
    await Promise.all([submitIn({ channel: CHANNEL, ts }, ALICE), submitIn(dm, BOB)]);
    await waitFor(async () => (await answerFiles(run)).length === 1, 'answer file');
    const final = await isFinal(CHANNEL, ts);
    await isFinal(dm.channel, dm.ts);
    const winner = new RegExp(`Answered by <@${ALICE}>`).test(visibleText(final)) ? ALICE : BOB;
    const loser = winner === ALICE ? BOB : ALICE;
    const told = await waitFor(() => h.slack.ephemerals(loser)[0], 'the other person told');
    assert.match(told.text, /already answered/);
    assert.deepEqual(await answerFiles(run), ['q-answers-001.json']);
    assert.deepEqual(h.slack.failures, []);
  });

  test('hand-offs to a bot, to oneself or to someone not allowed are refused', async () => {
    await start({ config: { allowedUsers: { users: [ALICE, BOB, ROBOT], groups: [] } } });
    const { ts } = await postBatch('run-refuse');
    const cases = [
      { to: ROBOT, reason: /bot/ },
      { to: ALICE, reason: /yourself/ },
      { to: CAROL, reason: /allow list/ },
    ];
    for (const { to, reason } of cases) {
      const { viewId } = await handOff({ channel: CHANNEL, ts, from: ALICE, to });
      assert.match(await refusalIn(viewId, `refusal for ${to}`), reason);
      await h.slack.closeView({ viewId, user: ALICE });
    }
    assert.equal(h.slack.calls.filter((c) => c.method === 'conversations.open').length, 0);
    assert.doesNotMatch(visibleText(h.slack.message(CHANNEL, ts) as never), /Assigned to/);
    assert.equal(channelMessages(h.slack)[0]?.replies.length, 0);
    assert.deepEqual(h.slack.failures, []);
  });

  test('a hand-off whose target Slack is slow to look up is refused in time, and works after', async () => {
    await start();
    const { ts } = await postBatch('run-slow-lookup');
    // Rate-limited: the Slack client would wait 3 s before asking again, past the ack deadline.
    h.slack.failNext('users.info', { status: 429, retryAfter: 3 });
    const { viewId } = await handOff({ channel: CHANNEL, ts, from: ALICE, to: BOB });
    assert.match(await refusalIn(viewId, 'the refusal in the modal'), /could not tell who/);
    assert.deepEqual(h.slack.failures, [], 'the modal was answered within 3 s');
    await h.slack.closeView({ viewId, user: ALICE });

    await handOff({ channel: CHANNEL, ts, from: ALICE, to: BOB });
    await dmCopy(BOB);
  });

  test('hand-offs to a deactivated account or to a user Slack does not know are refused in the modal', async () => {
    await start();
    h.slack.addUser({ id: GONE, name: 'gone', deleted: true });
    const { ts } = await postBatch('run-gone');
    const cases = [
      { to: GONE, reason: /deactivated/ },
      // the picker offered them, but Slack no longer knows them (removed from the workspace)
      { to: CAROL, reason: /knows no such user/, slack: 'user_not_found' },
    ];
    for (const { to, reason, slack } of cases) {
      if (slack) h.slack.failNext('users.info', { error: slack });
      const { result, viewId } = await handOff({ channel: CHANNEL, ts, from: ALICE, to });
      assert.equal(result.acked, true);
      assert.match(await refusalIn(viewId, `refusal for ${to}`), reason);
      await h.slack.closeView({ viewId, user: ALICE });
    }
    assert.equal(h.slack.calls.filter((c) => c.method === 'conversations.open').length, 0);
    assert.doesNotMatch(visibleText(h.slack.message(CHANNEL, ts) as never), /Assigned to/);
    assert.deepEqual(h.slack.failures, []);
  });

  test('the allow list refresh and the account lookup share one budget: a slow Slack still gets its answer in time', async () => {
    // the group is fetched at start without carol; she joins it afterwards
    await start({
      config: { allowedUsers: { users: [ALICE], groups: [TEAM] } },
      start: { allowList: { missRefreshMs: 0 } },
    });
    const { ts } = await postBatch('run-slow-both');
    h.slack.addUserGroup({ id: TEAM, users: [BOB, CAROL] });
    // Both rate-limited: each Slack call would wait 3 s before asking again.
    h.slack.failNext('usergroups.users.list', { status: 429, retryAfter: 3 });
    h.slack.failNext('users.info', { status: 429, retryAfter: 3 });
    const { result, viewId } = await handOff({ channel: CHANNEL, ts, from: ALICE, to: CAROL });
    assert.equal(result.acked, true);
    assert.deepEqual(h.slack.failures, [], 'the modal was answered within 3 s');
    assert.match(await refusalIn(viewId, 'the refusal in the modal'), /try again/);
    await h.slack.closeView({ viewId, user: ALICE });

    // Slack answers again: carol, who joined the allowed group after the last fetch, takes it
    await waitFor(
      () => h.slack.calls.filter((c) => c.method === 'usergroups.users.list').length >= 2,
      'the rate-limited group fetch done',
    );
    await handOff({ channel: CHANNEL, ts, from: ALICE, to: CAROL });
    await dmCopy(CAROL);
    assert.deepEqual(h.slack.failures, []);
  });

  test('someone not allowed to answer can neither hand off nor claim', async () => {
    await start({ config: { allowedUsers: { users: [ALICE], groups: [] } } });
    const { ts } = await postBatch('run-outsider');
    const at = { channel: CHANNEL, ts };
    for (const control of [ACTION_KINDS.handOff, ACTION_KINDS.claim]) {
      const before = h.slack.ephemerals(BOB).length;
      await h.slack.clickButton({
        ...at,
        ...ids(findElement(blocksAt(CHANNEL, ts), control)),
        user: BOB,
      });
      const told = await waitFor(() => h.slack.ephemerals(BOB)[before], `refusal of ${control}`);
      assert.match(told.text, /may answer/);
    }
    assert.deepEqual(h.slack.views(BOB), []);
    assert.doesNotMatch(visibleText(h.slack.message(CHANNEL, ts) as never), /is on it|Assigned/);
    assert.deepEqual(h.slack.failures, []);
  });

  test("two people pressing I'm on it at once: one holds the batch, the other is told", async () => {
    await start();
    const { ts } = await postBatch('run-claim-race');
    const at = { channel: CHANNEL, ts };
    const claim = ids(findElement(blocksAt(CHANNEL, ts), ACTION_KINDS.claim));
    await Promise.all([
      h.slack.clickButton({ ...at, ...claim, user: ALICE }),
      h.slack.clickButton({ ...at, ...claim, user: BOB }),
    ]);
    const told = await waitFor(() => {
      const all = [...h.slack.ephemerals(ALICE), ...h.slack.ephemerals(BOB)];
      return all.length > 0 ? all : undefined;
    }, 'the slower one told');
    assert.equal(told.length, 1);
    assert.match(told[0]?.text ?? '', /already on this batch/);
    const loser = h.slack.ephemerals(ALICE).length === 1 ? ALICE : BOB;
    const holder = loser === ALICE ? BOB : ALICE;
    await shows(CHANNEL, ts, new RegExp(`<@${holder}> is on it`), 'the holder shown');
    assert.doesNotMatch(
      visibleText(h.slack.message(CHANNEL, ts) as never),
      new RegExp(`<@${loser}> is on it`),
    );
  });

  test('claim and release; a hand-off moves the claim', async () => {
    await start();
    const { ts } = await postBatch('run-claim');
    const at = { channel: CHANNEL, ts };
    const claimButton = () => findElement(blocksAt(CHANNEL, ts), ACTION_KINDS.claim);
    assert.equal((claimButton().element.text as { text: string }).text, "I'm on it");
    await h.slack.clickButton({ ...at, ...ids(claimButton()), user: ALICE });
    await shows(CHANNEL, ts, new RegExp(`<@${ALICE}> is on it`), 'claim shown');
    assert.equal((claimButton().element.text as { text: string }).text, 'Release');

    await h.slack.clickButton({ ...at, ...ids(claimButton()), user: BOB });
    const told = await waitFor(() => h.slack.ephemerals(BOB)[0], 'Bob told');
    assert.match(told.text, /only they can release/);
    assert.match(
      visibleText(h.slack.message(CHANNEL, ts) as never),
      new RegExp(`<@${ALICE}> is on it`),
    );

    await h.slack.clickButton({ ...at, ...ids(claimButton()), user: ALICE });
    await waitFor(
      () => (claimButton().element.text as { text: string }).text === "I'm on it",
      'released',
    );
    assert.doesNotMatch(visibleText(h.slack.message(CHANNEL, ts) as never), /is on it/);

    await h.slack.clickButton({ ...at, ...ids(claimButton()), user: ALICE });
    await shows(CHANNEL, ts, new RegExp(`<@${ALICE}> is on it`), 'claimed again');
    await handOff({ ...at, from: ALICE, to: BOB });
    const dm = await dmCopy(BOB);
    await shows(CHANNEL, ts, new RegExp(`<@${BOB}> is on it`), 'claim moved in the channel');
    await shows(dm.channel, dm.ts, new RegExp(`<@${BOB}> is on it`), 'claim shown in the DM');
    assert.deepEqual(h.slack.failures, []);
  });
});
