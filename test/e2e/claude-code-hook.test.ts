// Claude Code itself (the real CLI, interactive under tmux, offline against the model
// stand-in) calling `o7-slack-relay hook`, which asks the real relay, which posts to the Slack
// stand-in, where a person clicks: what they chose reaches the model as the tool_result. Each
// run of the CLI costs seconds of CPU and 300 MB, so the tests are few and run one by one.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { relayHookEntries } from '../../src/core/claude-code/hook-settings.js';
import { deniedBecause } from '../../src/core/claude-code/permission-hook.js';
import {
  ACTION_KINDS,
  actionId,
  CALLBACK_IDS,
  NOTE_INPUT,
} from '../../src/core/slack/controls/ids.js';
import { claudeCli, startClaude } from '../support/claude-under-tmux.js';
import type { FakeSlack } from '../support/fake-slack/index.js';
import {
  CLAUDE_WAIT_MS,
  resultText,
  startModelStandin,
  toolResults,
} from '../support/model-standin.js';
import { needs } from '../support/preconditions.js';
import { COMMAND, NODE_LOADER_ARGS } from '../support/project-paths.js';
import {
  ALICE,
  BOB,
  CHANNEL,
  elementsOf,
  type Harness,
  type RelayHarnessOptions,
  visibleText,
} from '../support/relay-harness.js';
import { makeTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  at,
  choose,
  click,
  current,
  directCopy,
  elementById,
  handOffBatch,
  holdMessageUpdates,
  nextEphemeral,
  relayStarter,
  submitFormOf,
} from './relay-steps.js';

const PROJECTS_CHANNEL = 'C0PROJS01';
const CAROL = 'U0CAROL01';

/**
 * The settings `hook install` writes, pointed at this build and the test relay's state: the
 * o7-slack-relay command, which runs `hook` from its bundle.
 */
const hookSettings = (stateDir: string, hookArgs: readonly string[] = []) => {
  const command = [
    process.execPath,
    ...NODE_LOADER_ARGS,
    COMMAND,
    'hook',
    '--state-dir',
    stateDir,
    ...hookArgs,
  ]
    .map((word) => `'${word}'`)
    .join(' ');
  return { hooks: relayHookEntries(`exec ${command}`) };
};

const DATABASE = 'Which database should the service use?';
const askDatabase = {
  toolUse: {
    name: 'AskUserQuestion',
    input: {
      questions: [
        {
          question: DATABASE,
          header: 'Database',
          options: [
            {
              label: 'Postgres',
              description: 'Relational, mature',
              preview: '```sql\nCREATE TABLE jobs (id serial);\n```',
            },
            { label: 'SQLite', description: 'One file, no server' },
          ],
          multiSelect: false,
        },
      ],
    },
  },
};
const SECRET = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123';
/** The scene's turns and prompt when Claude runs curl against a closed loopback port, `pathName`. */
const probing = (pathName: string, header = '') => ({
  turns: [
    {
      toolUse: {
        name: 'Bash',
        input: {
          command: `curl -s -m 1 ${header}http://127.0.0.1:9/${pathName}`,
          description: 'Probe a closed loopback port',
        },
      },
    },
    { text: 'Ok.' },
  ],
  prompt: 'probe the port',
});

/** The relay's message whose header starts "Claude Code", in `channel`. */
function hookMessage(h: Harness, channel = CHANNEL) {
  return waitFor(
    () =>
      h.slack
        .messages(channel)
        .find((m) => JSON.stringify(m.blocks[0] ?? {}).includes('"Claude Code')),
    `the hook's message in ${channel}`,
    CLAUDE_WAIT_MS,
  );
}

/** The hook's message once it shows no controls: closed, answered or withdrawn. */
const messageClosed = (h: Harness, ts: string) =>
  waitFor(
    () => elementsOf(current(h.slack, ts).blocks).length === 0 && current(h.slack, ts),
    'the message closed',
    CLAUDE_WAIT_MS,
  );

