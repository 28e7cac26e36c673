import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, readdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { collectOutput } from '../support/child-output.js';
import { REPO } from '../support/project-paths.js';
import { noStack } from '../support/spawn-relay.js';
import { makeTempDir } from '../support/temp-dir.js';
import { readDockerfile } from './read-dockerfile.js';

/** Runs a program to its end; its exit code and output. */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = collectOutput(child);
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout: output.out(), stderr: output.err() }));
  });
}

const LONG = { timeout: 300_000 };

// The real thing, end to end: `npm pack` (its prepack builds dist/), the tarball run with npx
// from an empty folder, and the container's command line after the runtime stage's
// `npm ci --omit=dev`. Dependencies come from npm's cache, or the registry when it lacks them.
// About 45 s of building and installing, so not in `npm test`: `npm run test:package`, which
// CI runs after it.
describe('the packed relay', () => {
  const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    version: string;
  };
  let root: string;
  let cleanup: () => Promise<void>;
  let tarball: string;
  let packedFiles: string[];

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('o7-packed-'));
    const packed = await run('npm', ['pack', '--json', '--pack-destination', root], { cwd: REPO });
    assert.equal(packed.code, 0, packed.stderr);
    const [report] = JSON.parse(packed.stdout) as {
      filename: string;
      files: { path: string }[];
    }[];
    assert.ok(report);
    tarball = path.join(root, report.filename);
    packedFiles = report.files.map((f) => f.path);
  }, LONG);

  after(() => cleanup());

  test('holds the build, .env.example, manifest.yml and the README, and no sources', () => {
    for (const file of ['dist/src/main.js', '.env.example', 'manifest.yml', 'README.md']) {
      assert.ok(packedFiles.includes(file), `${file} is in the package`);
    }
    const others = packedFiles.filter(
      (f) =>
        !/^dist\/src\/.+\.js$/.test(f) &&
        !/^(package\.json|\.env\.example|manifest\.yml|README\.md)$/.test(f),
    );
    assert.deepEqual(others, [], 'nothing but the build and those files');
  });

  test(
    'npx o7-slack-relay@<tarball> --help and --version work from an empty folder',
    LONG,
    async () => {
      const empty = path.join(root, 'empty');
      await mkdir(empty);
      // npx installs into <cache>/_npx: a cache of the test's own, sharing npm's downloads
      const cache = path.join(root, 'npm-cache');
      await mkdir(cache);
      const npmCache = (await run('npm', ['config', 'get', 'cache'], { cwd: empty })).stdout.trim();
      await mkdir(path.join(npmCache, '_cacache'), { recursive: true });
      await symlink(path.join(npmCache, '_cacache'), path.join(cache, '_cacache'));
      const env = { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' };
      // the form people type: npx <name>@<tarball>
      const npx = (flag: string) =>
        run('npx', ['--yes', '--prefer-offline', `o7-slack-relay@${tarball}`, flag], {
          cwd: empty,
          env,
        });
      const help = await npx('--help');
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /^Usage: o7-slack-relay \[command\] \[options\]\n/);
      const shown = await npx('--version');
      assert.equal(shown.code, 0, shown.stderr);
      assert.equal(shown.stdout, `${version}\n`);
      assert.deepEqual(await readdir(empty), [], 'npx left the folder empty');
    },
  );

  test("the container's command line runs after npm ci --omit=dev", LONG, async () => {
    const runtime = readDockerfile().stages.at(-1);
    assert.ok(runtime);
    const app = path.join(root, 'app');
    await mkdir(app);
    // COPY package.json package-lock.json ./ from the build context
    for (const copy of runtime.copies.filter((c) => c.from === undefined)) {
      assert.equal(copy.target, './');
      for (const source of copy.sources) await cp(path.join(REPO, source), path.join(app, source));
    }
    for (const command of runtime.commands.filter((c) => c.startsWith('npm ci '))) {
      const [program = '', ...args] = command.split(/\s+/);
      const installed = await run(program, args, { cwd: app });
      assert.equal(installed.code, 0, installed.stderr);
    }
    assert.ok(
      !(await readdir(path.join(app, 'node_modules'))).includes('typescript'),
      'no dev dependencies',
    );
    // COPY --from=build /app/dist/src ./dist/src: the same build:package output npm pack made
    const unpacked = path.join(root, 'unpacked');
    await mkdir(unpacked);
    const untar = await run('tar', ['-xzf', tarball, '-C', unpacked], { cwd: root });
    assert.equal(untar.code, 0, untar.stderr);
    await cp(path.join(unpacked, 'package', 'dist', 'src'), path.join(app, 'dist', 'src'), {
      recursive: true,
    });

    const [program = '', ...entry] = runtime.entrypoint;
    const env = { PATH: process.env.PATH ?? '', ...runtime.env };
    const container = (args: string[]) => run(program, [...entry, ...args], { cwd: app, env });
    const shown = await container(['--version']);
    assert.deepEqual(shown, { code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await container(['--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: o7-slack-relay/);
    // the image's own command, with no Slack settings given: the configuration error, exit 2
    const started = await container(runtime.cmd);
    assert.equal(started.code, 2, started.stderr);
    assert.match(
      started.stderr,
      /^The relay cannot start: its configuration is incomplete or wrong\./,
    );
    assert.match(started.stderr, /SLACK_BOT_TOKEN is not set/);
    noStack(started.stderr);
  });
});
