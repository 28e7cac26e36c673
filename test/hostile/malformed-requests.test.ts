// Requests Slack would never send, each delivered to a real relay process (an uncaught error
// in an in-process relay would end the test runner instead of showing the crash): every one
// is refused with one warning, and the relay still answers the next click.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { controlOf } from '../e2e/relay-session.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { ALICE, CHANNEL, findElement, freePort, type Mode } from '../support/relay-harness.js';
import { type RelayProcess, spawnRelayFor } from '../support/spawn-relay.js';
import { makeTempDir, waitFor, writeQuestionFile } from '../support/temp-dir.js';

/** In every hostile body that has room for it; no log line may ever show it. */
const SECRET = 'xoxb-hostile-marker-0000';
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const HTTP_REFUSAL = 'refused a request to /slack/events';
const FRAME_REFUSAL = 'refused a Socket Mode frame';
const FIVE_MB = 5 * 1024 * 1024;

const BATCH = {
  seq: 1,
  questions: [
    {
      id: 'format',
      type: 'choose-one',
      prompt: 'Output format?',
      options: ['JSON', 'CSV', 'YAML'],
    },
    { id: 'go', type: 'yes-no', prompt: 'Proceed?' },
  ],
};

const user = { id: ALICE, username: 'alice', team_id: 'T0' };
const click = (fields: Record<string, unknown>) => ({
  type: 'block_actions',
  token: SECRET,
  user,
  team: { id: 'T0' },
  actions: [{ action_id: 'o7.choose:0', type: 'radio_buttons' }],
  ...fields,
});
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const form = (payload: string) => `payload=${encodeURIComponent(payload)}`;

/** A relay process with one batch posted, and the click that proves it still answers. */
interface Session {
  slack: FakeSlack;
  proc: RelayProcess;
  runDir: string;
  ts: string;
  cleanup(): Promise<void>;
}

async function startSession(mode: Mode): Promise<Session> {
  const slack = await startFakeSlack();
  const { dir: root, cleanup } = await makeTempDir(`o7-hostile-${mode}-`);
  await mkdir(path.join(root, 'runs'), { recursive: true });
  const port = mode === 'http' ? await freePort() : undefined;
  const proc = spawnRelayFor(slack, root, 'info', port);
  await proc.waitForLog('relay ready');
  const runDir = path.join(root, 'runs', 'run-hostile');
  await writeQuestionFile(runDir, 1, BATCH);
  const message = await waitFor(() => slack.messages(CHANNEL)[0], 'the batch posted', 20_000);
  return {
    slack,
    proc,
    runDir,
    ts: message.ts,
    async cleanup() {
      await proc.kill();
      await slack.close();
      await cleanup();
    },
  };
}

/** The option value the choice control of question 1 shows as picked, if any. */
function picked(s: Session): string | undefined {
  const blocks = s.slack.message(CHANNEL, s.ts)?.blocks ?? [];
  const element = controlOf(blocks, 0).element as { initial_option?: { value: string } };
  return element.initial_option?.value;
}

/** Alice picks another option; the relay must record it and show it. */
async function answersNextClick(s: Session): Promise<void> {
  assert.equal(s.proc.child.exitCode, null, `the relay exited: ${s.proc.stderr().slice(-800)}`);
  assert.equal(s.proc.child.signalCode, null);
  const value = String((Number(picked(s) ?? '-1') + 1) % 3);
  const control = controlOf(s.slack.message(CHANNEL, s.ts)?.blocks ?? [], 0);
  const result = await s.slack.selectOption({
    channel: CHANNEL,
    ts: s.ts,
    blockId: control.blockId,
    actionId: control.actionId,
    user: ALICE,
    value,
  });
  assert.equal(result.acked, true, 'the next click was acknowledged');
  await waitFor(() => picked(s) === value, `option ${value} shown as picked`, 20_000);
}

/** Waits for the refusal logged since `since` whose problem matches, and checks no line leaked the secret. */
async function refusalSince(s: Session, since: number, msg: string, problem: RegExp) {
  const line = await waitFor(
    () => s.proc.logs.slice(since).find((l) => l.msg === msg && problem.test(String(l.problem))),
    `"${msg}" with a problem matching ${problem} (logged: ${JSON.stringify(s.proc.logs.slice(since)).slice(0, 600)})`,
    20_000,
  );
  assert.equal(line.level, 40, 'logged as a warning');
  const leaked = s.proc.logs
    .slice(since)
    .filter((l) => JSON.stringify(l).includes('hostile-marker'));
  assert.deepEqual(leaked, [], 'no log line shows the body');
  return line;
}

