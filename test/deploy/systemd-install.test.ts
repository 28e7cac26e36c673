// A systemd install as docs/service.md sets it up: the relay runs as its own user (the unit's
// User= and Group=), an orchestrator runs `ask` as another user, a member of the relay's
// group, and an operator runs `doctor` as the relay's user with relay.env. Permissions do not
// stop root, so the test needs root to be these users: the state folder is made the way
// systemd makes it for the unit (StateDirectory= with StateDirectoryMode=, then the unit's
// ExecStartPre= as its user, under its UMask=), and the relay, `ask` and `doctor` run as real
// child processes under numeric ids no account uses, with the documented command lines.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, chown, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { asksRoot } from '../../src/ask/ask-folder.js';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { jsonBlock, rateLimitQuestion } from '../core/envelope/envelope-samples.js';
import { askMessage, choose, click } from '../e2e/relay-steps.js';
import { collectOutput } from '../support/child-output.js';
import { needs, program, reachableBy, rootUser } from '../support/preconditions.js';
import { NODE_LOADER_ARGS, projectModule, REPO } from '../support/project-paths.js';
import { CHANNEL } from '../support/relay-harness.js';
import { relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';
import { execWords, readServiceSection } from './systemd-unit-file.js';

interface Identity {
  uid: number;
  gid: number;
  groups: number[];
}

/** The unit's user and group; a member of the group; someone else. No account has these ids. */
const RELAY: Identity = { uid: 64_801, gid: 64_801, groups: [] };
const MEMBER: Identity = { uid: 64_802, gid: 64_802, groups: [RELAY.gid] };
const STRANGER: Identity = { uid: 64_803, gid: 64_803, groups: [] };

/** The documented command lines for a systemd install, and the paths in them. */
const DOCUMENTED_DOCTOR =
  'sudo -u o7-relay env RELAY_STATE_DIR=/var/lib/o7-slack-relay /usr/bin/node --env-file=/etc/o7-slack-relay/relay.env dist/src/main.js doctor';
const DOCUMENTED_ASK =
  'RELAY_STATE_DIR=/var/lib/o7-slack-relay node /opt/o7-slack-relay/dist/src/main.js ask final-message.md';

/** `f()` with the process umask set to `mask`: children started in it inherit that umask. */
function withUmask<T>(mask: number, f: () => T): T {
  const before = process.umask(mask);
  try {
    return f();
  } finally {
    process.umask(before);
  }
}

/**
 * A command run by setpriv as `who`, with exactly its groups, under `umask`, its standard input
 * /dev/null as systemd gives a unit. None of these commands reads it; a pipe here was written
 * after the spawn, and a child done by then (`install -d` takes milliseconds) made that write
 * fail with EPIPE, which ended the test instead of the child's exit code. `why()` says how the
 * child ended and what it printed on stderr, for the assertion on its exit.
 */
function runAs(
  who: Identity,
  umask: number,
  argv: string[],
  opts: { cwd: string; env?: Record<string, string> },
) {
  const ids = [`--reuid=${who.uid}`, `--regid=${who.gid}`];
  const groups = who.groups.length > 0 ? [`--groups=${who.groups.join(',')}`] : ['--clear-groups'];
  const child = withUmask(umask, () =>
    spawn('setpriv', [...ids, ...groups, '--', ...argv], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH ?? '', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const output = collectOutput(child);
  let ended = 'still running';
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', (error) => {
      ended = `not started: ${error.message}`;
      resolve(null);
    });
    child.once('close', (code, signal) => {
      ended = signal === null ? `exit ${code}` : `killed by ${signal}`;
      resolve(code);
    });
  });
  const why = () =>
    `${argv.join(' ')} as uid ${who.uid}: ${ended}; stderr: ${output.err().trim() || '(empty)'}`;
  return { ...output, exited, why, kill: () => child.kill('SIGKILL') };
}

/**
 * A documented command line as argv and environment here: `sudo -u` and `env` dropped (the
 * caller runs it as that user), `NAME=value` words into the environment, the install's paths
 * replaced by `paths`, node as this node, and the relay's main module as this build's.
 */