/** A relay, the model stand-in and Claude Code in a project folder, all stopped after the test. */
function scene() {
  const startRelay = relayStarter();
  const cleanups: (() => Promise<void>)[] = [];
  const after = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  /** Starts the scene for test `t`, stopped after it. */
  const start = async (
    t: TestContext,
    opts: {
      mode: 'socket' | 'http';
      turns: Parameters<typeof startModelStandin>[0];
      prompt: string;
      relay?: boolean;
      /** the project lies in a watched folder of its own channel */
      projectChannel?: boolean;
      /** sets the stand-in up before the relay starts, e.g. with one more person */
      stage?: (slack: FakeSlack) => void;
      /** settings laid over the relay's, e.g. an allow list */
      config?: RelayHarnessOptions['config'];
      /** more arguments of the hook's command line, e.g. `--wait` */
      hookArgs?: readonly string[];
    },
  ) => {
    t.after(after);
    const h = await startRelay({
      mode: opts.mode,
      ...(opts.config ? { config: opts.config } : {}),
      prepare: (slack, root) => {
        opts.stage?.(slack);
        if (!opts.projectChannel) return {};
        slack.addChannel({ id: PROJECTS_CHANNEL, name: 'projects', members: [ALICE] });
        return {
          watch: [
            { path: path.join(root, 'runs'), channel: CHANNEL },
            { path: path.join(root, 'projects'), channel: PROJECTS_CHANNEL },
          ],
        };
      },
    });
    const model = await startModelStandin(opts.turns);
    cleanups.push(() => model.close());
    const { dir, cleanup } = await makeTempDir('o7-claude-');
    cleanups.push(cleanup);
    const stateDir = opts.relay === false ? path.join(dir, 'no-relay-state') : h.config.stateDir;
    const claude = await startClaude({
      root: dir,
      project: path.join(opts.projectChannel ? path.join(h.root, 'projects') : dir, 'proj'),
      modelUrl: model.url,
      settings: hookSettings(stateDir, opts.hookArgs),
      prompt: opts.prompt,
    });
    cleanups.push(() => claude.stop());
    return { h, model, claude };
  };
  /** The scene of Claude asking which database to use, once its question is in Slack. */
  const askedDatabase = async (t: TestContext) => {
    const scene = await start(t, {
      mode: 'socket',
      turns: [askDatabase, { text: 'Ok.' }],
      prompt: 'pick a database',
    });
    return { ...scene, posted: await hookMessage(scene.h) };
  };
  return { start, askedDatabase };
}