/** Submit, in whichever message of the batch holds it; then the answer file. */
async function submitAndReadAnswers(s: Session): Promise<unknown> {
  const blocks = () => s.slack.message(CHANNEL, s.ts)?.blocks ?? [];
  const yes = findElement(blocks(), 'o7.yes-no:1:yes');
  await s.slack.clickButton({
    channel: CHANNEL,
    ts: s.ts,
    blockId: yes.blockId,
    actionId: yes.actionId,
    user: ALICE,
  });
  await waitFor(() => JSON.stringify(blocks()).includes('✓ Yes'), 'yes shown', 20_000);
  const submit = findElement(blocks(), 'o7.submit');
  const result = await s.slack.clickButton({
    channel: CHANNEL,
    ts: s.ts,
    blockId: submit.blockId,
    actionId: submit.actionId,
    user: ALICE,
  });
  assert.equal(result.acked, true);
  const qa = path.join(s.runDir, 'qa');
  await waitFor(
    async () => (await readdir(qa)).includes('q-answers-001.json'),
    'q-answers-001.json',
    20_000,
  );
  return JSON.parse(await readFile(path.join(qa, 'q-answers-001.json'), 'utf8'));
}

/** One malformed request in HTTP mode and how it must be refused. */
interface HttpCase {
  name: string;
  body: string;
  contentType: string;
  status: number;
  problem: RegExp;
}

