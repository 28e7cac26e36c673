import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { runCli } from './run-cli.js';

/** Mistakes on the command line and in what it is given, through the real CLI process. */
describe('the command line, told what it cannot do', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const cli = (...args: string[]) => runCli(args, {}, dir);

  before(async () => {
    ({ dir, cleanup } = await makeTempDir('o7-cli-mistakes-'));
  });
  after(() => cleanup());

  test('a mistyped command exits 2 with the command it is nearest to', async () => {
    const typo = await cli('chek', 'runs');
    assert.equal(typo.code, 2);
    assert.equal(typo.out, '');
    assert.match(
      typo.err,
      /^o7-slack-relay: unknown command: chek \(did you mean check\?\)\n\nUsage:/,
    );
    const help = await cli('help', 'bogus');
    assert.equal(help.code, 2, 'help of no command is a usage error, like every other');
    assert.match(help.err, /^o7-slack-relay help: unknown command: bogus\n\nUsage:/);
    const near = await cli('help', 'doctr');
    assert.match(
      near.err,
      /^o7-slack-relay help: unknown command: doctr \(did you mean doctor\?\)/,
    );
  });

  test('an unknown option without a command blames no command', async () => {
    const result = await cli('--bogus');
    assert.equal(result.code, 2);
    assert.match(
      result.err,
      /^o7-slack-relay: unknown option --bogus\n\nUsage: o7-slack-relay \[command\]/,
    );
    assert.doesNotMatch(result.err.split('\n')[0] ?? '', /start/);
  });

  test('doctor with a bad configuration speaks of doctor, not of starting the relay', async () => {
    const result = await runCli(['doctor'], { SLACK_CHANNEL_ID: 'general' }, dir);
    assert.equal(result.code, 2);
    const lines = result.err.trimEnd().split('\n');
    assert.equal(
      lines[0],
      'o7-slack-relay doctor cannot check the setup: the configuration is incomplete or wrong.',
    );
    assert.match(result.err, /SLACK_BOT_TOKEN is not set/);
    assert.equal(
      lines.at(-1),
      'Set these in the environment or in a .env file (see .env.example), then run o7-slack-relay doctor again.',
    );
    assert.doesNotMatch(result.err, /cannot start|start again/);
    const nodes = await runCli(['nodes'], { RELAY_REDIS_URL: 'http://redis.example' }, dir);
    assert.equal(nodes.code, 2);
    assert.match(nodes.err, /^Shared mode is not configured right\.\n {2}- RELAY_REDIS_URL /);
    assert.match(nodes.err, /, then run o7-slack-relay nodes again\.\n$/);
  });

  test('check and preview say to run them again, not that a relay re-reads the file', async () => {
    const file = await writeQuestionFile(
      path.join(dir, 'run-bad'),
      1,
      '{"seq": 2, "questions": []}',
    );
    const check = await cli('check', file);
    assert.equal(check.code, 1);
    assert.match(check.err, /\nFix the file, then check it again\.\n$/);
    const preview = await cli('preview', file);
    assert.equal(preview.code, 1);
    assert.match(preview.err, /^.*q-out-001\.json: 2 problems\n/);
    assert.match(preview.err, /\nFix the file, then preview it again\.\n$/);
    assert.doesNotMatch(check.err + preview.err, /relay/);
  });

  test('preview refuses, with exit code 2, what is not a q-out file', async () => {
    const run = path.join(dir, 'run-p');
    const questions = await writeQuestionFile(run, 1, sampleBatch(1));
    const qa = path.dirname(questions);
    const answers = path.join(qa, 'q-answers-001.json');
    await writeFile(answers, '{"seq": 1, "answers": [], "questions": []}');
    const plain = path.join(qa, 'questions.json');
    await writeFile(plain, JSON.stringify(sampleBatch(1)));
    const lookAlike = path.join(qa, 'q-out-0001.json');
    await writeFile(lookAlike, JSON.stringify(sampleBatch(1)));
    await mkdir(path.join(dir, 'empty'));
    const cases: [string, RegExp][] = [
      [
        answers,
        /is an answer file; preview shows the messages of a question file\. Give the path of one q-out-NNN\.json file, or validate this one with o7-slack-relay check\./,
      ],
      [
        plain,
        /questions\.json: not a q-out-NNN\.json name, so the relay would post nothing for it\./,
      ],
      [
        lookAlike,
        /q-out-0001\.json: a name the relay ignores: if it is batch 1, rename it to q-out-001\.json, so the relay would post nothing for it\./,
      ],
      [
        run,
        /run-p is a folder\. Give the path of one q-out-NNN\.json file \(o7-slack-relay check takes folders\)\./,
      ],
      [path.join(qa, 'q-out-009.json'), /^Cannot read .*q-out-009\.json: no such file\./],
    ];
    for (const [file, message] of cases) {
      const result = await cli('preview', file);
      assert.equal(result.code, 2, file);
      assert.equal(result.out, '', file);
      assert.match(result.err, message);
    }
    assert.equal((await cli('preview', questions)).code, 0);
  });
});