function fromDoc(line: string, paths: Record<string, string>) {
  const words = line.replace(/^sudo -u \S+ env /, '').split(' ');
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name, value] = (words.shift() as string).split('=') as [string, string];
    env[name] = paths[value] ?? value;
  }
  const swap = (word: string) =>
    Object.entries(paths).reduce((w, [from, to]) => w.replace(from, to), word);
  const [node, ...rest] = words;
  assert.match(node ?? '', /^(\/usr\/bin\/)?node$/);
  const main = rest.findIndex((w) => w.endsWith('dist/src/main.js'));
  const argv = [
    process.execPath,
    ...rest.slice(0, main).map(swap),
    ...NODE_LOADER_ARGS,
    projectModule('src/main'),
    ...rest.slice(main + 1),
  ];
  return { argv, env };
}

const agentMessage = [
  'Two ways to limit the rate; which one?',
  jsonBlock({ openQuestions: [rateLimitQuestion] }),
].join('\n\n');

/** Each test: child processes and the stand-in on a loaded machine, and never a hang. */
const EACH = { timeout: 120_000 };

const modeOf = async (file: string) => (await stat(file)).mode & 0o7777;

/** What the tests need: root, to be the users; setpriv; and those users able to reach the clone. */
const AS_THE_USERS = needs(
  rootUser('alone may run the relay, ask and doctor as other users'),
  program('setpriv', 'install util-linux (apt-get install util-linux)'),
  // the other two differ from it only in groups, which own nothing on the way to the clone
  reachableBy(RELAY, `the unit's user (uid ${RELAY.uid})`),
);

