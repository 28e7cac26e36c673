import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  alwaysChoices,
  DENIED_MESSAGE,
  permissionHookBatch,
  permissionHookOutput,
} from '../../../src/core/claude-code/permission-hook.js';
import { noteOptions } from '../../../src/core/protocol/questions/note-options.js';
import { parseQuestionFile } from '../../../src/core/protocol/questions/parse-question-file.js';
import type { Question } from '../../../src/core/protocol/questions/question.js';
import { isOneTapBatch } from '../../../src/core/slack/controls/one-tap.js';
import { permissionRequest } from './samples.js';

const ALWAYS =
  'Always allow Bash(rm -rf build), Bash(curl -X POST http://127.0.0.1:9/deploy) (in .claude/settings.local.json)';

describe('permissionHookBatch', () => {
  const batch = permissionHookBatch(permissionRequest);
  const [question] = batch.questions;

  it('offers Allow, one Always allow per suggestion, Deny and Deny and stop, in one tap', () => {
    assert.equal(question.options.length, 4);
    assert.equal(question.options[0], 'Allow');
    assert.ok(question.options[1]?.startsWith('Always allow Bash(rm -rf build), Bash(cu'));
    assert.ok(
      question.options[1]?.endsWith('(in .claude/settings.local.json)'),
      question.options[1],
    );
    assert.ok((question.options[1]?.length ?? 0) <= 75, 'fits on a button');
    assert.deepEqual(question.options.slice(2), ['Deny', 'Deny and stop Claude']);
    const parsed = parseQuestionFile(JSON.stringify(batch), '/s/asks/a/qa/q-out-001.json');
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.equal(isOneTapBatch(parsed.value.questions), true);
    assert.deepEqual(noteOptions(parsed.value.questions[0] as Question), ['Deny']);
  });

  it('shows the command as code and the rule in full where its button is cut', () => {
    assert.match(question.preview.content, /^Deploy\n\n```sh\nrm -rf build && curl/);
    assert.ok(question.preview.content.includes(`- ${ALWAYS}`));
  });

  it('names the project, the session and the tool above the question', () => {
    assert.equal(batch.origin.title, 'Claude Code wants to use Bash');
    assert.equal(batch.origin.detail, 'project /home/me/proj · session 69ba9ccf · tool Bash');
    assert.equal(batch.origin.project, '/home/me/proj');
  });

  it('masks a secret in the command and says so', () => {
    const secret = permissionHookBatch({
      ...permissionRequest,
      tool_input: { command: 'curl -H "Authorization: Bearer abcdefgh" http://127.0.0.1:9/' },
    });
    const content = secret.questions[0].preview.content;
    assert.ok(!content.includes('abcdefgh'));
    assert.match(content, /A secret was masked here/);
  });
});

describe('alwaysChoices', () => {
  it('names where each rule is kept and skips suggestions no button should offer', () => {
    const choices = alwaysChoices([
      {
        type: 'addRules',
        rules: [{ toolName: 'WebFetch' }],
        behavior: 'allow',
        destination: 'userSettings',
      },
      {
        type: 'addRules',
        rules: [{ toolName: 'Bash' }],
        behavior: 'deny',
        destination: 'localSettings',
      },
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
      { type: 'removeRules', rules: [], behavior: 'allow', destination: 'session' },
    ]);
    assert.deepEqual(
      choices.map((choice) => choice.label),
      [
        'Always allow WebFetch (in ~/.claude/settings.json)',
        'Allow and switch to acceptEdits mode (in this session only)',
      ],
    );
  });

  it('keeps two cut labels apart', () => {
    const long = (n: number) => ({
      type: 'addRules',
      rules: [{ toolName: 'Bash', ruleContent: `${'x'.repeat(80)}${n}` }],
      behavior: 'allow',
      destination: 'localSettings',
    });
    const labels = alwaysChoices([long(1), long(2)]).map((choice) => choice.label);
    assert.equal(new Set(labels).size, 2);
    assert.ok(labels.every((label) => label.length <= 75));
  });
});

describe('permissionHookOutput', () => {
  const decision = (choice: string) =>
    permissionHookOutput(permissionRequest, choice)?.hookSpecificOutput.decision;

  it('allows, denies with the message the model reads, or denies and stops Claude', () => {
    assert.deepEqual(decision('Allow'), { behavior: 'allow' });
    assert.deepEqual(decision('Deny'), { behavior: 'deny', message: DENIED_MESSAGE });
    assert.deepEqual(decision('Deny and stop Claude'), {
      behavior: 'deny',
      message: DENIED_MESSAGE,
      interrupt: true,
    });
  });

  it('denies with the reason typed in Slack, when one was', () => {
    const denied = (reason: string) =>
      permissionHookOutput(permissionRequest, 'Deny', reason)?.hookSpecificOutput.decision;
    assert.deepEqual(denied('  the deploy is frozen until Monday\n'), {
      behavior: 'deny',
      message: "Denied in Slack. The person's reason: the deploy is frozen until Monday",
    });
    assert.deepEqual(denied('   '), { behavior: 'deny', message: DENIED_MESSAGE }, 'blank: none');
  });

  it('passes back the suggestion of the Always allow chosen, as Claude Code made it', () => {
    const label = permissionHookBatch(permissionRequest).questions[0].options[1] as string;
    assert.deepEqual(decision(label), {
      behavior: 'allow',
      updatedPermissions: permissionRequest.permission_suggestions,
    });
  });

  it('decides nothing for a choice it did not offer: never an allow by default', () => {
    assert.equal(permissionHookOutput(permissionRequest, 'Yes please'), undefined);
  });
});
