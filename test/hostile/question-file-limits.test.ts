// Question files the relay used to accept but could not answer, or that flooded Slack: 5,000
// levels of nesting in an unknown field (every Submit overflowed the stack), 10,000 questions
// (435 messages for one batch), a `__proto__` field, a question id of thousands of characters.
// Each is now refused before it is shown, with the file, the JSON path and the reason, in
// Slack and the log; `check` says exactly the same. What is accepted can be answered: a file
// nested to the limit is answered and echoed whole.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCheck } from '../../src/cli/check-command.js';
import {
  answerFile,
  E2E_MODE,
  headerOf,
  postBatch,
  pressSubmit,
  pressYesNo,
  relayPerTest,
  waitForAnswered,
} from '../e2e/relay-steps.js';
import { channelMessages, visibleText } from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const yesNo = (id: string) => ({ id, type: 'yes-no', prompt: `${id}?` });
const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** Each refused file, as text, and the one problem it is refused for. */
const REFUSED: { run: string; text: string; problem: string }[] = [
  {
    run: 'run-deep',
    text: `{"seq": 1, "questions": [{"id": "a", "type": "yes-no", "prompt": "Deep?", "extra": ${nested(5000)}}]}`,
    problem: `  - at questions[0].extra${'[0]'.repeat(27)}…: expected at most 64 levels of nesting, found more at line 1, column 145`,
  },
  {
    run: 'run-10000',
    text: JSON.stringify({
      seq: 1,
      questions: Array.from({ length: 10_000 }, (_, i) => yesNo(`q${i + 1}`)),
    }),
    problem:
      '  - at questions: expected at most 100 questions, found 10,000; split them into several batches (q-out-001.json, q-out-002.json, …)',
  },
  {
    run: 'run-proto',
    text: '{"seq": 1, "questions": [{"id": "a", "type": "free-write", "prompt": "Why?", "__proto__": {"type": "choose-one", "options": ["evil"]}}]}',
    problem:
      '  - at questions[0].__proto__: expected no field named "__proto__": JavaScript gives that name a special meaning, so the relay cannot keep it; rename or remove the field',
  },
  {
    run: 'run-long-id',
    text: JSON.stringify({ seq: 1, questions: [yesNo(`q-${'x'.repeat(2988)}`)] }),
    problem: `  - at questions[0].id: expected an id of letters, digits, "_", "-", ".", ":", "/", "@" or "+" (at most 200 characters), found "q-${'x'.repeat(55)}…"`,
  },
];

const mode = E2E_MODE;
describe(`question files past the limits (${mode} mode)`, () => {
  const h = relayPerTest({ healthy: true, captureLog: 'warn' });

  test('are refused with the path and the reason, in Slack, the log and check', {
    timeout: 60_000,
  }, async () => {
    for (const c of REFUSED) await writeQuestionFile(h.runDir(c.run), 1, c.text);
    for (const c of REFUSED) {
      const file = path.join(h.runDir(c.run), 'qa', 'q-out-001.json');
      const problem = [`${file}: 1 problem`, c.problem];
      const expected = [...problem, 'Fix the file and save it again; the relay re-reads it.'].join(
        '\n',
      );
      const message = await waitFor(
        () => channelMessages(h.slack).find((m) => headerOf(m.blocks) === `Run ${c.run} · batch 1`),
        `the message of ${c.run}`,
      );
      assert.equal(message.text, `Run ${c.run}, batch 1: q-out-001.json could not be read`);
      assert.ok(visibleText(message).includes(expected), visibleText(message));
      assert.equal(message.replies.length, 0, 'one message, nothing in its thread');

      const logged = h.logged.find(
        (l) => l.msg === 'question file is malformed' && l.runDir === h.runDir(c.run),
      ) as { error?: { problems: { path: string; message: string }[] } } | undefined;
      assert.equal(
        `  - at ${logged?.error?.problems[0]?.path}: ${logged?.error?.problems[0]?.message}`,
        c.problem,
      );

      const err: string[] = [];
      const code = await runCheck([file], { out: () => undefined, err: (l) => err.push(l) });
      assert.equal(code, 1);
      // the same words; only what to do next is check's
      assert.equal(err.join('\n'), [...problem, 'Fix the file, then check it again.'].join('\n'));
    }
  });

  test('a file nested to the limit is answered, its unknown fields echoed whole', async () => {
    // the file, questions, a question and `extra` are four levels: 64 in all
    const deep = JSON.parse(`{"levels": ${nested(60)}}`);
    const question = { ...yesNo('deep'), extra: deep };
    const { ts } = await postBatch(h, 'run-at-limit', {
      seq: 1,
      questions: [question, yesNo('b')],
    });
    await pressYesNo(h.slack, ts, 0, true);
    await pressYesNo(h.slack, ts, 1, false);
    await pressSubmit(h.slack, ts);
    await waitForAnswered(h.slack, ts);
    const written = (await answerFile(h.runDir('run-at-limit'))) as { questions: unknown[] };
    assert.deepEqual(written.questions, [question, yesNo('b')]);
  });
});