describe('a systemd install as docs/service.md sets it up', AS_THE_USERS, () => {
  const running: { kill: () => void }[] = [];
  const fx = relayProcessPerTest('o7-systemd-install-', () => {
    for (const proc of running.splice(0)) proc.kill();
  });
  const stateDir = () => path.join(fx.root, 'state');

  /** The state folder as systemd makes it for the unit, and the relay started as the unit does. */
  async function startLikeTheUnit(): Promise<void> {
    const { one } = readServiceSection();
    const umask = Number.parseInt(one('UMask'), 8);
    // the folders above it are root's and open to all, like /var/lib
    await chmod(fx.root, 0o755);
    await mkdir(stateDir());
    await chown(stateDir(), RELAY.uid, RELAY.gid);
    await chmod(stateDir(), Number.parseInt(one('StateDirectoryMode'), 8));
    await chown(path.join(fx.root, 'runs'), RELAY.uid, RELAY.gid);
    const pre = execWords(one('ExecStartPre'), { RELAY_STATE_DIR: stateDir() });
    const started = runAs(RELAY, umask, pre, { cwd: fx.root });
    assert.equal(await started.exited, 0, `ExecStartPre: ${started.why()}`);
    fx.relay = withUmask(umask, () =>
      spawnRelayFor(fx.slack, fx.root, { logLevel: 'info', user: RELAY }),
    );
    await fx.relay.waitForLog('relay ready');
  }

  /** The documented `ask` line run as `who` under `umask`, on an agent's message in its folder. */
  async function askAs(who: Identity, umask: number) {
    const { argv, env } = fromDoc(DOCUMENTED_ASK, { '/var/lib/o7-slack-relay': stateDir() });
    const work = path.join(fx.root, `work-${who.uid}`);
    await mkdir(work);
    await writeFile(path.join(work, 'final-message.md'), agentMessage);
    await chown(work, who.uid, who.gid);
    const ask = runAs(who, umask, argv, { cwd: work, env });
    running.push(ask);
    return ask;
  }

  test('docs/service.md gives these command lines', async () => {
    const doc = await readFile(path.join(REPO, 'docs/service.md'), 'utf8');
    for (const line of [DOCUMENTED_DOCTOR, DOCUMENTED_ASK]) assert.ok(doc.includes(line), line);
  });

  test(
    'ask, as a member of the group, is answered in Slack and prints the resume message',
    EACH,
    async () => {
      await startLikeTheUnit();
      // a strict umask: what ask makes must still be open to the relay's group
      const ask = await askAs(MEMBER, 0o077);
      const posted = await askMessage(fx.slack);
      await choose(fx.slack, posted.ts, 0, [0]);
      await click(fx.slack, posted.ts, ACTION_KINDS.submit);
      assert.equal(await ask.exited, 0, ask.why());
      assert.equal(ask.out(), 'Rate limit: Token bucket per IP (Recommended)\n');

      // the ask folder is the member's, in the relay's group, which may write the answer there
      const [id] = await readdir(asksRoot(stateDir()));
      const folder = path.join(asksRoot(stateDir()), id as string);
      for (const dir of [folder, path.join(folder, 'qa')]) {
        const info = await stat(dir);
        assert.deepEqual([info.uid, info.gid], [MEMBER.uid, RELAY.gid], dir);
        assert.equal(await modeOf(dir), 0o2770, dir);
      }
      const answer = await stat(path.join(folder, 'qa', 'q-answers-001.json'));
      assert.equal(answer.uid, RELAY.uid, 'the relay wrote the answer file');
    },
  );

  test(
    "a member's ask folder can be removed by the relay's user, as its hourly clean-up does",
    EACH,
    async () => {
      await startLikeTheUnit();
      const ask = await askAs(MEMBER, 0o022);
      const posted = await askMessage(fx.slack);
      await click(fx.slack, posted.ts, ACTION_KINDS.cancel);
      assert.equal(await ask.exited, 5, ask.why());
      const [id] = await readdir(asksRoot(stateDir()));
      const folder = path.join(asksRoot(stateDir()), id as string);
      const rm = runAs(RELAY, 0o022, ['rm', '-r', folder], { cwd: fx.root });
      assert.equal(await rm.exited, 0, rm.why());
      assert.deepEqual(await readdir(asksRoot(stateDir())), []);
    },
  );

  test('ask, as someone outside the group, is told why, and nothing is asked', EACH, async () => {
    await startLikeTheUnit();
    const ask = await askAs(STRANGER, 0o022);
    assert.equal(await ask.exited, 1, ask.why());
    assert.match(ask.err(), /may not read \S+relay\.lock \(EACCES: permission denied\)/);
    assert.match(ask.err(), /member of the relay's group/);
    assert.deepEqual(fx.slack.messages(CHANNEL), []);
  });

  test(
    "doctor, as the relay's user with relay.env made from .env.example, passes",
    EACH,
    async () => {
      await startLikeTheUnit();
      // .env.example with the Slack values filled in and RELAY_WATCH set, as docs/service.md says
      const filled: Record<string, string> = {
        SLACK_BOT_TOKEN: fx.slack.botToken,
        SLACK_APP_TOKEN: fx.slack.appToken,
        SLACK_CHANNEL_ID: CHANNEL,
        SLACK_API_URL: fx.slack.apiUrl,
      };
      const example = await readFile(path.join(REPO, '.env.example'), 'utf8');
      const relayEnv = `${example
        .split('\n')
        .map((line) => {
          const name = /^([A-Z_]+)=/.exec(line)?.[1];
          return name && name in filled ? `${name}=${filled[name]}` : line;
        })
        .join('\n')}\nRELAY_WATCH=${path.join(fx.root, 'runs')}\n`;
      const envFile = path.join(fx.root, 'relay.env');
      await writeFile(envFile, relayEnv, { mode: 0o600 });
      await chown(envFile, RELAY.uid, RELAY.gid);

      const { argv, env } = fromDoc(DOCUMENTED_DOCTOR, {
        '/var/lib/o7-slack-relay': stateDir(),
        '/etc/o7-slack-relay/relay.env': envFile,
      });
      const doctor = runAs(RELAY, 0o022, argv, { cwd: fx.root, env });
      running.push(doctor);
      assert.equal(await doctor.exited, 0, `${doctor.why()}; stdout: ${doctor.out()}`);
      assert.match(doctor.out(), /^ok {4}SLACK_BOT_TOKEN works/m);
      assert.match(doctor.out(), /^All checks passed\.$/m);
      // and only the relay's user (and root) may read the tokens
      const member = runAs(MEMBER, 0o022, ['cat', envFile], { cwd: fx.root });
      assert.notEqual(await member.exited, 0, member.why());
    },
  );
});
