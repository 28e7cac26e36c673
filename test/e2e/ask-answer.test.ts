import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OTHER_OPTION } from '../../src/core/envelope/other-option.js';
import { ACTION_KINDS, actionId, CALLBACK_IDS } from '../../src/core/slack/controls/ids.js';
import {
  channelsQuestion,
  jsonBlock,
  numberedQuestion,
  rateLimitQuestion,
  reposQuestion,
} from '../core/envelope/envelope-samples.js';
import { ALICE, elementsOf, type Harness } from '../support/relay-harness.js';
import type { RelayProcess } from '../support/spawn-relay.js';
import { waitFor } from '../support/wait.js';
import { askDir, exitCodeOf, spawnAsk } from './ask-process.js';
import {
  answerFile,
  askMessage,
  choose,
  click,
  current,
  E2E_MODE,
  followUpModal,
  healthyRelayPerTest,
  qaFiles,
  saveFollowUp,
  waitForText,
} from './relay-steps.js';

/** An agent's final message ending with an envelope of these questions, then a summary block. */
const finalMessage = (questions: unknown[]) =>
  [
    'I read the code; two decisions are needed before the design.',
    jsonBlock({ openQuestions: questions }),
    jsonBlock({ summary: 'design pending' }),
  ].join('\n\n');

/** The element types and action ids of a message, to say what a person can do. */
const controls = (blocks: readonly Record<string, unknown>[]) =>
  elementsOf(blocks).map((e) => `${e.type} ${e.actionId}`);

/** Starts ask on an agent message asking `questions`, and waits for its message in Slack. */
async function startAsk(h: Harness, questions: unknown[], args: string[] = []) {
  const ask = spawnAsk(h.config.stateDir, h.root, finalMessage(questions), args);
  return { ask, posted: await askMessage(h.slack) };
}

/** Presses Submit on the message at `ts`; ask must end well, printing the resume `lines`. */
async function submitAndExpect(h: Harness, ask: RelayProcess, ts: string, lines: string[]) {
  await click(h.slack, ts, ACTION_KINDS.submit);
  assert.equal(await exitCodeOf(ask), 0, ask.stderr());
  assert.equal(ask.stdout(), [...lines, ''].join('\n'));
}