const HTTP_CASES: HttpCase[] = [
  // Not an object (Bolt read `body.ssl_check` of these: null ended the process).
  {
    name: 'payload=null',
    body: 'payload=null',
    contentType: FORM,
    status: 400,
    problem: /^payload is null; expected a JSON object$/,
  },
  {
    name: 'a JSON null body',
    body: 'null',
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is null;/,
  },
  {
    name: 'a payload that is an array',
    body: form(JSON.stringify([click({})])),
    contentType: FORM,
    status: 400,
    problem: /^payload is an array;/,
  },
  {
    name: 'a JSON body that is an array',
    body: JSON.stringify([click({})]),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is an array;/,
  },
  {
    name: 'a payload that is a string',
    body: form(JSON.stringify(SECRET)),
    contentType: FORM,
    status: 400,
    problem: /^payload is a string;/,
  },
  {
    name: 'a JSON body that is a number',
    body: '42',
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is a number;/,
  },
  {
    name: 'a JSON body that is true',
    body: 'true',
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is true;/,
  },
  // Not JSON.
  {
    name: 'a payload that is not JSON',
    body: form(`{"token":"${SECRET}",`),
    contentType: FORM,
    status: 400,
    problem: /^payload is not JSON/,
  },
  {
    name: 'a JSON body that is not JSON',
    body: `{"token":"${SECRET}"`,
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is not JSON/,
  },
  {
    name: 'an empty JSON body',
    body: '',
    contentType: JSON_TYPE,
    status: 400,
    problem: /^the body is not JSON \(0 characters\)$/,
  },
  {
    name: 'payload given twice',
    body: `${form('{}')}&${form('null')}`,
    contentType: FORM,
    status: 400,
    problem: /2 "payload" fields/,
  },
  // No type, or fields Bolt dereferences of the wrong kind.
  {
    name: 'an empty form',
    body: '',
    contentType: FORM,
    status: 400,
    problem: /^the form has no "type"/,
  },
  {
    name: 'a payload without a type',
    body: form(JSON.stringify({ token: SECRET, user })),
    contentType: FORM,
    status: 400,
    problem: /^payload has no "type"/,
  },
  {
    name: 'a type that is a number',
    body: form(JSON.stringify({ type: 7, token: SECRET })),
    contentType: FORM,
    status: 400,
    problem: /^payload\.type is a number;/,
  },
  {
    name: 'a click with user null',
    body: form(JSON.stringify(click({ user: null }))),
    contentType: FORM,
    status: 400,
    problem: /^payload\.user is null; expected an object$/,
  },
  {
    name: 'a click with actions null',
    body: form(JSON.stringify(click({ actions: null }))),
    contentType: FORM,
    status: 400,
    problem: /^payload\.actions is null;/,
  },
  {
    name: 'a click with a null action',
    body: form(JSON.stringify(click({ actions: [null] }))),
    contentType: FORM,
    status: 400,
    problem: /^payload\.actions\[0\] is null;/,
  },
  {
    name: 'a view submission without a view',
    body: form(JSON.stringify({ type: 'view_submission', user, token: SECRET })),
    contentType: FORM,
    status: 400,
    problem: /^payload\.view is missing;/,
  },
  {
    name: 'an event that is null',
    body: JSON.stringify({ type: 'event_callback', token: SECRET, event: null }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^event is null;/,
  },
  {
    name: 'an event without a type',
    body: JSON.stringify({ type: 'event_callback', token: SECRET, event: {} }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^event\.type is missing;/,
  },
  {
    name: 'an event whose channel is null',
    body: JSON.stringify({
      type: 'event_callback',
      event: { type: 'app_home_opened', user: ALICE, channel: null },
    }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^event\.channel is null;/,
  },
  {
    name: 'a slash command without a command',
    body: 'command=&text=x',
    contentType: FORM,
    status: 400,
    problem: /^command is a string; expected a non-empty string$/,
  },
  // url_verification oddities.
  {
    name: 'url_verification without a challenge',
    body: JSON.stringify({ type: 'url_verification', token: SECRET }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^challenge is missing;/,
  },
  {
    name: 'url_verification with an object challenge',
    body: JSON.stringify({ type: 'url_verification', challenge: { token: SECRET } }),
    contentType: JSON_TYPE,
    status: 400,
    problem: /^challenge is an object;/,
  },
  // Content types Slack does not use.
  {
    name: 'text/plain',
    body: form(JSON.stringify(click({}))),
    contentType: 'text/plain',
    status: 415,
    problem: /Content-Type "text\/plain"/,
  },
  {
    name: 'an empty Content-Type',
    body: 'null',
    contentType: '',
    status: 415,
    problem: /Content-Type ""/,
  },
  {
    name: 'a form with a charset (Bolt would read it as JSON)',
    body: form(JSON.stringify(click({}))),
    contentType: `${FORM}; charset=utf-8`,
    status: 415,
    problem: /charset=utf-8/,
  },
  // Too deep to walk.
  {
    name: 'a JSON body nested 100,000 deep',
    body: JSON.stringify({ type: 'event_callback', event: { type: 'x' }, junk: '@' }).replace(
      '"@"',
      deep(100_000),
    ),
    contentType: JSON_TYPE,
    status: 400,
    problem: /more than 64 levels deep/,
  },
];

describe('malformed requests in HTTP mode: each refused with a 4xx, and the relay answers the next click', () => {
  let s: Session;
  before(async () => {
    s = await startSession('http');
  });
  after(async () => {
    await s?.cleanup();
  });

  for (const c of HTTP_CASES) {
    test(`${c.name}: HTTP ${c.status}`, async () => {
      const since = s.proc.logs.length;
      const answer = await s.slack.postSignedBody({ body: c.body, contentType: c.contentType });
      assert.deepEqual(
        answer.kind === 'answered' ? answer.status : answer,
        c.status,
        `HTTP status for ${c.name}`,
      );
      const line = await refusalSince(s, since, HTTP_REFUSAL, c.problem);
      assert.equal(line.status, c.status);
      await answersNextClick(s);
    });
  }

  test(`a body over 4 MB is refused with 413 without being read`, async () => {
    const since = s.proc.logs.length;
    const body = form(JSON.stringify(click({ junk: 'x'.repeat(FIVE_MB) })));
    const answer = await s.slack.postSignedBody({ body, contentType: FORM });
    // The relay answers before reading the rest, so the stand-in may see the answer or, still
    // writing, a reset connection; either way it was refused, as the log says.
    if (answer.kind === 'answered') assert.equal(answer.status, 413);
    else assert.equal(answer.kind, 'error');
    await refusalSince(s, since, HTTP_REFUSAL, /^the body is larger than 4194304 bytes$/);
    await answersNextClick(s);
  });

  test('a well-formed url_verification is still answered with its challenge', async () => {
    const answer = await s.slack.postSignedBody({
      body: JSON.stringify({ type: 'url_verification', token: 'x', challenge: 'c-123' }),
      contentType: JSON_TYPE,
    });
    assert.equal(answer.kind, 'answered');
    if (answer.kind === 'answered') {
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.text), { challenge: 'c-123' });
    }
  });

  test('a click stamped 10 minutes in the future (or past) is refused and changes nothing', async () => {
    const shown = picked(s);
    const other = String((Number(shown ?? '-1') + 1) % 3);
    const control = controlOf(s.slack.message(CHANNEL, s.ts)?.blocks ?? [], 0);
    const ref = {
      channel: CHANNEL,
      ts: s.ts,
      blockId: control.blockId,
      actionId: control.actionId,
    };
    for (const [skew, problem] of [
      [600, /^X-Slack-Request-Timestamp is 6\d\d s in the future;/],
      [-600, /^X-Slack-Request-Timestamp is 6\d\d s in the past;/],
    ] as const) {
      const since = s.proc.logs.length;
      s.slack.skewRequestTimestamps(skew);
      const result = await s.slack.selectOption({ ...ref, user: ALICE, value: other });
      assert.equal(result.acked, false, `a click stamped ${skew} s off was refused`);
      const line = await refusalSince(s, since, HTTP_REFUSAL, problem);
      assert.equal(line.status, 401);
      assert.equal(picked(s), shown, 'the refused click changed nothing');
    }
    // Within the window either way, clicks count.
    s.slack.skewRequestTimestamps(240);
    await answersNextClick(s);
    s.slack.skewRequestTimestamps(-240);
    await answersNextClick(s);
    s.slack.skewRequestTimestamps(0);
  });

  test('after all of them, Submit writes the answer file, and no error went uncaught', async () => {
    const choice = BATCH.questions[0]?.options?.[Number(picked(s))];
    const answers = (await submitAndReadAnswers(s)) as { answers: { answer: unknown }[] };
    assert.deepEqual(
      answers.answers.map((a) => a.answer),
      [choice, true],
    );
    assert.deepEqual(
      s.proc.logs.filter((l) => Number(l.level) >= 50),
      [],
      'no error logged',
    );
  });
});

/** One malformed Socket Mode frame and how it must be refused. */
interface FrameCase {
  name: string;
  frame: string;
  /** the envelope_id the relay must ack it with; none when it carries no usable one */
  ackedAs?: string;
  problem: RegExp;
}

const envelope = (id: string, type: string, payload: unknown, extra = {}) =>
  JSON.stringify({ envelope_id: id, type, payload, accepts_response_payload: true, ...extra });

const FRAME_CASES: FrameCase[] = [
  // Payloads that are not objects (the client read `payload.event` of a null events payload).
  {
    name: 'an interactive envelope with payload null',
    frame: envelope('e-null-1', 'interactive', null),
    ackedAs: 'e-null-1',
    problem: /^payload is null; expected a JSON object$/,
  },
  {
    name: 'an events_api envelope with payload null',
    frame: envelope('e-null-2', 'events_api', null),
    ackedAs: 'e-null-2',
    problem: /^payload is null;/,
  },
  {
    name: 'an envelope without a payload',
    frame: JSON.stringify({ envelope_id: 'e-none', type: 'interactive' }),
    ackedAs: 'e-none',
    problem: /^payload is nothing;/,
  },
  {
    name: 'a payload that is an array',
    frame: envelope('e-arr', 'interactive', [click({})]),
    ackedAs: 'e-arr',
    problem: /^payload is an array;/,
  },
  {
    name: 'a payload that is a string',
    frame: envelope('e-str', 'interactive', SECRET),
    ackedAs: 'e-str',
    problem: /^payload is a string;/,
  },
  {
    name: 'a payload that is a number',
    frame: envelope('e-num', 'slash_commands', 42),
    ackedAs: 'e-num',
    problem: /^payload is a number;/,
  },
  // Frames that are not envelopes at all.
  { name: 'a frame that is null', frame: 'null', problem: /^the frame is null;/ },
  {
    name: 'a frame that is an array',
    frame: '[{"envelope_id":"x"}]',
    problem: /^the frame is an array;/,
  },
  {
    name: 'a frame that is a string',
    frame: JSON.stringify(SECRET),
    problem: /^the frame is a string;/,
  },
  {
    name: 'a frame that is not JSON',
    frame: `{"envelope_id":"x","payload":{"token":"${SECRET}"`,
    problem: /^the frame is not JSON/,
  },
  {
    name: 'an envelope without envelope_id',
    frame: JSON.stringify({ type: 'interactive', payload: click({}) }),
    problem: /^envelope_id is nothing;/,
  },
  {
    name: 'an envelope_id that is a number',
    frame: JSON.stringify({ envelope_id: 5, type: 'interactive', payload: click({}) }),
    problem: /^envelope_id is a number;/,
  },
  // Types the client would emit as its own events.
  {
    name: 'type ws_message',
    frame: envelope('e-ws', 'ws_message', click({})),
    ackedAs: 'e-ws',
    problem: /^type "ws_message" is not a Socket Mode envelope type/,
  },
  {
    name: 'type slack_event (Bolt would get it twice)',
    frame: envelope('e-se', 'slack_event', click({})),
    ackedAs: 'e-se',
    problem: /^type "slack_event" is not/,
  },
  {
    name: 'type error',
    frame: envelope('e-err', 'error', click({})),
    ackedAs: 'e-err',
    problem: /^type "error" is not/,
  },
  {
    name: 'type null',
    frame: JSON.stringify({ envelope_id: 'e-tnull', type: null, payload: click({}) }),
    ackedAs: 'e-tnull',
    problem: /^type is null;/,
  },
  // No type, or fields Bolt dereferences of the wrong kind.
  {
    name: 'an interactive payload without a type',
    frame: envelope('e-notype', 'interactive', { token: SECRET, user }),
    ackedAs: 'e-notype',
    problem: /^payload has no "type"/,
  },
  {
    name: 'an events payload without an event',
    frame: envelope('e-noev', 'events_api', { type: 'event_callback', token: SECRET }),
    ackedAs: 'e-noev',
    problem: /^payload\.event is missing;/,
  },
  {
    name: 'an event that is null',
    frame: envelope('e-evnull', 'events_api', { type: 'event_callback', event: null }),
    ackedAs: 'e-evnull',
    problem: /^payload\.event is null;/,
  },
  {
    name: 'an event without a type',
    frame: envelope('e-evtype', 'events_api', { type: 'event_callback', event: { user: ALICE } }),
    ackedAs: 'e-evtype',
    problem: /^payload\.event\.type is missing;/,
  },
  {
    name: 'a click with user null',
    frame: envelope('e-user', 'interactive', click({ user: null })),
    ackedAs: 'e-user',
    problem: /^payload\.user is null;/,
  },
  {
    name: 'a click with actions null',
    frame: envelope('e-act', 'interactive', click({ actions: null })),
    ackedAs: 'e-act',
    problem: /^payload\.actions is null;/,
  },
  {
    name: 'a view submission without a view',
    frame: envelope('e-view', 'interactive', { type: 'view_submission', user }),
    ackedAs: 'e-view',
    problem: /^payload\.view is missing;/,
  },
  {
    name: 'a slash command without a command',
    frame: envelope('e-cmd', 'slash_commands', { text: 'x', command: null }),
    ackedAs: 'e-cmd',
    problem: /^payload\.command is null;/,
  },
  // Huge, and too deep to walk.
  {
    name: 'a 5 MB frame',
    frame: envelope('e-big', 'interactive', { type: 'block_actions', junk: 'x'.repeat(FIVE_MB) }),
    ackedAs: 'e-big',
    problem: /^payload\.user is missing;/,
  },
  {
    name: 'a payload nested 100,000 deep',
    frame: envelope('e-deep', 'events_api', {
      type: 'event_callback',
      event: { type: 'x' },
      junk: '@',
    }).replace('"@"', deep(100_000)),
    ackedAs: 'e-deep',
    problem: /more than 64 levels deep/,
  },
];

describe('malformed frames in Socket Mode: each refused (and acknowledged when it has an envelope id), and the relay answers the next click', () => {
  let s: Session;
  before(async () => {
    s = await startSession('socket');
  });
  after(async () => {
    await s?.cleanup();
  });

  for (const c of FRAME_CASES) {
    test(`${c.name}: ${c.ackedAs ? 'acknowledged' : 'dropped'}`, async () => {
      const since = s.proc.logs.length;
      const sent = await s.slack.sendSocketFrame(
        c.frame,
        c.ackedAs ? { envelopeId: c.ackedAs } : {},
      );
      assert.equal(sent.sent, true);
      if (c.ackedAs) assert.equal(sent.acked, true, 'the relay acknowledged the envelope');
      const line = await refusalSince(s, since, FRAME_REFUSAL, c.problem);
      assert.equal(line.acknowledged, c.ackedAs !== undefined);
      await answersNextClick(s);
    });
  }

  test('after all of them, Submit writes the answer file, and no error went uncaught', async () => {
    const choice = BATCH.questions[0]?.options?.[Number(picked(s))];
    const answers = (await submitAndReadAnswers(s)) as { answers: { answer: unknown }[] };
    assert.deepEqual(
      answers.answers.map((a) => a.answer),
      [choice, true],
    );
    assert.deepEqual(
      s.proc.logs.filter((l) => Number(l.level) >= 50),
      [],
      'no error logged',
    );
  });
});
