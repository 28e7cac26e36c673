import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { SLACK_LIMITS } from '../support/fake-slack/slack-limits.js';
import { ALICE, channelMessages, elementsOf } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import {
  answerFile,
  choose,
  E2E_MODE,
  headerOf,
  healthyRelayPerTest,
  plainTexts,
  postBatch,
  pressSubmit,
  pressYesNo,
  qaFiles,
  thread,
  waitForAnswered,
  writeFreeText,
} from './relay-steps.js';

const RUN = 'run-big';
const COUNT = 60;

interface Question {
  id: string;
  type: 'choose-one' | 'choose-many' | 'yes-no' | 'free-write';
  prompt: string;
  options?: string[];
  preview?: { type: 'markdown' | 'ascii'; content: string };
}

/** Question `i` of the batch: the four types in turn, option counts from 3 to 12, some previews. */
function questionAt(i: number): Question {
  const id = `q${String(i + 1).padStart(2, '0')}`;
  const prompt = `Question ${i + 1}: what should step ${i + 1} of the migration do?`;
  const count = 3 + (i % 10);
  const options = Array.from({ length: count }, (_, k) => `step ${i + 1} choice ${k + 1}`);
  const preview =
    i % 10 === 0
      ? {
          preview: {
            type: 'ascii' as const,
            content: `+--- step ${i + 1} ---+\n|  ok  |\n+------+`,
          },
        }
      : i % 10 === 5
        ? { preview: { type: 'markdown' as const, content: `**Step ${i + 1}** _changes_ \`x\`` } }
        : {};
  switch (i % 4) {
    case 0:
      return { id, type: 'choose-one', prompt, options, ...preview };
    case 1:
      return { id, type: 'choose-many', prompt, options, ...preview };
    case 2:
      return { id, type: 'yes-no', prompt, ...preview };
    default:
      return { id, type: 'free-write', prompt, ...preview };
  }
}

/** The answer the test gives question `i`, as option indices or a value. */
function pickFor(i: number, q: Question): string[] | boolean | string {
  const last = (q.options?.length ?? 1) - 1;
  if (q.type === 'choose-one') return [String(i % (last + 1))];
  if (q.type === 'choose-many') return [String(last), '0'];
  if (q.type === 'yes-no') return i % 8 === 2;
  return `Answer to ${i + 1} & <nothing> else`;
}

/** What the answer file must say for question `i`. */
function expectedEntry(i: number, q: Question) {
  const pick = pickFor(i, q);
  const { id, type, prompt } = q;
  if (Array.isArray(pick)) {
    const options = q.options ?? [];
    const chosen = [...pick].sort((a, b) => Number(a) - Number(b)).map((v) => options[Number(v)]);
    return { id, type, prompt, options, answer: type === 'choose-one' ? chosen[0] : chosen };
  }
  return { id, type, prompt, answer: pick };
}

const mode = E2E_MODE;
describe(`a batch too large for one message (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test(`${COUNT} mixed questions continue in the thread, and one Submit writes one answer file`, async () => {
    const questions = Array.from({ length: COUNT }, (_, i) => questionAt(i));
    const batch = { seq: 1, questions };
    const posted = await postBatch(h, RUN, batch);
    const { ts } = posted;
    const messages = await waitFor(() => {
      const all = thread(h.slack, ts);
      const placed = new Set(all.flatMap((m) => questionIndicesIn(m.blocks)));
      return placed.size === COUNT ? all : undefined;
    }, 'every question posted');

    // One channel message; the rest are replies in its thread.
    assert.equal(channelMessages(h.slack).length, 1);
    assert.ok(messages.length >= 3, `60 questions need several messages, got ${messages.length}`);
    for (const reply of messages.slice(1)) assert.equal(reply.threadTs, ts);
    const posts = h.slack.calls.filter((c) => c.method === 'chat.postMessage');
    assert.equal(posts.length, messages.length);
    assert.deepEqual(
      posts.slice(1).map((c) => c.args.thread_ts),
      messages.slice(1).map(() => ts),
    );

    // Each message within Slack's limits, each question in exactly one message, in order.
    const seen: number[] = [];
    for (const [k, message] of messages.entries()) {
      assert.ok(message.blocks.length <= SLACK_LIMITS.message.blocks);
      seen.push(...questionIndicesIn(message.blocks));
      const submits = elementsOf(message.blocks).filter((e) => e.actionId === ACTION_KINDS.submit);
      assert.equal(
        submits.length,
        k === messages.length - 1 ? 1 : 0,
        `Submit only in the last message`,
      );
      if (k > 0) {
        assert.equal(headerOf(message.blocks), `Run ${RUN} · batch 1 (continued)`);
        assert.equal(
          message.text,
          `Run ${RUN}, batch 1 (continued, message ${k + 1} of ${messages.length})`,
        );
        assert.ok(
          plainTexts(message.blocks).some((t) =>
            new RegExp(
              `^Questions \\d+–\\d+ of ${COUNT} · message ${k + 1} of ${messages.length}$`,
            ).test(t),
          ),
        );
      }
    }
    assert.deepEqual(
      seen,
      [...new Set(seen)].sort((a, b) => a - b),
    );
    assert.equal(seen.length, COUNT);
    assert.ok(
      plainTexts(messages[0]?.blocks ?? []).some((t) =>
        /· 60 questions · questions 1–\d+ here, the rest in the thread$/.test(t),
      ),
    );

    // Submit before answering: the notice goes to the thread where Submit was pressed.
    await pressSubmit(h.slack, ts);
    const notice = await waitFor(() => h.slack.ephemerals(ALICE)[0], 'the missing-answers notice');
    assert.equal(notice.threadTs, ts);
    assert.match(
      notice.text,
      /^Questions 1 \("Question 1: what should step 1 of the migration do\?"\), 2 .* and 55 more still need answers\.$/,
    );

    for (const [i, q] of questions.entries()) {
      const pick = pickFor(i, q);
      if (Array.isArray(pick)) await choose(h.slack, ts, i, pick);
      else if (typeof pick === 'boolean') await pressYesNo(h.slack, ts, i, pick);
      else await writeFreeText(h.slack, ts, i, pick);
    }
    assert.deepEqual(
      await qaFiles(h.runDir(RUN)),
      ['q-out-001.json'],
      'nothing written before Submit',
    );

    await pressSubmit(h.slack, ts);
    assert.deepEqual(await answerFile(h.runDir(RUN)), {
      seq: 1,
      answers: questions.map((q, i) => expectedEntry(i, q)),
      questions,
    });
    assert.deepEqual(await qaFiles(h.runDir(RUN)), ['q-answers-001.json', 'q-out-001.json']);

    await waitForAnswered(h.slack, ts);
    await waitFor(
      () => thread(h.slack, ts).every((m) => elementsOf(m.blocks).length === 0),
      'every message of the thread without controls',
    );
  });
});

/** Indices of the questions whose prompt sections a message shows (`*n.* …`). */
function questionIndicesIn(blocks: readonly Record<string, unknown>[]): number[] {
  return blocks.flatMap((b) => {
    const text = b.type === 'section' ? (b.text as { text: string }).text : '';
    const match = /^\*(\d+)\.\* /.exec(text);
    return match ? [Number(match[1]) - 1] : [];
  });
}
