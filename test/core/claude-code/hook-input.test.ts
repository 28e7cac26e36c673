import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  askUserQuestionSchema,
  hookInputSchema,
} from '../../../src/core/claude-code/hook-input.js';
import { askInput, permissionRequest, preToolUse } from './samples.js';

describe('hookInputSchema', () => {
  it('reads PreToolUse and PermissionRequest calls, keeping fields it does not know', () => {
    const parsed = hookInputSchema.parse({
      ...preToolUse,
      prompt_id: 'p',
      effort: { level: 'high' },
    });
    assert.equal(parsed.hook_event_name, 'PreToolUse');
    assert.deepEqual((parsed as Record<string, unknown>).effort, { level: 'high' });
    const permission = hookInputSchema.parse(permissionRequest);
    assert.equal(permission.hook_event_name, 'PermissionRequest');
  });

  it('reads a subagent call with its agent id and type', () => {
    const parsed = hookInputSchema.parse({
      ...permissionRequest,
      agent_id: 'a1',
      agent_type: 'reviewer',
    });
    assert.equal(parsed.agent_type, 'reviewer');
  });

  it('refuses an event it does not answer, and a call without a cwd', () => {
    assert.equal(
      hookInputSchema.safeParse({ ...preToolUse, hook_event_name: 'Stop' }).success,
      false,
    );
    const { cwd: _cwd, ...noCwd } = preToolUse;
    assert.equal(hookInputSchema.safeParse(noCwd).success, false);
  });
});

describe('askUserQuestionSchema', () => {
  it('reads 1 to 4 questions of 2 to 4 options, and refuses one option alone', () => {
    assert.equal(askUserQuestionSchema.safeParse(askInput).success, true);
    const lonely = {
      questions: [{ ...askInput.questions[0], options: [{ label: 'A', description: '' }] }],
    };
    assert.equal(askUserQuestionSchema.safeParse(lonely).success, false);
    assert.equal(askUserQuestionSchema.safeParse({ questions: [] }).success, false);
  });
});
