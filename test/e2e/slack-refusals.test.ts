import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { runDoctor } from '../../src/cli/doctor-command.js';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import { readStoredRecords } from '../../src/store/read-stored-records.js';
import type { JsonObject } from '../support/fake-slack/index.js';
import { captureLog, type LogRecord } from '../support/log-capture.js';
import {
  ALICE,
  BOB,
  CHANNEL,
  channelMessages,
  type Harness,
  type RelayHarnessOptions,
  startRelayHarness,
  visibleText,
} from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  answerFile,
  assertSlackHealthy,
  choose,
  E2E_MODE,
  handOffBatch,
  postBatch,
  pressSubmit,
  thread,
} from './relay-steps.js';

/** A choose-one question whose options are long, so a dozen of them fill a message. */
const longChoice = (i: number) => ({
  id: `q${i}`,
  type: 'choose-one',
  prompt: `Question ${i}: which of these long options should the agent take for step ${i}?`,
  options: Array.from({ length: 6 }, (_, o) => `Option ${o} for step ${i}: ${'words '.repeat(10)}`),
});

/** chat.postMessage calls whose blocks mention `text`, i.e. attempts to post that batch. */
const postsOf = (h: Harness, text: string) =>
  h.slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' &&
      Array.isArray(c.args.blocks) &&
      JSON.stringify(c.args.blocks).includes(text),
  );

const refusedBy = (records: LogRecord[], runDir: string) =>
  records.filter(
    (r) =>
      r.runDir === runDir &&
      r.level === 50 &&
      typeof r.msg === 'string' &&
      r.msg.startsWith('Slack refused'),
  );

