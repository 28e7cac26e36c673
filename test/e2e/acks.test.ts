// Slack gives every interaction 3 s for its ack, or the person sees "not responding". The relay
// acknowledges before any slow work (disk, Redis, Slack calls): clicks and events as they
// arrive, forms and type-ahead searches once their answer is known. Measured here beside two
// CPU-bound processes, and shown by the order of what reaches the stand-in.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { ACTION_KINDS, actionId, CALLBACK_IDS } from '../../src/core/slack/controls/ids.js';
import { jsonBlock, reposQuestion } from '../core/envelope/envelope-samples.js';
import { type CpuHogs, startCpuHogs } from '../support/cpu-hogs.js';
import type { DeliveredPayload, FakeSlack } from '../support/fake-slack/index.js';
import { ALICE, allConnected, BOB, CHANNEL, visibleText } from '../support/relay-harness.js';
import { relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { exitCodeOf, spawnAsk } from './ask-process.js';
import {
  answerEveryControl,
  askMessage,
  choose,
  click,
  current,
  directCopy,
  EVERY_CONTROL_BATCH,
  formOpenedBy,
  handOffBatch,
  locate,
  openHome,
  pressSubmit,
  pressYesNo,
  publishRun,
  relayStarter,
  saveFollowUp,
  thread,
  waitForAnswerFile,
  waitForBatchMessage,
  waitForText,
} from './relay-steps.js';
import { askPermissionThroughHook, denyWithReason, hookPrompt } from './steps/hook-prompts.js';

/** Slack's deadline for an ack. */
const ACK_DEADLINE_MS = 3000;

/** Slack calls the relay makes to decide on an interaction. */
const LOOKUPS: ReadonlySet<string> = new Set(['users.info', 'usergroups.users.list']);

/**
 * The Web API calls an interaction led to that reached the stand-in before its ack did: a form
 * opened with its trigger, a private reply or a Home tab for its person, a lookup made to
 * decide on it. (A message edit in between may be an earlier click's: the presenter edits
 * batches on its own time.)
 */
function ledToBeforeAck(slack: FakeSlack, delivered: DeliveredPayload): string[] {
  const { timing, payload } = delivered;
  if (!timing) return [];
  const trigger = payload.trigger_id;
  const event = payload.event as { user?: unknown } | undefined;
  const user = (payload.user as { id?: unknown } | undefined)?.id ?? event?.user;
  return slack.calls
    .slice(timing.callsAtSend, timing.callsAtAck)
    .filter(
      (c) =>
        (trigger !== undefined && c.args.trigger_id === trigger) ||
        (c.method === 'chat.postEphemeral' && c.args.user === user) ||
        (c.method === 'views.publish' && c.args.user_id === user) ||
        LOOKUPS.has(c.method),
    )
    .map((c) => c.method);
}

describe('acks come before slow work (socket mode)', () => {
  const startRelay = relayStarter();

  test('a click that sends the allow list to Slack for its groups again is acknowledged before that lookup', async () => {
    const GROUP = 'S0ACKS001';
    const h = await startRelay({
      config: { allowedUsers: { users: [], groups: [GROUP] } },
      // groups are fetched at start and then only when someone not among them acts
      start: { allowList: { refreshMs: 3_600_000, missRefreshMs: 0 } },
      prepare: (slack) => {
        slack.addUserGroup({ id: GROUP, users: [BOB] });
        return {};
      },
    });
    const run = h.runDir('run-group');
    await writeQuestionFile(run, 1, {
      seq: 1,
      questions: [
        { id: 'go', type: 'yes-no', prompt: 'Go?' },
        { id: 'why', type: 'free-write', prompt: 'Why?' },
      ],
    });
    const { ts } = await waitForBatchMessage(h.slack, 'run-group', 1);
    // Alice joins the group; the relay has not seen it, so her click makes it look again
    h.slack.addUserGroup({ id: GROUP, users: [BOB, ALICE] });
    const lookups = () => h.slack.calls.filter((c) => c.method === 'usergroups.users.list').length;
    const before = lookups();
    await pressYesNo(h.slack, ts, 0, true);
    assert.equal(lookups(), before + 1, 'the click made the relay fetch the group');
    const clicked = h.slack.deliveredPayloads.at(-1);
    assert.ok(clicked?.acked && clicked.subject.startsWith(ACTION_KINDS.yesNo));
    assert.deepEqual(ledToBeforeAck(h.slack, clicked), [], 'acked before the group was fetched');
  });
});

describe('ack times beside two CPU-bound processes (socket mode)', () => {
  let hogs: CpuHogs | undefined;
  const fx = relayProcessPerTest('o7-acks-', async () => {
    await hogs?.stop();
    hogs = undefined;
  });

  test('every kind of interaction is acknowledged within 3 s, before the Web API calls it leads to', async (t: TestContext) => {
    const { slack, root } = fx;
    hogs = startCpuHogs(2);
    fx.relay = spawnRelayFor(slack, root, { logLevel: 'info' });
    await fx.relay.waitForLog('relay ready');
    await allConnected(slack);

    // A batch with every control, continued in two thread replies, then a one-tap batch.
    const run = path.join(root, 'runs', 'run-acks');
    await publishRun(run, { 'q-out-001.json': EVERY_CONTROL_BATCH });
    const top = await waitForBatchMessage(slack, 'run-acks', 1);
    const replies = await waitFor(() => {
      const [m] = slack.messages(CHANNEL);
      return m && m.replies.length === 2 && m.replies.map((r) => r.ts);
    }, 'the batch continued in two thread replies');
    const [textReply, lastReply] = replies as [string, string];
    const ts = top.ts;

    // Team controls (on the batch's last message): I'm on it, Release.
    const batchText = () => thread(slack, ts).map(visibleText).join('\n');
    const shows = (pattern: RegExp) =>
      waitFor(() => pattern.test(batchText()), `the batch showing ${pattern}`);
    // The line and the button are on different messages, edited one after the other: the
    // second press waits for the button to say Release, or it would claim again.
    const claimLabel = () =>
      (locate(slack, ts, ACTION_KINDS.claim).found.element.text as { text: string }).text;
    await click(slack, ts, ACTION_KINDS.claim);
    await shows(new RegExp(`<@${ALICE}> is on it`));
    await waitFor(() => claimLabel() === 'Release', 'the button saying Release');
    await click(slack, ts, ACTION_KINDS.claim);
    await waitFor(() => claimLabel() === "I'm on it", 'released');

    // The forms behind "Show full preview" and "Show full options".
    const preview = await formOpenedBy(
      slack,
      await click(slack, textReply, actionId(ACTION_KINDS.showPreview, 7)),
      ALICE,
    );
    assert.ok(preview && JSON.stringify(preview).includes('+--+'), 'the full preview');
    const options = await formOpenedBy(
      slack,
      await click(slack, lastReply, actionId(ACTION_KINDS.showOptions, 8)),
      ALICE,
    );
    assert.ok(options && JSON.stringify(options).includes('Long option 10'), 'the full options');

    // Every answer control: picks, type-ahead searches (options requests), the free-write form.
    const answers = await answerEveryControl(
      slack,
      ts,
      { text: textReply, last: lastReply },
      'typed beside busy cores',
    );

    // Hand off to Bob (button, then the form), who answers nothing: Alice submits.
    await handOffBatch(slack, { channel: CHANNEL, ts: lastReply, from: ALICE, to: BOB });
    const dm = await directCopy(slack, BOB);
    await shows(new RegExp(`Assigned to <@${BOB}>`));
    await waitFor(
      () => slack.messages(CHANNEL)[0]?.replies.some((r) => /handed this to/.test(r.text)),
      'the hand-off told in the thread',
    );
    await waitFor(
      () => /Assigned to/.test(visibleText(current(slack, ts))) && slack.message(dm.channel, dm.ts),
      'the copy',
    );
    await pressSubmit(slack, lastReply);
    assert.equal(await waitForAnswerFile(run, 1), answers);

    // A one-tap batch.
    await writeQuestionFile(run, 2, {
      seq: 2,
      questions: [{ id: 'deploy', type: 'yes-no', prompt: 'Deploy now?' }],
    });
    const tap = await waitForBatchMessage(slack, 'run-acks', 2);
    await click(slack, tap.ts, actionId(ACTION_KINDS.oneTap, 0, 'yes'));
    await waitForAnswerFile(run, 2);

    // An agent's questions through `ask`: a choice that asks for text (its form), the form
    // opened again, and Cancel.
    const ask = spawnAsk(
      path.join(root, 'state'),
      root,
      `Two ways to go.\n\n${jsonBlock({ openQuestions: [reposQuestion] })}`,
    );
    const asked = await askMessage(slack);
    await choose(slack, asked.ts, 0, [1]); // Multi-repo: its form opens
    await saveFollowUp(slack, 'web: /abs/web');
    await waitForText(slack, asked.ts, 'web: /abs/web');
    const again = await formOpenedBy(
      slack,
      await click(slack, asked.ts, actionId(ACTION_KINDS.followUp, 0)),
      ALICE,
    );
    assert.equal(again?.callback_id, CALLBACK_IDS.followUp, 'the form opened again');
    await saveFollowUp(slack, 'web: /abs/web, api: /abs/api');
    await waitForText(slack, asked.ts, 'api: /abs/api');
    await click(slack, asked.ts, ACTION_KINDS.cancel);
    assert.equal(await exitCodeOf(ask), 5, ask.stderr());

    // Snooze, shown once a reminder was sent: the relay again, reminding a second after a post.
    await fx.relay.kill();
    // every Submit held 3 s for Undo (RELAY_UNDO_ALL), for the Undo button below
    fx.relay = spawnRelayFor(slack, root, {
      logLevel: 'info',
      env: { RELAY_REMIND_AFTER: '1s', RELAY_UNDO_ALL: '1', RELAY_UNDO_SECONDS: '3' },
    });
    await fx.relay.waitForLog('relay ready');
    await allConnected(slack);
    await writeQuestionFile(run, 3, {
      seq: 3,
      questions: [
        { id: 'ship', type: 'yes-no', prompt: 'Ship it?' },
        { id: 'tag', type: 'yes-no', prompt: 'Tag it?' },
      ],
    });
    const reminded = await waitForBatchMessage(slack, 'run-acks', 3);
    await waitFor(
      () =>
        thread(slack, reminded.ts).some((m) =>
          JSON.stringify(m.blocks).includes(ACTION_KINDS.snooze),
        ),
      'the Snooze button, after the first reminder',
    );
    const told = slack.ephemerals(ALICE).length;
    await click(slack, reminded.ts, ACTION_KINDS.snooze);
    await waitFor(() => slack.ephemerals(ALICE)[told], 'the snooze told');

    // A Claude Code permission prompt through `hook`: Deny… opens its form for a reason.
    const hook = askPermissionThroughHook(path.join(root, 'state'), root, 'acks');
    await denyWithReason(slack, (await hookPrompt(slack)).ts, 'not while busy');
    assert.equal((await hook.exited).code, 0, hook.stderr());
    assert.match(hook.stdout(), /"behavior":"deny"/);

    // Undo, on a one-tap answer held for its window: a batch of another run.
    const undoRun = path.join(root, 'runs', 'run-undo');
    await writeQuestionFile(undoRun, 1, {
      seq: 1,
      questions: [{ id: 'go', type: 'yes-no', prompt: 'Go on?' }],
    });
    const held = await waitForBatchMessage(slack, 'run-undo', 1);
    await click(slack, held.ts, actionId(ACTION_KINDS.oneTap, 0, 'yes'));
    await waitFor(
      () => JSON.stringify(current(slack, held.ts).blocks).includes(ACTION_KINDS.undo),
      'the Undo button on the held answer',
    );
    await click(slack, held.ts, ACTION_KINDS.undo);

    // The Home tab (an event).
    await openHome(slack, ALICE);

    const delivered = slack.deliveredPayloads;
    const figures = delivered.map((p) => ({
      interaction: `${p.payloadType} ${p.subject}`,
      ackMs: p.timing ? Math.round(p.timing.ms) : undefined,
      before: ledToBeforeAck(slack, p),
    }));
    t.diagnostic(
      `ack times beside two CPU-bound processes (ms): ${figures.map((f) => `${f.interaction} ${f.ackMs}`).join('; ')}`,
    );
    const kinds = new Set(delivered.map((p) => `${p.payloadType} ${p.subject.split(':')[0]}`));
    for (const kind of [
      // every control the relay renders: a new one is measured here too
      ...Object.values(ACTION_KINDS).map((id) => `block_actions ${id}`),
      `block_suggestion ${ACTION_KINDS.choose}`,
      `block_suggestion ${ACTION_KINDS.chooseMany}`,
      `view_submission ${CALLBACK_IDS.freeWrite}`,
      `view_submission ${CALLBACK_IDS.followUp}`,
      `view_submission ${CALLBACK_IDS.handOff}`,
      `view_submission ${CALLBACK_IDS.note}`,
      'event_callback app_home_opened',
    ]) {
      assert.ok(kinds.has(kind), `measured: ${kind}`);
    }
    assert.deepEqual(slack.failures, [], 'Slack saw every ack in time');
    for (const f of figures) {
      assert.ok(
        f.ackMs !== undefined && f.ackMs < ACK_DEADLINE_MS,
        `${f.interaction}: ${f.ackMs} ms`,
      );
      // The hand-off form asks Slack who the teammate is first: its refusal shows in the form.
      const expected =
        f.interaction === `view_submission ${CALLBACK_IDS.handOff}` ? ['users.info'] : [];
      assert.deepEqual(f.before, expected, `${f.interaction}: the calls made before its ack`);
    }
  });
});