const mode = E2E_MODE;
describe(`ask: one question answered (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('shows header, every description and Other…, and prints the resume message', async () => {
    const { ask, posted } = await startAsk(h, [rateLimitQuestion]);
    const seen = JSON.stringify(posted.blocks);
    assert.match(seen, /\*Rate limit\*/, 'the header as a label');
    for (const option of rateLimitQuestion.options) {
      assert.ok(seen.includes(option.description), option.description);
    }
    assert.ok(seen.includes('None of these: type your own answer.'));
    const radio = elementsOf(posted.blocks).find(
      (e) => e.actionId === actionId(ACTION_KINDS.choose, 0),
    );
    assert.ok(radio);
    const labels = (radio.element.options as { text: { text: string } }[]).map((o) => o.text.text);
    assert.deepEqual(labels, [
      'Token bucket per IP (Recommended)',
      'Sliding window per IP',
      'No limit on unauthenticated path',
      OTHER_OPTION,
    ]);
    assert.deepEqual(controls(posted.blocks), [
      `radio_buttons ${actionId(ACTION_KINDS.choose, 0)}`,
      `button ${ACTION_KINDS.submit}`,
      `button ${ACTION_KINDS.cancel}`,
      `button ${ACTION_KINDS.claim}`,
      `button ${ACTION_KINDS.handOff}`,
    ]);

    await choose(h.slack, posted.ts, 0, [0]);
    await submitAndExpect(h, ask, posted.ts, ['Rate limit: Token bucket per IP (Recommended)']);

    const dir = await askDir(h.config.stateDir);
    const answers = await answerFile(dir);
    assert.deepEqual(answers.followUpText, {});
    assert.deepEqual(
      (answers.answers as { answer: unknown }[]).map((a) => a.answer),
      ['Token bucket per IP (Recommended)'],
    );
    await waitFor(
      () => elementsOf(current(h.slack, posted.ts).blocks).length === 0,
      'final message',
    );
    assert.match(
      JSON.stringify(current(h.slack, posted.ts).blocks),
      new RegExp(`Answered by <@${ALICE}>`),
    );
  });
});

describe('ask (socket mode)', () => {
  const h = healthyRelayPerTest('socket');

  test('four questions, one of them multiSelect, are answered in one message', async () => {
    const questions = [rateLimitQuestion, reposQuestion, channelsQuestion, numberedQuestion(4)];
    const { ask, posted } = await startAsk(h, questions);
    assert.equal(
      elementsOf(posted.blocks).filter((e) => e.actionId.startsWith(ACTION_KINDS.choose)).length,
      4,
    );
    await choose(h.slack, posted.ts, 0, [1]);
    await choose(h.slack, posted.ts, 1, [0]);
    await choose(h.slack, posted.ts, 2, [0, 2]);
    await choose(h.slack, posted.ts, 3, [0]);
    await submitAndExpect(h, ask, posted.ts, [
      'Rate limit: Sliding window per IP',
      'Repos: Single repo (Recommended if unsure)',
      'Alerts: Email, Pager',
      'Q4: Yes 4',
    ]);
  });

  test('with five questions the first four are asked and the fifth is reported not asked', async () => {
    const { ask, posted } = await startAsk(h, [1, 2, 3, 4, 5].map(numberedQuestion));
    const seen = JSON.stringify(posted.blocks);
    assert.ok(seen.includes('Question number 4?'));
    assert.ok(!seen.includes('Question number 5?'), 'the fifth question is not shown');
    for (const q of [0, 1, 2, 3]) await choose(h.slack, posted.ts, q, [0]);
    await submitAndExpect(h, ask, posted.ts, [
      'Q1: Yes 1',
      'Q2: Yes 2',
      'Q3: Yes 3',
      'Q4: Yes 4',
      'Not asked (over the 4-question limit): Question number 5?',
    ]);
  });

  test('"Other…" opens a modal; the text typed there goes into the answer and the resume message', async () => {
    const { ask, posted } = await startAsk(h, [rateLimitQuestion, channelsQuestion]);
    await choose(h.slack, posted.ts, 0, [3]); // Other…
    await saveFollowUp(h.slack, 'Leaky bucket <at> the edge & log');
    await waitForText(h.slack, posted.ts, 'Leaky bucket &lt;at&gt; the edge &amp; log');
    assert.ok(
      controls(current(h.slack, posted.ts).blocks).includes(
        `button ${actionId(ACTION_KINDS.followUp, 0)}`,
      ),
      'Edit text',
    );
    await choose(h.slack, posted.ts, 1, [1, 3]); // Slack and Other…
    await saveFollowUp(h.slack, 'SMS to on-call');
    await waitForText(h.slack, posted.ts, 'SMS to on-call');
    await submitAndExpect(h, ask, posted.ts, [
      'Rate limit: Other: Leaky bucket <at> the edge & log',
      'Alerts: Slack, Other: SMS to on-call',
    ]);
    const answers = await answerFile(await askDir(h.config.stateDir));
    assert.deepEqual(answers.followUpText, {
      q1: 'Leaky bucket <at> the edge & log',
      q2: 'SMS to on-call',
    });
    const final = JSON.stringify(current(h.slack, posted.ts).blocks);
    assert.ok(final.includes('SMS to on-call'), 'the final message shows the typed text');
  });

  test('an option promising a follow-up asks for its text, which can be edited, before submitting', async () => {
    const { ask, posted } = await startAsk(h, [reposQuestion]);
    await choose(h.slack, posted.ts, 0, [1]); // Multi-repo
    const modal = await followUpModal(h.slack);
    assert.ok(
      JSON.stringify(modal.blocks).includes(
        "asking for each additional repo's slug and absolute path",
      ),
      'the modal shows what the agent asked for',
    );
    await saveFollowUp(h.slack, 'web: /abs/web');
    await waitForText(h.slack, posted.ts, 'web: /abs/web');
    await click(h.slack, posted.ts, actionId(ACTION_KINDS.followUp, 0)); // Edit text
    const editing = await waitFor(
      () =>
        h.slack
          .views(ALICE)
          .find((v) => v.callback_id === CALLBACK_IDS.followUp && v.id !== modal.id),
      'the modal opened again',
    );
    assert.ok(JSON.stringify(editing.blocks).includes('web: /abs/web'), 'holds the text so far');
    await saveFollowUp(h.slack, 'web: /abs/web\napi: /abs/api');
    await waitForText(h.slack, posted.ts, 'api: /abs/api');
    await submitAndExpect(h, ask, posted.ts, [
      'Repos: Multi-repo',
      '  Follow-up:',
      '    web: /abs/web',
      '    api: /abs/api',
    ]);
  });

  test('Submit is refused, naming the question, while a chosen option still needs its text', async () => {
    const { ask, posted } = await startAsk(h, [rateLimitQuestion, reposQuestion]);
    await choose(h.slack, posted.ts, 0, [0]);
    await choose(h.slack, posted.ts, 1, [1]); // Multi-repo: the modal opens…
    const modal = await followUpModal(h.slack);
    await h.slack.closeView({ viewId: String(modal.id), user: ALICE }); // …and is closed unsaved
    await waitForText(h.slack, posted.ts, 'Add text');
    await click(h.slack, posted.ts, ACTION_KINDS.submit);
    const notice = await waitFor(() => h.slack.ephemerals(ALICE)[0], 'the refusal');
    assert.match(notice.text, /Question 2 \("Does this topic span more than one repository\?"\)/);
    assert.match(notice.text, /"Multi-repo" needs text/);
    const dir = await askDir(h.config.stateDir);
    assert.deepEqual(await qaFiles(dir), ['q-out-001.json'], 'no answer file');

    await click(h.slack, posted.ts, actionId(ACTION_KINDS.followUp, 1)); // Add text
    await saveFollowUp(h.slack, 'api: /abs/api');
    await waitForText(h.slack, posted.ts, 'api: /abs/api');
    await submitAndExpect(h, ask, posted.ts, [
      'Rate limit: Token bucket per IP (Recommended)',
      'Repos: Multi-repo',
      '  Follow-up: api: /abs/api',
    ]);
  });

  test('Cancel closes the batch as cancelled: ask exits 5 and no answer file is written', async () => {
    const { ask, posted } = await startAsk(h, [rateLimitQuestion]);
    await choose(h.slack, posted.ts, 0, [1]);
    await click(h.slack, posted.ts, ACTION_KINDS.cancel);
    assert.equal(await exitCodeOf(ask), 5, ask.stderr());
    assert.equal(ask.stdout(), '');
    assert.match(ask.stderr(), new RegExp(`cancelled in Slack by ${ALICE}`));
    const dir = await askDir(h.config.stateDir);
    assert.deepEqual(await qaFiles(dir), ['q-out-001.json']);
    const final = await waitFor(() => {
      const m = current(h.slack, posted.ts);
      return elementsOf(m.blocks).length === 0 ? m : undefined;
    }, 'the cancelled message');
    assert.match(JSON.stringify(final.blocks), new RegExp(`Cancelled by <@${ALICE}>`));
    assert.match(final.text, /^Cancelled: /);
  });

  test('--timeout withdraws the questions: q-out removed, message shows withdrawn, exit 6', async () => {
    const { ask, posted } = await startAsk(h, [rateLimitQuestion], ['--timeout', '5s']);
    assert.equal(await exitCodeOf(ask), 6, ask.stderr());
    assert.match(ask.stderr(), /No answer within 5s; the questions were withdrawn from Slack\./);
    assert.equal(ask.stdout(), '');
    const dir = await askDir(h.config.stateDir);
    assert.deepEqual(await qaFiles(dir), []);
    const final = await waitFor(() => {
      const m = current(h.slack, posted.ts);
      return elementsOf(m.blocks).length === 0 ? m : undefined;
    }, 'the withdrawn message');
    assert.match(JSON.stringify(final.blocks), /Withdrawn by the agent/);
  });
});
