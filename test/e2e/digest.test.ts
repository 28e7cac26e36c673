import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readAuditLog } from '../../src/audit/audit-log.js';
import { APPROVE_ALL_BLOCK, DIGEST_CONTROLS } from '../../src/core/slack/controls/ids.js';
import { NOT_THIS_BATCH } from '../../src/slack/access/action-binding.js';
import type { JsonObject } from '../support/fake-slack/index.js';
import { ALICE, BOB, CHANNEL, elementsOf } from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  answerFile,
  at,
  click,
  elementById,
  formOpenedBy,
  mrkdwnTexts,
  qaNames,
  relayPerTest,
  waitForAnswered,
  waitForBatchMessage,
} from './relay-steps.js';
import {
  confirmApproveAll,
  digestOf,
  lineButtons,
  openApproveAll,
  waitForDigestSaying,
} from './steps/digest.js';
import { spawnHook } from './steps/hook-prompts.js';

const yesNo = (n: number) => ({
  seq: 1,
  questions: [{ id: 'go', type: 'yes-no', prompt: `Deploy service ${n}?` }],
});
/** The answer of a run's batch 1. */
const answerOf = async (runDir: string) =>
  ((await answerFile(runDir)).answers as { answer: unknown }[])[0]?.answer;
const EVE = 'U0EVE0001';
const runName = (n: number) => `run-${String(n).padStart(3, '0')}`;

/** Writes `count` runs, each with one yes-no batch, and waits for all their messages. */
async function postYesNoRuns(h: ReturnType<typeof relayPerTest>, count: number) {
  for (let n = 1; n <= count; n += 1) await writeQuestionFile(h.runDir(runName(n)), 1, yesNo(n));
  for (let n = 1; n <= count; n += 1) await waitForBatchMessage(h.slack, runName(n), 1);
}

/** Waits until the digest lists `count` batches; gives it. */
const waitForDigest = (h: ReturnType<typeof relayPerTest>, count: number) =>
  waitForDigestSaying(h.slack, `${count} agents are waiting for a quick answer`);

