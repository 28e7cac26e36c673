// How a Claude Code hook's batches look: the relay wrote them (asks/), so their origin is shown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { askUserQuestionSchema } from '../../../../src/core/claude-code/hook-input.js';
import { permissionHookBatch } from '../../../../src/core/claude-code/permission-hook.js';
import { questionHookBatch } from '../../../../src/core/claude-code/question-hook.js';
import { parseQuestionFile } from '../../../../src/core/protocol/questions/parse-question-file.js';
import { renderRecordMessages } from '../../../../src/core/slack/messages/render-record-messages.js';
import { makeRecord } from '../../../support/make-record.js';
import { visibleText } from '../../../support/relay-harness.js';
import { askInput, permissionRequest, preToolUse } from '../../claude-code/samples.js';

const RUN = '/state/asks/20260101T000000000Z-abcd';

function render(
  batch: object,
  changes: Parameters<typeof makeRecord>[2] = {},
  writtenByRelay = true,
) {
  const parsed = parseQuestionFile(JSON.stringify(batch), `${RUN}/qa/q-out-001.json`);
  assert.ok(parsed.ok);
  const file = writtenByRelay ? { ...parsed.value, writtenByRelay: true as const } : parsed.value;
  const [message] = renderRecordMessages(makeRecord(RUN, 1, changes), { batch: file }, 0);
  assert.ok(message);
  const blocks = message.blocks as unknown as Record<string, unknown>[];
  return { message, seen: visibleText({ text: message.text, blocks }) };
}

describe("a hook's batch in Slack", () => {
  it('is headed by who asks, with the project, session and tool in place of the ask folder', () => {
    const { seen, message } = render(permissionHookBatch(permissionRequest));
    assert.match(
      seen,
      /^Claude Code wants to use Bash\nproject \/home\/me\/proj · session 69ba9ccf · tool Bash/,
    );
    assert.ok(!seen.includes(RUN), 'the ask folder means nothing to people');
    assert.match(message.text, /^Claude Code wants to use Bash: /);
  });

  it("shows an AskUserQuestion option's preview", () => {
    const { message } = render(
      questionHookBatch(preToolUse, askUserQuestionSchema.parse(askInput)),
    );
    assert.ok(
      message.blocks.some(
        (block) => block.type === 'markdown' && block.text.includes('CREATE TABLE t ();'),
      ),
    );
  });

  it('says, once withdrawn, that it went back to the terminal', () => {
    const { seen } = render(permissionHookBatch(permissionRequest), { status: 'withdrawn' });
    assert.match(seen, /Closed: answered in the terminal, or left to it/);
  });

  it('in a run folder, an origin claims nothing: the run is named as ever', () => {
    const { seen } = render(permissionHookBatch(permissionRequest), {}, false);
    assert.match(seen, /^Run 20260101T000000000Z-abcd · batch 1/);
  });
});
