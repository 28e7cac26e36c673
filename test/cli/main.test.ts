import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { acquireStateDirLock } from '../../src/store/state-dir-lock.js';
import { collectOutput } from '../support/child-output.js';
import { startFakeSlack } from '../support/fake-slack/index.js';
import { NODE_LOADER_ARGS, projectModule, repoFile } from '../support/project-paths.js';
import { CHANNEL } from '../support/relay-harness.js';
import { noStack } from '../support/spawn-relay.js';
import { makeTempDir, sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { runCli } from './run-cli.js';

describe('the o7-slack-relay command', () => {
  test('start with a bad configuration exits 2 and names each variable', async () => {
    const { dir, cleanup } = await makeTempDir();
    const result = await runCli(['start'], { SLACK_CHANNEL_ID: 'general' }, dir);
    assert.equal(result.code, 2);
    assert.match(result.err, /SLACK_BOT_TOKEN is not set/);
    assert.match(result.err, /SLACK_CHANNEL_ID must be a channel ID/);
    assert.match(result.err, /see \.env\.example/);
    await cleanup();
  });

  test('start reads .env from the working folder', async () => {
    const { dir, cleanup } = await makeTempDir();
    await writeFile(
      path.join(dir, '.env'),
      'SLACK_BOT_TOKEN=xoxb-1-2-fromdotenv\nSLACK_CHANNEL_ID=nope\n',
    );
    const result = await runCli(['start'], {}, dir);
    assert.equal(result.code, 2);
    assert.doesNotMatch(result.err, /SLACK_BOT_TOKEN/, 'the token came from .env');
    assert.match(result.err, /SLACK_CHANNEL_ID must be a channel ID/);
    await cleanup();
  });

  // Each build script run before the command, and npm start: packaged-relay.slow-test.ts.
  test('the command is bin/o7-slack-relay.js, which no build rewrites: executable, started through its shebang, it runs the built relay', async () => {
    const pkg = JSON.parse(await readFile(repoFile('package.json'), 'utf8'));
    assert.deepEqual(pkg.bin, { 'o7-slack-relay': 'bin/o7-slack-relay.js' });
    assert.ok(pkg.files.includes('bin'), 'the package holds it');
    const launcher = repoFile('bin/o7-slack-relay.js');
    const { mode } = await stat(launcher);
    assert.equal(mode & 0o111, 0o111, `executable by everyone: ${mode.toString(8)}`);
    assert.match(await readFile(launcher, 'utf8'), /^#!\/usr\/bin\/env node\n/);
    // a copy with no src/ beside it, as in the package: it runs what dist/ holds (here the
    // tests' own build), and builds nothing
    const { dir, cleanup } = await makeTempDir('o7-bin-');
    await mkdir(path.join(dir, 'bin'));
    await mkdir(path.join(dir, 'dist', 'src'), { recursive: true });
    const copy = path.join(dir, 'bin', 'o7-slack-relay.js');
    await copyFile(launcher, copy);
    await chmod(copy, mode);
    const entry = pathToFileURL(projectModule('src/main')).href;
    await writeFile(path.join(dir, 'dist', 'src', 'main.js'), `import '${entry}';\n`);
    const child = spawn(copy, ['--version'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: NODE_LOADER_ARGS.join(' ') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = collectOutput(child);
    const code = await new Promise((resolve) => child.once('close', resolve));
    assert.deepEqual(
      { code, out: output.out(), err: output.err() },
      { code: 0, out: `${pkg.version}\n`, err: '' },
    );
    await cleanup();
  });

  test('an unknown command prints usage and exits 2', async () => {
    const { dir, cleanup } = await makeTempDir();
    const result = await runCli(['frobnicate'], {}, dir);
    assert.equal(result.code, 2);
    assert.match(result.err, /unknown command: frobnicate/);
    assert.match(result.err, /Usage:/);
    await cleanup();
  });

  test('--version prints the package version; --help and <command> --help print help and exit 0', async () => {
    const { dir, cleanup } = await makeTempDir();
    const { version } = JSON.parse(await readFile(repoFile('package.json'), 'utf8'));
    const shown = await runCli(['--version'], {}, dir);
    assert.deepEqual(shown, { code: 0, out: `${version}\n`, err: '' });
    const overview = await runCli(['--help'], {}, dir);
    assert.equal(overview.code, 0);
    assert.match(overview.out, /^Usage: o7-slack-relay \[command\] \[options\]\n/);
    assert.equal(overview.err, '');
    const command = await runCli(['preview', '--help'], {}, dir);
    assert.equal(command.code, 0);
    assert.match(command.out, /^Usage: o7-slack-relay preview <q-out file>\n/);
    await cleanup();
  });

  test("an unknown option exits 2 with the command's usage on stderr and nothing on stdout", async () => {
    const { dir, cleanup } = await makeTempDir();
    const result = await runCli(['doctor', '--verbose'], {}, dir);
    assert.equal(result.code, 2);
    assert.equal(result.out, '');
    assert.match(
      result.err,
      /^o7-slack-relay doctor: unknown option --verbose\n\nUsage: o7-slack-relay doctor\n/,
    );
    await cleanup();
  });

  test('check exits 1 and says so when it finds no Q&A files', async () => {
    const { dir, cleanup } = await makeTempDir();
    await mkdir(path.join(dir, 'runs', 'r1'), { recursive: true });
    const result = await runCli(['check', path.join(dir, 'runs')], {}, dir);
    assert.equal(result.code, 1);
    assert.match(result.err, /found no Q&A files to check/);
    await cleanup();
  });

  test('check exits 0 for valid files and 1 with the error for a bad one', async () => {
    const { dir, cleanup } = await makeTempDir();
    await writeQuestionFile(path.join(dir, 'run'), 1, sampleBatch(1));
    const good = await runCli(['check', path.join(dir, 'run')], {}, dir);
    assert.equal(good.code, 0, good.err);
    assert.match(good.out, /ok {2}.*q-out-001\.json/);
    await writeQuestionFile(path.join(dir, 'run'), 2, '{"seq": 3, "questions": []}');
    const bad = await runCli(['check', path.join(dir, 'run')], {}, dir);
    assert.equal(bad.code, 1);
    assert.match(bad.out + bad.err, /q-out-002\.json/);
    assert.match(bad.out + bad.err, /seq/);
    await cleanup();
  });

  test('preview prints only JSON on stdout, and a Block Kit Builder link per message on stderr', async () => {
    const { dir, cleanup } = await makeTempDir();
    const file = await writeQuestionFile(path.join(dir, 'run-p'), 1, sampleBatch(1));
    const result = await runCli(['preview', file], {}, dir);
    assert.equal(result.code, 0, result.err);
    const messages = JSON.parse(result.out);
    assert.ok(Array.isArray(messages));
    assert.equal(messages[0].blocks[0].type, 'header');
    assert.match(messages[0].text, /^Run run-p, batch 1: Output format\?/);
    const links = [
      ...result.err.matchAll(
        /in Block Kit Builder: (https:\/\/app\.slack\.com\/block-kit-builder\/#\S+)/g,
      ),
    ];
    assert.equal(links.length, messages.length);
    const encoded = links[0]?.[1]?.split('#')[1] ?? '';
    assert.deepEqual(JSON.parse(decodeURIComponent(encoded)), { blocks: messages[0].blocks });
    await cleanup();
  });

  test('a second relay on a locked state dir prints the lock message without a stack and exits 1', async () => {
    const slack = await startFakeSlack();
    const { dir, cleanup } = await makeTempDir();
    const stateDir = path.join(dir, 'state');
    await mkdir(stateDir, { recursive: true });
    // the first relay: the test runner holds the lock as a relay does
    const lock = await acquireStateDirLock(stateDir, pino({ level: 'silent' }));
    const env = {
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_CHANNEL_ID: CHANNEL,
      SLACK_API_URL: slack.apiUrl,
      RELAY_WATCH: path.join(dir, 'runs'),
      RELAY_STATE_DIR: stateDir,
    };
    const result = await runCli(['start'], env, dir);
    assert.equal(result.code, 1, result.err);
    const said = `another relay (pid ${process.pid}) is using ${stateDir}; stop it`;
    assert.ok(result.err.includes(said), result.err);
    noStack(result.err);
    assert.doesNotMatch(result.err, /StateDirLockedError/);
    await lock.release();
    await slack.close();
    await cleanup();
  });

  test('doctor passes against a healthy workspace and explains each failure', async () => {
    const slack = await startFakeSlack();
    const { dir, cleanup } = await makeTempDir();
    const env = {
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_CHANNEL_ID: CHANNEL,
      SLACK_API_URL: slack.apiUrl,
    };
    const healthy = await runCli(['doctor'], env, dir);
    assert.equal(healthy.code, 0, healthy.out + healthy.err);
    assert.match(healthy.out, /ok {4}SLACK_BOT_TOKEN works/);
    assert.match(healthy.out, /ok {4}channel #\S+ \(C0RELAY01\) exists and the bot is in it/);
    assert.match(healthy.out, /ok {4}SLACK_APP_TOKEN works: Socket Mode can connect/);
    assert.equal(slack.connectionsOpened, 0, 'doctor opened no Socket Mode connection');

    slack.addChannel({ id: 'C0OUTSIDE', name: 'outside', members: [], botIsMember: false });
    const broken = await runCli(
      ['doctor'],
      { ...env, SLACK_CHANNEL_ID: 'C0OUTSIDE', SLACK_APP_TOKEN: 'xapp-1-A1-2-wrong' },
      dir,
    );
    assert.equal(broken.code, 1);
    assert.match(broken.out, /FAIL {2}the bot is not in #outside/);
    assert.match(broken.out, /fix: in Slack, open #outside and type \/invite/);
    assert.match(broken.out, /FAIL {2}Slack refused SLACK_APP_TOKEN \(invalid_auth\)/);
    assert.match(broken.out, /2 checks failed/);

    const badToken = await runCli(['doctor'], { ...env, SLACK_BOT_TOKEN: 'xoxb-1-2-wrong' }, dir);
    assert.equal(badToken.code, 1);
    assert.match(
      badToken.out,
      /FAIL {2}Slack refused SLACK_BOT_TOKEN \(invalid_auth\)\n {6}fix: SLACK_BOT_TOKEN is wrong, revoked/,
    );
    await slack.close();
    await cleanup();
  });
});