const mode = E2E_MODE;
describe(`what Slack refuses (${mode} mode)`, () => {
  let h: Harness;
  let records: LogRecord[];
  const start = async (options: RelayHarnessOptions = {}) => {
    const captured = captureLog('info');
    records = captured.records;
    h = await startRelayHarness(mode, { log: captured.log, ...options });
  };
  afterEach(async () => {
    await h.stop();
  });

  test('a dense batch under a low size ceiling is split smaller, shown and answered', async () => {
    await start();
    // far below the reported ~13,300: the relay's first layout is refused
    h.slack.setSizeCeilings({ messageText: 6000 });
    const questions = Array.from({ length: 12 }, (_, i) => longChoice(i + 1));
    questions[0] = {
      ...(questions[0] as (typeof questions)[number]),
      preview: { type: 'markdown', content: `# Plan\n${'A step of the plan. '.repeat(300)}` },
    } as never;
    const posted = await postBatch(h, 'run-dense', { seq: 1, questions });
    const refused = h.slack.calls.filter((c) => c.response.error === 'msg_blocks_too_long');
    assert.ok(refused.length >= 1, 'Slack refused the first layout');
    const messages = await waitFor(() => {
      const all = thread(h.slack, posted.ts);
      return all.some((m) => JSON.stringify(m.blocks).includes(ACTION_KINDS.submit))
        ? all
        : undefined;
    }, 'every part of the batch, Submit included');
    assert.ok(messages.length >= 2);
    for (const [i] of questions.entries()) await choose(h.slack, posted.ts, i, [String(i % 6)]);
    await pressSubmit(h.slack, posted.ts);
    const written = (await answerFile(h.runDir('run-dense'))) as { answers: JsonObject[] };
    assert.deepEqual(
      written.answers.map((a) => a.answer),
      questions.map((q, i) => q.options[i % 6]),
    );
    const failed = h.slack.calls.filter(
      (c) => c.response.ok === false && c.response.error !== 'msg_blocks_too_long',
    );
    assert.deepEqual(failed, []);
  });

  test('a batch Slack refuses for good: tried at three sizes, people told once, other runs carry on, shown once the file changes', async () => {
    await start();
    const lift = h.slack.refuse(
      'chat.postMessage',
      'invalid_blocks',
      (args) => Array.isArray(args.blocks) && JSON.stringify(args.blocks).includes('run-bad'),
    );
    const bad = h.runDir('run-bad');
    await writeQuestionFile(bad, 1, { seq: 1, questions: [longChoice(1), longChoice(2)] });
    const notice = await waitFor(
      () => channelMessages(h.slack).find((m) => m.text.includes('could not be shown here')),
      'the notice in the channel',
    );
    assert.equal(
      notice.text,
      `⚠️ Run run-bad, batch 1, could not be shown here: Slack refused it (invalid_blocks). Slack would not show this batch even split into one question per message: answer it in the terminal, or shorten the question file. The agent is still waiting for its answers: answer it in o7's terminal, or change ${path.join(bad, 'qa', 'q-out-001.json')} and the relay tries again.`,
    );
    assert.deepEqual(notice.blocks, [], 'plain text: nothing left for Slack to refuse');
    assert.equal(postsOf(h, 'run-bad').length, 3, 'the full page, half pages, one question each');

    // another run is shown and answered meanwhile; hints about the bad run retry nothing
    const good = await postBatch(h, 'run-good', {
      seq: 1,
      questions: [longChoice(1), longChoice(2)],
    });
    await writeFile(path.join(bad, 'qa', 'notes.txt'), 'a hint for the watcher');
    await choose(h.slack, good.ts, 0, ['1']);
    await choose(h.slack, good.ts, 1, ['2']);
    await pressSubmit(h.slack, good.ts);
    await answerFile(h.runDir('run-good'));
    assert.equal(postsOf(h, 'run-bad').length, 3, 'no retry while nothing changed');
    assert.equal(refusedBy(records, bad).length, 1, 'one error line, not one per attempt');
    assert.equal(
      channelMessages(h.slack).filter((m) => m.text.includes('could not be shown here')).length,
      1,
    );

    // the agent shortens the file: it is shown and can be answered
    lift();
    const shown = await postBatch(h, 'run-bad', {
      seq: 1,
      questions: [longChoice(1), longChoice(3)],
    });
    await choose(h.slack, shown.ts, 0, ['4']);
    await choose(h.slack, shown.ts, 1, ['5']);
    await pressSubmit(h.slack, shown.ts);
    await answerFile(bad);
    assertSlackHealthyButRefusals(h);
  });

  test('an archived channel: nothing posted or retried in a loop, the Home tab and doctor say why, doctor has it shown once fixed', async () => {
    await start();
    h.slack.setChannelArchived(CHANNEL, true);
    const run = h.runDir('run-archived');
    await writeQuestionFile(run, 1, { seq: 1, questions: [longChoice(1), longChoice(2)] });
    await waitFor(() => refusedBy(records, run).length === 1, 'the refusal logged');
    const [line] = refusedBy(records, run);
    assert.equal(line?.code, 'is_archived');
    assert.equal(line?.level, 50, 'an error');
    const attempts = () =>
      h.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL)
        .length;
    const tried = attempts();

    await h.slack.sendEvent({ type: 'app_home_opened', user: ALICE, tab: 'home' });
    const home = await waitFor(() => {
      const view = h.slack.homeView(ALICE);
      return view && JSON.stringify(view).includes('not shown in Slack (is_archived)')
        ? view
        : undefined;
    }, 'the Home tab naming the refusal');
    assert.match(JSON.stringify(home), /unarchive it/);

    // doctor names the archived channel, lists the batch, and asks for no retry yet
    const doctor = async () => {
      const lines: string[] = [];
      let asked = 0;
      const code = await runDoctor(
        h.config,
        { out: (l) => lines.push(l) },
        {
          readRecords: readStoredRecords,
          retryRefused: async () => {
            asked += 1;
            h.retryRefused();
            return 4242;
          },
        },
      );
      return { code, out: lines.join('\n'), asked };
    };
    await waitFor(
      async () => (await readStoredRecords(h.config.stateDir)).some((r) => r.undeliverable),
      'the refusal stored',
    );
    const before = await doctor();
    assert.equal(before.code, 1, before.out);
    assert.match(before.out, /FAIL {2}#o7-relay \(C0RELAY01\) is archived/);
    assert.match(
      before.out,
      /note {2}run run-archived, batch 1: Slack refused to show it \(is_archived\)/,
    );
    assert.equal(before.asked, 0);
    assert.equal(attempts(), tried, 'no retries in the meantime');

    h.slack.setChannelArchived(CHANNEL, false);
    const after = await doctor();
    assert.equal(after.code, 0, after.out);
    assert.match(after.out, /ok {4}told the running relay \(pid 4242\) to show them again now/);
    assert.equal(after.asked, 1);
    const posted = await waitFor(
      () => channelMessages(h.slack).find((m) => m.text.includes('run-archived')),
      'the batch posted once the channel is back',
    );
    await choose(h.slack, posted.ts, 0, ['0']);
    await choose(h.slack, posted.ts, 1, ['1']);
    await pressSubmit(h.slack, posted.ts);
    await answerFile(run);
    assert.equal(
      channelMessages(h.slack).length,
      1,
      'posted once, no notice (it could not be posted)',
    );
  });

  test('a deleted continuation is posted again when the batch changes', async () => {
    await start();
    h.slack.setSizeCeilings({ messageText: 20_000 });
    const questions = Array.from({ length: 14 }, (_, i) => longChoice(i + 1));
    const posted = await postBatch(h, 'run-split', { seq: 1, questions });
    const [, reply] = await waitFor(
      () => (thread(h.slack, posted.ts).length >= 2 ? thread(h.slack, posted.ts) : undefined),
      'a continuation',
    );
    assert.ok(reply);
    const deleted = await fetch(`${h.slack.apiUrl}chat.delete`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.slack.botToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ channel: CHANNEL, ts: reply.ts }),
    });
    assert.equal(((await deleted.json()) as JsonObject).ok, true);
    // the agent rewrites the batch: every part changes, the missing one is posted anew
    const changed = questions.map((q) => ({ ...q, prompt: `${q.prompt} (revised)` }));
    await writeQuestionFile(h.runDir('run-split'), 1, { seq: 1, questions: changed });
    const parts = await waitFor(() => {
      const all = thread(h.slack, posted.ts);
      return all.length >= 2 && all.every((m) => visibleText(m).includes('(revised)'))
        ? all
        : undefined;
    }, 'every part revised, the deleted one posted again');
    assert.ok(!parts.some((m) => m.ts === reply.ts));
    for (const [i] of changed.entries()) await choose(h.slack, posted.ts, i, ['0']);
    await pressSubmit(h.slack, posted.ts);
    await answerFile(h.runDir('run-split'));
  });

  test('a hand-off copy that cannot reach the person ends the hand-off; the batch stays answerable in the channel', async () => {
    await start();
    const posted = await postBatch(h, 'run-dm', {
      seq: 1,
      questions: [longChoice(1), longChoice(2)],
    });
    // Bob can receive the hand-off, but his direct messages refuse the copy
    h.slack.refuse('conversations.open', 'user_disabled', (args) => args.users === BOB);
    await handOffBatch(h.slack, { channel: CHANNEL, ts: posted.ts, from: ALICE, to: BOB });
    const told = await waitFor(
      () =>
        channelMessages(h.slack)[0]?.replies.find((r) => r.text.includes('could not reach them')),
      'the thread told',
    );
    assert.match(
      told.text,
      new RegExp(`The hand-off to <@${BOB}> could not reach them \\(Slack said user_disabled\\)`),
    );
    const shown = await waitFor(() => {
      const m = h.slack.message(CHANNEL, posted.ts);
      return m && visibleText(m).includes('could not reach them') ? m : undefined;
    }, 'the channel message says so');
    assert.ok(!visibleText(shown).includes(`Assigned to <@${BOB}>`));
    const opens = h.slack.calls.filter((c) => c.method === 'conversations.open').length;
    await choose(h.slack, posted.ts, 0, ['2']);
    await choose(h.slack, posted.ts, 1, ['3']);
    await pressSubmit(h.slack, posted.ts);
    const written = (await answerFile(h.runDir('run-dm'))) as { answers: JsonObject[] };
    assert.deepEqual(
      written.answers.map((a) => a.answer),
      [longChoice(1).options[2], longChoice(2).options[3]],
    );
    assert.equal(
      h.slack.calls.filter((c) => c.method === 'conversations.open').length,
      opens,
      'no more tries',
    );
    assert.equal(
      h.slack.messages(CHANNEL)[0]?.replies.filter((r) => r.text.includes('could not reach them'))
        .length,
      1,
    );
  });

  test('a preview too big for any modal: the modal opens within 250 kB and links the whole preview, attached to the thread', async () => {
    await start();
    // within the 100,000 characters a preview may have, but over 250 kB once escaped
    const content = `# Plan\n${'a&<b> '.repeat(16_000)}`;
    const questions = [
      { id: 'go', type: 'yes-no', prompt: 'Go ahead?', preview: { type: 'markdown', content } },
      { id: 'why', type: 'free-write', prompt: 'Why?' },
    ];
    const posted = await postBatch(h, 'run-big', { seq: 1, questions });
    const button = await waitFor(() => {
      for (const m of thread(h.slack, posted.ts)) {
        const found = JSON.stringify(m.blocks).includes(ACTION_KINDS.showPreview) ? m : undefined;
        if (found) return found;
      }
      return undefined;
    }, 'the Show full preview button');
    const blockOf = (button.blocks as JsonObject[]).find((b) =>
      JSON.stringify(b).includes(ACTION_KINDS.showPreview),
    ) as JsonObject;
    const showPreview = () =>
      h.slack.clickButton({
        channel: CHANNEL,
        ts: button.ts,
        user: ALICE,
        blockId: String(blockOf.block_id),
        actionId: actionId(ACTION_KINDS.showPreview, 0),
      });
    await showPreview();
    const linked = await waitFor(() => {
      const view = h.slack.views(ALICE)[0];
      return view && JSON.stringify(view).includes('open the thread') ? view : undefined;
    }, 'the modal linking the attached preview');
    assert.ok(Buffer.byteLength(JSON.stringify(linked)) <= 250_000);
    const attached = await waitFor(
      () => channelMessages(h.slack)[0]?.replies.find((r) => r.files?.length),
      'the preview attached in the thread',
    );
    assert.equal(attached.files?.[0]?.content, content);
    assert.deepEqual(
      h.slack.calls.filter((c) => c.response.error === 'view_too_large'),
      [],
    );
    // a second look reuses the attachment
    await h.slack.closeView({ viewId: String(linked.id), user: ALICE });
    await showPreview();
    await waitFor(() => h.slack.views(ALICE).length === 1, 'the modal again');
    assert.match(JSON.stringify(h.slack.views(ALICE)[0]), /open the thread/);
    assert.equal(
      h.slack.calls.filter((c) => c.method === 'files.completeUploadExternal').length,
      1,
    );
    assertSlackHealthy(h);
  });
});

/** Slack refused nothing but the refusals the test itself set up, and missed no ack. */
function assertSlackHealthyButRefusals(h: Harness): void {
  assert.deepEqual(h.slack.failures, []);
  const unexpected = h.slack.calls.filter(
    (c) => c.response.ok === false && c.response.error !== 'invalid_blocks',
  );
  assert.deepEqual(
    unexpected.map((c) => [c.method, c.response.error]),
    [],
  );
}
