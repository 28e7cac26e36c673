import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCheck } from '../../src/cli/check-command.js';
import { PROTOCOL_NAMES_RULE } from '../../src/core/protocol/questions/look-alike-names.js';

const FORMAT = {
  id: 'format',
  type: 'choose-one',
  prompt: 'Which format?',
  options: ['JSON', 'CSV'],
};
const SHIP = { id: 'ship', type: 'yes-no', prompt: 'Ship?' };

const questions = (seq: number, ...qs: object[]) => JSON.stringify({ seq, questions: qs });
const answers = (seq: number, qs: object[], values: unknown[]) =>
  JSON.stringify({
    seq,
    answers: qs.map((q, i) => ({ ...q, answer: values[i] })),
    questions: qs,
  });

let root: string;

async function put(path: string, text: string): Promise<string> {
  const full = join(root, path);
  await mkdir(join(full, '..'), { recursive: true });
  await writeFile(full, text);
  return full;
}

async function check(...paths: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCheck(paths, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('runCheck', () => {
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'o7-check-'));
    await put('runs/r1/qa/q-out-001.json', questions(1, FORMAT, SHIP));
    await put('runs/r1/qa/q-answers-001.json', answers(1, [FORMAT, SHIP], ['CSV', true]));
    await put('runs/r1/qa/q-out-002.json', questions(3, SHIP));
    await put('runs/r1/qa/notes.txt', 'not a protocol file');
    await put('runs/r1/qa/.q-out-003.json.tmp', '{');
    await put('runs/r2/qa/q-out-001.json', questions(1, FORMAT));
    // valid on its own, but its q-out file has other options
    await put(
      'runs/r2/qa/q-answers-001.json',
      answers(1, [{ ...FORMAT, options: ['JSON', 'XML'] }], ['XML']),
    );
    await mkdir(join(root, 'runs/r3'), { recursive: true });
    await put('loose/q-out-010.json', questions(10, SHIP));
    await put('loose/readme.md', '# notes');
    await mkdir(join(root, 'empty'));
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('checks every run of a runs folder, answers against their questions', async () => {
    const runs = join(root, 'runs');
    const result = await check(runs);
    assert.deepEqual(result.out, [
      `ok  ${join(runs, 'r1/qa/q-out-001.json')}`,
      `ok  ${join(runs, 'r1/qa/q-answers-001.json')}`,
      `ok  ${join(runs, 'r2/qa/q-out-001.json')}`,
      'checked 5 files: 3 ok, 2 with problems',
    ]);
    assert.deepEqual(result.err, [
      `${join(runs, 'r1/qa/q-out-002.json')}: 1 problem`,
      '  - at seq: expected 2 to match the file name q-out-002.json, found 3',
      'Fix the file, then check it again.',
      `${join(runs, 'r2/qa/q-answers-001.json')}: 3 problems`,
      '  - at answers[0].options: expected an array ["JSON","CSV"], the options of question "format", found an array ["JSON","XML"]',
      '  - at answers[0].answer: expected one option from "JSON", "CSV", found "XML"',
      '  - at questions[0].options[1]: expected "CSV" as in q-out-001.json, found "XML"',
      'Fix the file so it follows the Q&A file protocol and answers the questions in its q-out file.',
    ]);
    assert.equal(result.code, 1);
  });

  it('checks a run folder through its qa/ folder, and a qa/ folder directly', async () => {
    const run = join(root, 'runs/r1');
    const viaRun = await check(run);
    const viaQa = await check(join(run, 'qa'));
    assert.equal(viaRun.code, 1);
    assert.deepEqual(viaRun.out.slice(0, 2), [
      `ok  ${join(run, 'qa/q-out-001.json')}`,
      `ok  ${join(run, 'qa/q-answers-001.json')}`,
    ]);
    assert.deepEqual(viaQa.out.slice(0, 2), viaRun.out.slice(0, 2));
    assert.deepEqual(viaQa.err, viaRun.err);
  });

  it('returns 0 when every file is valid', async () => {
    const file = join(root, 'loose/q-out-010.json');
    assert.deepEqual(await check(file), {
      code: 0,
      out: [`ok  ${file}`, 'checked 1 file: 1 ok, 0 with problems'],
      err: [],
    });
  });

  it('skips other names inside folders but reports a named one', async () => {
    const loose = join(root, 'loose');
    const inFolder = await check(loose);
    assert.equal(inFolder.code, 0);
    assert.deepEqual(inFolder.err, []);
    const named = await check(join(loose, 'readme.md'));
    assert.deepEqual(named, {
      code: 1,
      out: ['checked 1 file: 0 ok, 1 with problems'],
      err: [
        `${join(loose, 'readme.md')}: not a Q&A protocol file; expected a name like q-out-NNN.json or q-answers-NNN.json (e.g. q-out-001.json)`,
      ],
    });
  });

  it('checks an answer file named alone against its sibling questions', async () => {
    const result = await check(join(root, 'runs/r2/qa/q-answers-001.json'));
    assert.equal(result.code, 1);
    assert.equal(result.err[0], `${join(root, 'runs/r2/qa/q-answers-001.json')}: 3 problems`);
    assert.equal(
      result.err[2],
      '  - at answers[0].answer: expected one option from "JSON", "CSV", found "XML"',
    );
  });

  it('checks a file once even when named twice', async () => {
    const file = join(root, 'loose/q-out-010.json');
    const result = await check(file, join(root, 'loose'));
    assert.deepEqual(result.out, [`ok  ${file}`, 'checked 1 file: 1 ok, 0 with problems']);
  });

  it('returns 2 for a path that does not exist, still checking the others', async () => {
    const missing = join(root, 'nope');
    const file = join(root, 'loose/q-out-010.json');
    const result = await check(missing, file);
    assert.deepEqual(result, {
      code: 2,
      out: [`ok  ${file}`, 'checked 1 file: 1 ok, 0 with problems'],
      err: [
        `${missing}: no such file or folder; pass a q-out-NNN.json or q-answers-NNN.json (e.g. q-out-001.json) file, a qa/ folder, a run folder or a runs folder`,
      ],
    });
  });

  it('says so and returns 1 when what it was given holds no Q&A files', async () => {
    const empty = join(root, 'empty');
    const runWithoutQa = join(root, 'runs/r3');
    assert.deepEqual(await check(empty, runWithoutQa), {
      code: 1,
      out: [
        `${empty}: no Q&A files in it, in its qa/ folder or in <subfolder>/qa/`,
        `${runWithoutQa}: no Q&A files in it, in its qa/ folder or in <subfolder>/qa/`,
      ],
      err: [
        'found no Q&A files to check; pass a q-out-NNN.json or q-answers-NNN.json (e.g. q-out-001.json) file, a qa/ folder, a run folder or a runs folder',
      ],
    });
  });

  it('points out names that only look like Q&A files, as the relay does, and fails', async () => {
    const odd = await put('odd/qa/q-out-0001.json', questions(1, SHIP));
    const named = await check(odd);
    const line = `${odd}: not a Q&A file name, so the relay ignores it: if it is batch 1, rename it to q-out-001.json. ${PROTOCOL_NAMES_RULE}.`;
    assert.deepEqual(named, {
      code: 1,
      out: ['checked 1 file: 0 ok, 1 with problems'],
      err: [line],
    });
    const inFolder = await check(join(root, 'odd'));
    assert.deepEqual(inFolder.err, [line]);
    assert.equal(inFolder.code, 1);
  });

  it('returns 0 for a folder without Q&A files when another path had some', async () => {
    const file = join(root, 'loose/q-out-010.json');
    const result = await check(join(root, 'empty'), file);
    assert.equal(result.code, 0);
    assert.deepEqual(result.err, []);
  });

  it('checks an answer file against the q-out beside it exactly: questions, prompts, options', async () => {
    const qa = 'echo/qa';
    await put(`${qa}/q-out-001.json`, questions(1, FORMAT, SHIP));
    // every field echoed but the second question, and the picks of a choose-many in any order
    const answered = JSON.parse(answers(1, [FORMAT, SHIP], ['CSV', true]));
    answered.questions = [FORMAT];
    answered.answers[1].prompt = 'Ship it?';
    const file = await put(`${qa}/q-answers-001.json`, JSON.stringify(answered));
    const result = await check(join(root, qa));
    assert.equal(result.code, 1);
    assert.deepEqual(result.err.slice(0, 3), [
      `${file}: 2 problems`,
      '  - at answers[1].prompt: expected "Ship?", the prompt of question "ship", found "Ship it?"',
      '  - at questions: expected 2 questions, those of q-out-001.json echoed verbatim ("format", "ship"), found 1',
    ]);
  });

  it('accepts choose-many picks in any order but refuses one picked twice', async () => {
    const many = { id: 'where', type: 'choose-many', prompt: 'Where?', options: ['a', 'b', 'c'] };
    await put('many/qa/q-out-001.json', questions(1, many));
    const file = await put('many/qa/q-answers-001.json', answers(1, [many], [['c', 'a']]));
    assert.equal((await check(file)).code, 0);
    await writeFile(file, answers(1, [many], [['a', 'a']]));
    const twice = await check(file);
    assert.equal(twice.code, 1);
    assert.equal(
      twice.err[1],
      '  - at answers[0].answer: expected each option once, found "a" more than once in an array ["a","a"]',
    );
  });

  it('refuses a key a protocol file holds twice, in q-out and q-answers files alike', async () => {
    const out = await put('twice/qa/q-out-001.json', '{"seq": 1, "seq": 1, "questions": []}');
    const answer = await put(
      'twice/qa/q-answers-001.json',
      answers(1, [SHIP], [true]).replace('"answer":true', '"answer":false,"answer":true'),
    );
    const result = await check(join(root, 'twice'));
    assert.equal(result.code, 1);
    const repeated = (key: string) =>
      `expected "${key}" once in its object, found it again at line 1, column`;
    assert.equal(result.err[0], `${out}: 1 problem`);
    assert.ok(result.err[1]?.startsWith(`  - at seq: ${repeated('seq')} 12;`), result.err[1]);
    assert.equal(result.err[3], `${answer}: 1 problem`);
    assert.ok(result.err[4]?.startsWith(`  - at answers[0].answer: ${repeated('answer')}`));
  });
});
