import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkPlanId,
  dispatchFailureRecord,
  fenceFor,
} from '../../../src/core/envelope/dispatch-failure.js';

const now = new Date('2026-05-01T12:34:56.789Z');

describe('dispatchFailureRecord', () => {
  it('writes frontmatter, the parse error and the raw message under docs/plans/<id>/', () => {
    const record = dispatchFailureRecord({
      planId: '2026-05-01-add-rate-limiting',
      phase: 'design',
      message: 'Here you go:\n\n```json\n{"openQuestions": [}\n```\n',
      error:
        'The openQuestions envelope (the 1st ```json block of your message) could not be read.',
      now,
    });
    assert.deepEqual(record, {
      ok: true,
      value: {
        relativePath: 'docs/plans/2026-05-01-add-rate-limiting/dispatch-failure.md',
        content: [
          '---',
          'phase: design',
          'status: parse-failed',
          'failed_at: 2026-05-01T12:34:56.789Z',
          '---',
          '',
          '# Dispatch failure: design',
          '',
          "The agent's open-questions envelope could not be parsed on either attempt, so this phase is halted. Fix or re-run the agent, then resume the phase.",
          '',
          '## Parse error',
          '',
          '````text',
          'The openQuestions envelope (the 1st ```json block of your message) could not be read.',
          '````',
          '',
          '## Raw message',
          '',
          '````text',
          'Here you go:',
          '',
          '```json',
          '{"openQuestions": [}',
          '```',
          '````',
          '',
        ].join('\n'),
      },
    });
  });

  it('fences a message with longer backtick runs so it cannot break out', () => {
    const message = 'a ````` b\n``````\nend';
    const record = dispatchFailureRecord({ planId: 'p', phase: 'plan', message, error: 'e', now });
    assert.ok(record.ok);
    assert.ok(record.value.content.includes(`\`\`\`\`\`\`\`text\n${message}\n\`\`\`\`\`\`\`\n`));
  });

  it('quotes a phase YAML would misread', () => {
    const record = dispatchFailureRecord({
      planId: 'p',
      phase: 'design: round 2\n#x',
      message: 'm',
      error: 'e',
      now,
    });
    assert.ok(record.ok);
    assert.match(
      record.value.content,
      /^---\nphase: "design: round 2\\n#x"\nstatus: parse-failed\n/,
    );
    assert.match(record.value.content, /\n# Dispatch failure: design: round 2 #x\n/);
  });

  it('refuses a plan id that is not one folder name', () => {
    for (const planId of ['', '..', '../etc', 'a/b', 'a\\b', '-x', '.hidden']) {
      const record = dispatchFailureRecord({
        planId,
        phase: 'design',
        message: 'm',
        error: 'e',
        now,
      });
      assert.deepEqual(record, { ok: false, error: checkPlanId(planId) }, planId);
      assert.notEqual(checkPlanId(planId), undefined, planId);
    }
    assert.equal(
      checkPlanId('../etc'),
      'expected a plan id made of letters, digits, ".", "_" and "-" that starts with a letter or digit (one folder name under docs/plans/, e.g. "2026-05-01-add-rate-limiting"), found "../etc"',
    );
    assert.equal(checkPlanId('ENG-9876-cache-invalidation'), undefined);
  });

  it('refuses an empty phase', () => {
    assert.deepEqual(
      dispatchFailureRecord({ planId: 'p', phase: ' ', message: 'm', error: 'e', now }),
      { ok: false, error: 'expected a phase name such as "design", found " "' },
    );
  });
});

describe('fenceFor', () => {
  it('is three backticks at least, one longer than the longest run', () => {
    assert.equal(fenceFor('plain'), '```');
    assert.equal(fenceFor('`a` ``b``'), '```');
    assert.equal(fenceFor('```'), '````');
    assert.equal(fenceFor('x ```` y ``````'), '```````');
  });
});