describe(
  'Claude Code asks in Slack through o7-slack-relay hook (the real CLI)',
  needs(claudeCli()),
  () => {
    const { start, askedDatabase } = scene();

    test('AskUserQuestion answered in Slack reaches the model (socket mode)', async (t) => {
      const { h, model, posted } = await askedDatabase(t);
      const seen = visibleText(posted);
      assert.match(seen, /Claude Code asks a question/);
      assert.match(seen, /project .*proj · session /, 'the project and session under the title');
      assert.match(seen, /Relational, mature/);
      assert.match(JSON.stringify(posted.blocks), /CREATE TABLE jobs/, "the option's preview");
      await choose(h.slack, posted.ts, 0, [1]);
      await click(h.slack, posted.ts, ACTION_KINDS.submit);
      const next = await model.turnRequest(1);
      assert.match(
        resultText(toolResults(next)[0]),
        /"Which database should the service use\?"="SQLite"/,
      );
    });

    test('a permission prompt denied in Slack, with a reason typed in its form, reaches the model as its error; secrets are not posted (HTTP mode)', async (t) => {
      const { h, model, claude } = await start(t, {
        mode: 'http',
        ...probing('deny', `-H 'Authorization: Bearer ${SECRET}' `),
      });
      const posted = await hookMessage(h);
      await claude.waitForScreen(/Do you want to proceed\?/);
      const seen = JSON.stringify(posted);
      assert.ok(!seen.includes(SECRET.slice(8)), 'the token is masked');
      assert.match(seen, /Authorization: Bearer \[masked\]/);
      assert.match(seen, /curl -s -m 1/);
      const answers = elementsOf(posted.blocks)
        .filter((e) => /^o7\.(one-tap|note):0:/.test(e.actionId))
        .map((e) => [(e.element.text as { text: string }).text, e.actionId] as const);
      const labels = answers.map(([label]) => label);
      assert.equal(labels[0], 'Allow');
      assert.match(
        labels[1] ?? '',
        /^Always allow Bash\(curl .*\(in \.claude\/settings\.local\.json\)$/,
      );
      assert.deepEqual(labels.slice(2), ['Deny…', 'Deny and stop Claude']);
      assert.equal(answers[2]?.[1], actionId(ACTION_KINDS.note, 0, 2), 'Deny opens its form');
      const reason = 'the deploy service is frozen until Monday';
      const { form } = await submitFormOf(h.slack, posted.ts, actionId(ACTION_KINDS.note, 0, 2), {
        [NOTE_INPUT.blockId]: { [NOTE_INPUT.actionId]: reason },
      });
      assert.deepEqual(
        [form.callback_id, (form.title as { text?: string }).text],
        [CALLBACK_IDS.note, 'Deny'],
      );
      const next = await model.turnRequest(1);
      const [result] = toolResults(next);
      assert.equal(resultText(result), deniedBecause(reason));
      assert.equal(result?.is_error, true);
      const final = visibleText(await messageClosed(h, posted.ts));
      assert.match(final, /Answered by <@U0ALICE01>/);
      assert.match(final, /Note: the deploy service is frozen until Monday/, 'the team sees why');
    });

    test("Always allow keeps the rule in the project's settings, and the batch went to the project's channel (socket mode)", async (t) => {
      const { h, model, claude } = await start(t, {
        mode: 'socket',
        ...probing('always'),
        projectChannel: true,
      });
      const posted = await hookMessage(h, PROJECTS_CHANNEL);
      const always = elementsOf(posted.blocks).find((e) =>
        /^Always allow/.test((e.element.text as { text?: string } | undefined)?.text ?? ''),
      );
      assert.ok(always, 'an Always allow button');
      await h.slack.clickButton({ ...at(posted.ts, always), channel: PROJECTS_CHANNEL });
      const next = await model.turnRequest(1);
      assert.equal(resultText(toolResults(next)[0]), 'Exit code 7', 'curl ran');
      const local = JSON.parse(
        await readFile(path.join(claude.project, '.claude', 'settings.local.json'), 'utf8'),
      );
      assert.deepEqual(local.permissions?.allow, ['Bash(curl -s -m 1 http://127.0.0.1:9/always)']);
    });

    test('with no relay running, Claude Code asks in the terminal', async (t) => {
      const { h, claude, model } = await start(t, {
        mode: 'socket',
        ...probing('none'),
        relay: false,
      });
      await claude.waitForScreen(/Do you want to proceed\?/);
      await claude.keys('1');
      const next = await model.turnRequest(1);
      assert.equal(resultText(toolResults(next)[0]), 'Exit code 7', 'allowed at the terminal');
      assert.equal(h.slack.messages(CHANNEL).length, 0, 'nothing was posted');
    });

    test('nobody answers within --wait: the Slack message closes and the terminal still asks (socket mode)', async (t) => {
      const { h, claude, model } = await start(t, {
        mode: 'socket',
        ...probing('wait'),
        hookArgs: ['--wait', '2s'],
      });
      const posted = await hookMessage(h);
      const closed = await messageClosed(h, posted.ts);
      assert.match(visibleText(closed), /Closed: answered in the terminal, or left to it/);
      await claude.waitForScreen(/Do you want to proceed\?/);
      await claude.keys('1');
      const next = await model.turnRequest(1);
      assert.equal(resultText(toolResults(next)[0]), 'Exit code 7', 'allowed at the terminal');
    });

    test('a permission prompt handed off to Bob is allowed by him from his copy; Carol, off the allow list, changes nothing (HTTP mode)', async (t) => {
      const { h, model } = await start(t, {
        mode: 'http',
        ...probing('handed'),
        stage: (slack) => {
          slack.addUser({ id: CAROL, name: 'carol' });
          slack.addChannel({ id: CHANNEL, name: 'o7-relay', members: [ALICE, BOB, CAROL] });
        },
        config: { allowedUsers: { users: [ALICE, BOB], groups: [] } },
      });
      const posted = await hookMessage(h);
      const allow = `${actionId(ACTION_KINDS.oneTap, 0)}:0`;
      await click(h.slack, posted.ts, allow, CAROL);
      assert.match(
        (await nextEphemeral(h.slack, CAROL, 0)).text,
        /may answer these questions.*Nothing was changed/,
      );
      assert.ok(elementsOf(current(h.slack, posted.ts).blocks).length > 0, 'still open');

      await handOffBatch(h.slack, { channel: CHANNEL, ts: posted.ts, from: ALICE, to: BOB });
      const copy = await directCopy(h.slack, BOB);
      const button = elementById(h.slack.message(copy.channel, copy.ts)?.blocks ?? [], allow);
      await h.slack.clickButton({ ...at(copy.ts, button, BOB), channel: copy.channel });
      const next = await model.turnRequest(1);
      assert.equal(resultText(toolResults(next)[0]), 'Exit code 7', 'curl ran');
      const closed = await messageClosed(h, posted.ts);
      assert.match(visibleText(closed), new RegExp(`Answered by <@${BOB}>`));
    });

    test('Esc at the terminal closes the Slack message, and a click after it is told so', async (t) => {
      const { h, claude, posted } = await askedDatabase(t);
      const radio = elementById(posted.blocks, actionId(ACTION_KINDS.choose, 0));
      await claude.waitForScreen(/esc to interrupt/);
      // Slack takes no edits for a while: the person still sees the question and clicks it
      const hold = holdMessageUpdates(h.slack);
      await claude.keys('Escape');
      await claude.waitForScreen(/User declined to answer questions/);
      await hold.waitRefused();
      const seen = h.slack.ephemerals(ALICE).length;
      await h.slack.selectOption({ ...at(posted.ts, radio), value: '0' });
      assert.match((await nextEphemeral(h.slack, ALICE, seen)).text, /answered in the terminal/);
      hold.release();
      const closed = await messageClosed(h, posted.ts);
      assert.match(visibleText(closed), /Closed: answered in the terminal/);
    });

    test('when Claude Code exits while the hook waits, the hook ends and the Slack message closes', async (t) => {
      const { h, claude, posted } = await askedDatabase(t);
      await claude.stop(); // Claude Code does not end its hooks as it exits
      const closed = await messageClosed(h, posted.ts);
      assert.match(visibleText(closed), /Closed: answered in the terminal, or left to it/);
    });
  },
);
