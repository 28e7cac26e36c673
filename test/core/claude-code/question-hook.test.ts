import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { askUserQuestionSchema } from '../../../src/core/claude-code/hook-input.js';
import {
  questionHookBatch,
  questionHookOutput,
} from '../../../src/core/claude-code/question-hook.js';
import { OTHER_OPTION } from '../../../src/core/envelope/other-option.js';
import { parseQuestionFile } from '../../../src/core/protocol/questions/parse-question-file.js';
import { askInput, preToolUse } from './samples.js';

const ask = askUserQuestionSchema.parse(askInput);

describe('questionHookBatch', () => {
  const batch = questionHookBatch(preToolUse, ask);

  it('makes an envelope batch: headers, descriptions, checkboxes for multiSelect, Other… last', () => {
    const parsed = parseQuestionFile(JSON.stringify(batch), '/s/asks/a/qa/q-out-001.json');
    assert.ok(parsed.ok);
    assert.deepEqual(
      batch.questions.map((q) => [q.type, q.header, q.options]),
      [
        ['choose-one', 'Database', ['Postgres', 'SQLite', OTHER_OPTION]],
        ['choose-many', 'Envs', ['staging', 'prod', 'dev', OTHER_OPTION]],
      ],
    );
    assert.equal(batch.source, 'agent-open-questions');
  });

  it("shows the options' previews as the question's, under their labels", () => {
    assert.deepEqual(batch.questions[0]?.preview, {
      type: 'markdown',
      content: '**Postgres**\n\nCREATE TABLE t ();',
    });
    assert.equal(batch.questions[1]?.preview, undefined);
  });

  it('names the project and the session, and a subagent when one asked', () => {
    assert.equal(batch.origin.title, 'Claude Code asks 2 questions');
    const sub = questionHookBatch(
      { ...preToolUse, agent_id: 'abcdef123456', agent_type: 'Explore' },
      ask,
    );
    assert.equal(
      sub.origin.detail,
      'project /home/me/proj · session 69ba9ccf · subagent Explore (abcdef12)',
    );
  });
});

describe('questionHookOutput', () => {
  it('allows the tool with the answers keyed by question text, several joined with ", "', () => {
    const output = questionHookOutput(askInput, ask, { q1: 'SQLite', q2: ['dev', 'staging'] }, {});
    assert.deepEqual(output, {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'Answered in Slack',
        updatedInput: {
          ...askInput,
          answers: {
            'Which database should the service use?': 'SQLite',
            'Which environments should get it?': 'staging, dev',
          },
        },
      },
    });
  });

  it('gives the text typed for Other… as the answer itself', () => {
    const output = questionHookOutput(
      askInput,
      ask,
      { q1: OTHER_OPTION, q2: ['prod', OTHER_OPTION] },
      { q1: 'DuckDB', q2: 'qa' },
    );
    assert.deepEqual(output?.hookSpecificOutput.updatedInput?.answers, {
      'Which database should the service use?': 'DuckDB',
      'Which environments should get it?': 'prod, qa',
    });
  });

  it('decides nothing when a question has no answer', () => {
    assert.equal(questionHookOutput(askInput, ask, { q1: 'SQLite' }, {}), undefined);
    assert.equal(
      questionHookOutput(askInput, ask, { q1: OTHER_OPTION, q2: ['dev'] }, { q1: ' ' }),
      undefined,
    );
  });
});
