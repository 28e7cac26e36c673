import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { REPO } from '../support/project-paths.js';
import { spawnRelay } from '../support/spawn-relay.js';

const EXAMPLE = 'examples/release-plan/qa/q-out-001.json';

/** The first ```json block after `heading` in a Markdown file (`doc` names it in messages). */
function jsonBlockAfter(text: string, heading: string, doc: string): string {
  const from = `\n${text}`.indexOf(`\n${heading}\n`);
  assert.ok(from >= 0, `${doc} has a heading "${heading}"`);
  const match = /```json\n([\s\S]*?)```/.exec(text.slice(from));
  assert.ok(match, `a json block follows "${heading}" in ${doc}`);
  return match[1] as string;
}

describe('the examples folder', () => {
  test('`o7-slack-relay check examples/` accepts the example question and answer files', async () => {
    const check = spawnRelay(['check', 'examples/'], { env: {}, cwd: REPO });
    const { code } = await check.exited;
    assert.equal(code, 0, check.stderr());
    assert.equal(check.stderr(), '');
    assert.deepEqual(check.stdout().trim().split('\n'), [
      `ok  ${EXAMPLE}`,
      'ok  examples/release-plan/qa/q-answers-001.json',
      'checked 2 files: 2 ok, 0 with problems',
    ]);
  });

  test('the README links the example, and docs/file-protocol.md shows it exactly as it is', async () => {
    const readme = await readFile(path.join(REPO, 'README.md'), 'utf8');
    const protocol = await readFile(path.join(REPO, 'docs/file-protocol.md'), 'utf8');
    const example = await readFile(path.join(REPO, EXAMPLE), 'utf8');
    assert.ok(readme.includes(`[\`${EXAMPLE}\`](${EXAMPLE})`), 'the README links the example');
    assert.ok(protocol.includes(`[\`${EXAMPLE}\`](../${EXAMPLE})`), 'the protocol links it');
    assert.equal(jsonBlockAfter(protocol, '# The file protocol', 'docs/file-protocol.md'), example);
  });

  test('the example has one question of each type, and a markdown and an ascii preview', async () => {
    const example = JSON.parse(await readFile(path.join(REPO, EXAMPLE), 'utf8')) as {
      questions: { type: string; preview?: { type: string } }[];
    };
    assert.deepEqual(
      example.questions.map((q) => q.type),
      ['choose-one', 'choose-many', 'free-write', 'yes-no'],
    );
    assert.deepEqual(
      example.questions.flatMap((q) => (q.preview ? [q.preview.type] : [])),
      ['markdown', 'ascii'],
    );
  });
});
