import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { permissionHookBatch } from '../../../src/core/claude-code/permission-hook.js';
import { QUICK_PREVIEW_MOST, quickBatch } from '../../../src/core/digest/quick-batch.js';
import type { Question, QuestionBatch } from '../../../src/core/protocol/questions/question.js';

const batchOf = (...questions: Question[]): QuestionBatch => ({ seq: 1, questions, source: {} });
const yesNo: Question = { id: 'go', type: 'yes-no', prompt: 'Deploy?' };
const choose = (options: string[]): Question => ({
  id: 'pick',
  type: 'choose-one',
  prompt: 'Which?',
  options,
});

/** A permission prompt exactly as the relay's hook writes it. */
function permission(command: string): QuestionBatch {
  const written = permissionHookBatch({
    session_id: 's',
    transcript_path: '/t',
    cwd: '/work/app',
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command },
    permission_suggestions: [
      {
        type: 'addRules',
        rules: [{ toolName: 'Bash', ruleContent: 'npm test' }],
        behavior: 'allow',
        destination: 'localSettings',
      },
    ],
  } as never);
  return { seq: 1, questions: written.questions, source: { ...written }, writtenByRelay: true };
}

describe('which batches are quick', () => {
  test('one yes-no question: Yes and No, Approve all answers Yes', () => {
    const quick = quickBatch(batchOf(yesNo));
    assert.equal(quick?.kind, 'yes-no');
    assert.deepEqual(quick?.choices, [
      { label: 'Yes', answer: true },
      { label: 'No', answer: false },
    ]);
    assert.deepEqual(quick?.approve, { label: 'Yes', answer: true });
  });

  test("a permission prompt: Allow and Deny only; Approve all allows, never an 'Always allow' rule", () => {
    const quick = quickBatch(permission('npm test'));
    assert.equal(quick?.kind, 'permission');
    assert.deepEqual(
      quick?.choices.map((c) => c.label),
      ['Allow', 'Deny'],
    );
    assert.deepEqual(quick?.approve, { label: 'Allow', answer: 'Allow' });
    assert.ok(quick?.preview?.includes('npm test'));
  });

  test('a permission prompt with a long command is still quick; its line shows the start', () => {
    const quick = quickBatch(permission(`echo ${'x'.repeat(500)}`));
    assert.equal(quick?.kind, 'permission');
    assert.ok((quick?.preview?.length ?? 0) <= QUICK_PREVIEW_MOST);
  });

  test('a choose-one of up to 3 options is quick without a default answer; 4 is not', () => {
    const three = quickBatch(batchOf(choose(['a', 'b', 'c'])));
    assert.equal(three?.kind, 'choose-one');
    assert.deepEqual(
      three?.choices.map((c) => c.answer),
      ['a', 'b', 'c'],
    );
    assert.equal(three?.approve, undefined);
    assert.equal(quickBatch(batchOf(choose(['a', 'b', 'c', 'd']))), undefined);
  });

  test('an option too long for a button, or empty, makes a choose-one not quick', () => {
    assert.equal(quickBatch(batchOf(choose(['a', 'x'.repeat(76)]))), undefined);
    assert.equal(quickBatch(batchOf(choose(['a', ' ']))), undefined);
  });

  test('two questions, a free-write or a choose-many are not quick', () => {
    assert.equal(quickBatch(batchOf(yesNo, { ...yesNo, id: 'again' })), undefined);
    assert.equal(quickBatch(batchOf({ id: 't', type: 'free-write', prompt: 'Why?' })), undefined);
    assert.equal(
      quickBatch(batchOf({ id: 'm', type: 'choose-many', prompt: 'Which?', options: ['a'] })),
      undefined,
    );
  });

  test('a preview that needs opening (long, or many lines) makes a batch not quick; a short one is shown', () => {
    const withPreview = (content: string): Question => ({
      ...yesNo,
      preview: { type: 'markdown', content },
    });
    assert.equal(quickBatch(batchOf(withPreview('short diff')))?.preview, 'short diff');
    assert.equal(quickBatch(batchOf(withPreview('x'.repeat(QUICK_PREVIEW_MOST + 1)))), undefined);
    assert.equal(quickBatch(batchOf(withPreview('a\nb\nc\nd'))), undefined);
  });

  test("a choose-one named like a permission prompt in an agent's own file is an ordinary choice", () => {
    const forged = batchOf({ ...choose(['Allow', 'Deny']), id: 'permission' });
    const quick = quickBatch(forged);
    assert.equal(quick?.kind, 'choose-one');
    assert.equal(quick?.approve, undefined, 'no default answer the agent could have picked');
  });
});