describe('the digest of quick batches', () => {
  const h = relayPerTest({
    healthy: true,
    config: { digestAt: 4, allowedUsers: { users: [ALICE, BOB], groups: [] } },
    start: { digest: { everyMs: 50 } },
    // Eve sees the channel but is not on the allow list
    prepare(slack) {
      slack.addUser({ id: EVE, name: 'eve' });
      slack.addChannel({ id: CHANNEL, name: 'o7-relay', members: [ALICE, BOB, EVE] });
      return {};
    },
  });

  test('30 runs with a quick batch each: one digest, the oldest 20 lines, and a tap on a line answers its batch', async () => {
    await postYesNoRuns(h, 30);
    const digest = await waitForDigest(h, 30);
    const digests = h.slack.messages(CHANNEL).filter((m) => digestOf([m]));
    assert.equal(digests.length, 1, 'one digest message');
    const buttons = lineButtons(digest);
    assert.equal(buttons.length, 40, '20 lines of Yes / No');
    const texts = mrkdwnTexts(digest.blocks);
    assert.ok(texts.some((t) => t.includes('*run-001*') && t.includes('Deploy service 1?')));
    assert.ok(!texts.some((t) => t.includes('*run-021*')), 'the 21st is not shown');
    assert.ok(texts.some((t) => t.includes('Showing the oldest 20 of 30')));
    const approve = elementsOf(digest.blocks).find(
      (e) => e.actionId === DIGEST_CONTROLS.approveAll,
    );
    assert.ok(approve, 'Approve all is on the digest');
    assert.equal((approve.element.text as { text: string }).text, 'Approve all 30…');

    await click(h.slack, digest.ts, `${DIGEST_CONTROLS.answer}:0:0`);
    assert.deepEqual((await answerFile(h.runDir(runName(1)))).answers, [
      { id: 'go', type: 'yes-no', prompt: 'Deploy service 1?', answer: true },
    ]);
    const own = await waitForBatchMessage(h.slack, runName(1), 1);
    const final = await waitForAnswered(h.slack, own.ts);
    assert.ok(
      mrkdwnTexts(final.blocks).some((t) => t.includes(`Answered by <@${ALICE}> via the digest`)),
      'its own message says it was answered through the digest',
    );
    const audited = await waitFor(async () => {
      const { entries } = await readAuditLog(h.config.auditLog);
      return entries.length === 1 ? entries[0] : undefined;
    }, 'the decision in the audit log');
    assert.deepEqual(
      { ...audited, at: undefined, relay: undefined },
      {
        at: undefined,
        relay: undefined,
        decision: 'answered',
        run: h.runDir(runName(1)),
        seq: 1,
        key: audited.key,
        answers: { go: true },
        by: ALICE,
        name: 'alice',
        how: 'digest',
      },
    );
    const after = await waitForDigest(h, 29);
    assert.equal(after.ts, digest.ts, 'edited in place');
    assert.ok(!mrkdwnTexts(after.blocks).some((t) => t.includes('*run-001*')));
  });

  test('Approve all with two unticked answers 28; one answered on its own message meanwhile is skipped and named', async () => {
    await postYesNoRuns(h, 30);
    const digest = await waitForDigest(h, 30);
    const opened = await openApproveAll(h.slack, digest.ts, BOB);
    const options = opened.picks.flatMap((p) => p.options);
    assert.equal(options.length, 30, 'every batch listed');
    assert.ok(options.every((o) => o.text.text.endsWith('→ Yes')));
    // Alice answers run-005 on its own message while Bob looks at the form
    const fifth = await waitForBatchMessage(h.slack, runName(5), 1);
    await click(h.slack, fifth.ts, 'o7.one-tap:0:no', ALICE);
    await waitForAnswered(h.slack, fifth.ts);
    // Bob unticks run-002 and run-003
    const left = new Set([runName(2), runName(3)]);
    const told = await confirmApproveAll(h.slack, opened, BOB, left);
    assert.match(told.text, /answered 27 of the 28 batches ticked/);
    assert.match(told.text, new RegExp(`run-005\\*: answered by <@${ALICE}> first`));
    for (let n = 1; n <= 30; n += 1) {
      const names = await qaNames(h.runDir(runName(n)));
      const written = names.includes('q-answers-001.json');
      assert.equal(written, !left.has(runName(n)), `${runName(n)} answered: ${written}`);
      if (n === 5 || left.has(runName(n))) continue;
      assert.equal(await answerOf(h.runDir(runName(n))), true);
    }
    assert.equal(await answerOf(h.runDir(runName(5))), false, "Alice's No stands");
    // every decision on its own line of the audit log, once: 27 with Approve all, Alice's No
    const { entries } = await waitFor(async () => {
      const read = await readAuditLog(h.config.auditLog);
      return read.entries.length >= 28 ? read : undefined;
    }, '28 decisions in the audit log');
    assert.equal(entries.length, 28);
    const how = entries.map((e) => `${e.by === BOB ? 'bob' : 'alice'} ${e.how}`);
    assert.equal(how.filter((line) => line === 'bob approve-all').length, 27);
    assert.deepEqual(
      how.filter((line) => line.startsWith('alice')),
      ['alice message'],
    );
    assert.equal(new Set(entries.map((e) => e.key)).size, 28, 'no decision twice');
    const rest = await waitFor(() => {
      const found = digestOf(h.slack.messages(CHANNEL));
      return found === undefined ? true : undefined;
    }, 'the digest removed once two remain');
    assert.ok(rest);
  });

  // 150 are checked against the same validator in test/core/digest; 60 here keep the relay
  // of this process answering clicks within Slack's 3 s on a loaded 2-core machine
  test('a digest of 60 batches and its Approve all form fit every Slack limit', async () => {
    await postYesNoRuns(h, 60);
    const digest = await waitForDigest(h, 60);
    assert.equal(lineButtons(digest).length, 40);
    const clicked = await click(h.slack, digest.ts, DIGEST_CONTROLS.approveAll);
    const form = await formOpenedBy(h.slack, clicked, ALICE);
    assert.ok(form, 'the form opened: the stand-in found nothing over a limit');
    const listed = (
      form.blocks as unknown as { block_id?: string; element?: { options: unknown[] } }[]
    )
      .filter((b) => b.block_id?.startsWith(APPROVE_ALL_BLOCK))
      .flatMap((b) => b.element?.options ?? []);
    assert.equal(listed.length, 60);
    await h.slack.closeView({ viewId: String(form.id), user: ALICE });

    // Show all: the lines page by page in a form; a line answered there answers its batch
    const shown = await click(h.slack, digest.ts, DIGEST_CONTROLS.showAll);
    const pages = await formOpenedBy(h.slack, shown, ALICE);
    assert.ok(pages, 'the pages form opened');
    const viewId = String(pages.id);
    const formText = () =>
      JSON.stringify(h.slack.views(ALICE).find((v) => v.id === viewId)?.blocks);
    assert.ok(formText().includes('Lines 21–40 of 60, oldest first · page 2 of 3'));
    await h.slack.clickButton({ viewId, actionId: `${DIGEST_CONTROLS.page}:next`, user: ALICE });
    await waitFor(
      () => formText().includes('Lines 41–60 of 60'),
      'the third page, in the same form',
    );
    const first = (h.slack.views(ALICE).find((v) => v.id === viewId)?.blocks ?? []) as {
      type: string;
      text?: { text?: string };
    }[];
    const name = /^\*([^*]+)\*/.exec(
      first.find((b) => b.type === 'section')?.text?.text ?? '',
    )?.[1];
    assert.ok(name, 'the first line of the page names its run');
    await h.slack.clickButton({ viewId, actionId: `${DIGEST_CONTROLS.answer}:40:0`, user: ALICE });
    assert.equal(await answerOf(h.runDir(name)), true, `${name} answered from the form`);
    await waitFor(() => formText().includes('Lines 41–59 of 59'), 'the form shows it gone');
    await waitForDigest(h, 59);
    // healthy: after the test, the stand-in must have refused no call
  });

  test('fewer than RELAY_DIGEST_AT quick batches, or questions that are not quick, make no digest', async () => {
    await postYesNoRuns(h, 3);
    const many = {
      seq: 1,
      questions: [
        { id: 'size', type: 'choose-one', prompt: 'Size?', options: ['s', 'm', 'l', 'xl'] },
      ],
    };
    await writeQuestionFile(h.runDir('run-many'), 1, many);
    await waitForBatchMessage(h.slack, 'run-many', 1);
    await writeQuestionFile(h.runDir('run-four'), 1, yesNo(4));
    const digest = await waitForDigest(h, 4);
    const posts = h.slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && String(c.args.text).includes('quick answer'),
    );
    assert.equal(posts.length, 1, 'no digest before the fourth quick batch');
    assert.ok(!mrkdwnTexts(digest.blocks).some((t) => t.includes('run-many')));
  });

  test('the digest moves to the bottom once 10 batch messages are below it and one joins; a restart keeps it', async () => {
    await postYesNoRuns(h, 4);
    const first = await waitForDigest(h, 4);
    // a restart: the same digest message is edited, not another posted
    await h.restart();
    await writeQuestionFile(h.runDir(runName(5)), 1, yesNo(5));
    const edited = await waitForDigest(h, 5);
    assert.equal(edited.ts, first.ts, 'the digest the relay kept before its restart');
    const freeWrite = { seq: 1, questions: [{ id: 'why', type: 'free-write', prompt: 'Why?' }] };
    for (let n = 1; n <= 10; n += 1) await writeQuestionFile(h.runDir(`long-${n}`), 1, freeWrite);
    for (let n = 1; n <= 10; n += 1) await waitForBatchMessage(h.slack, `long-${n}`, 1);
    await writeQuestionFile(h.runDir(runName(6)), 1, yesNo(6));
    const moved = await waitForDigest(h, 6);
    assert.notEqual(moved.ts, first.ts, 'posted again at the bottom');
    await waitFor(() => h.slack.message(CHANNEL, first.ts) === undefined, 'the old digest deleted');
    assert.equal(h.slack.messages(CHANNEL).filter((m) => digestOf([m])).length, 1);
  });

  test("four Claude Code permission prompts make one digest; Approve all allows each, never with an 'Always allow' rule", async () => {
    const hooks = [1, 2, 3, 4].map((n) =>
      spawnHook(h.config.stateDir, h.root, `session-${n}`, {
        hook_event_name: 'PermissionRequest',
        tool_name: 'Bash',
        tool_input: { command: `npm test -- --shard ${n}` },
        permission_suggestions: [
          {
            type: 'addRules',
            rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }],
            behavior: 'allow',
            destination: 'localSettings',
          },
        ],
      }),
    );
    const digest = await waitForDigest(h, 4);
    assert.deepEqual(
      [...new Set(lineButtons(digest).map((b) => (b.element.text as { text: string }).text))],
      ['Allow', 'Deny'],
    );
    assert.ok(mrkdwnTexts(digest.blocks).some((t) => t.includes('npm test -- --shard 1')));
    const clicked = await click(h.slack, digest.ts, DIGEST_CONTROLS.approveAll);
    const form = await formOpenedBy(h.slack, clicked, ALICE);
    assert.ok(form);
    const sent = await h.slack.submitView({ viewId: String(form.id), user: ALICE });
    assert.equal(sent.acked, true);
    for (const hook of hooks) {
      const { code } = await hook.exited;
      assert.equal(code, 0, hook.stderr());
      assert.deepEqual(JSON.parse(hook.stdout()).hookSpecificOutput.decision, {
        behavior: 'allow',
      });
    }
  });

  test('an outsider cannot approve all, and a digest button sent from another message changes nothing', async () => {
    await postYesNoRuns(h, 4);
    const digest = await waitForDigest(h, 4);
    const outsider = EVE;
    await click(h.slack, digest.ts, DIGEST_CONTROLS.approveAll, outsider);
    await waitFor(() => h.slack.ephemerals(outsider)[0], 'the outsider told no');
    assert.equal(h.slack.views(outsider).length, 0, 'no form opened');
    // a line's button sent from the batch's own message (a forgery) is refused
    const own = await waitForBatchMessage(h.slack, runName(1), 1);
    const line = lineButtons(digest)[0];
    assert.ok(line);
    const forged = await h.slack.clickButton({
      ...at(own.ts, elementById(own.blocks, 'o7.one-tap:0:yes')),
      forge: (p: JsonObject): JsonObject => ({
        ...p,
        actions: (p.actions as JsonObject[]).map((a) => ({
          ...a,
          block_id: line.blockId,
          action_id: line.actionId,
          value: '0',
        })),
      }),
    });
    assert.equal(forged.acked, true);
    await waitFor(
      () => h.slack.ephemerals(ALICE).find((e) => e.text === NOT_THIS_BATCH),
      'Alice told the button is not of that message',
    );
    assert.ok(!(await qaNames(h.runDir(runName(1)))).includes('q-answers-001.json'));
  });
});
