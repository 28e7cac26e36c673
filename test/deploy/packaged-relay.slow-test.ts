import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
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

/**
 * npm's environment with a cache of the test's own in `root`, sharing npm's downloads: npx
 * installs what it runs into `<cache>/_npx`, which must not be the user's (a link to a temp
 * folder left there, or one left there before, would change what npx does).
 */
async function npmEnvIn(root: string): Promise<NodeJS.ProcessEnv> {
  const cache = path.join(root, 'npm-cache');
  await mkdir(cache);
  const npmCache = (await run('npm', ['config', 'get', 'cache'], { cwd: root })).stdout.trim();
  await mkdir(path.join(npmCache, '_cacache'), { recursive: true });
  await symlink(path.join(npmCache, '_cacache'), path.join(cache, '_cacache'));
  return { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' };
}

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
  let binMode: number | undefined;

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('o7-packed-'));
    const packed = await run('npm', ['pack', '--json', '--pack-destination', root], { cwd: REPO });
    assert.equal(packed.code, 0, packed.stderr);
    const [report] = JSON.parse(packed.stdout) as {
      filename: string;
      files: { path: string; mode: number }[];
    }[];
    assert.ok(report);
    tarball = path.join(root, report.filename);
    packedFiles = report.files.map((f) => f.path);
    binMode = report.files.find((f) => f.path === 'bin/o7-slack-relay.js')?.mode;
  }, LONG);

  after(() => cleanup());

  test('holds the build, .env.example, manifest.yml, the README and docs/, and no sources', () => {
    for (const file of [
      'bin/o7-slack-relay.js',
      'dist/src/main.js',
      'dist/hook/hook.cjs',
      '.env.example',
      'manifest.yml',
      'README.md',
      'docs/configuration.md',
    ]) {
      assert.ok(packedFiles.includes(file), `${file} is in the package`);
    }
    const others = packedFiles.filter(
      (f) =>
        !/^dist\/src\/.+\.js$/.test(f) &&
        f !== 'dist/hook/hook.cjs' &&
        !/^docs\/[^/]+\.md$/.test(f) &&
        !/^(bin\/o7-slack-relay\.js|package\.json|\.env\.example|manifest\.yml|README\.md)$/.test(
          f,
        ),
    );
    assert.deepEqual(others, [], 'nothing but the build and those files');
    assert.equal(binMode, 0o755, 'the command is executable');
  });

  test(
    'npx o7-slack-relay@<tarball> --help, --version and hook (from its bundle) work from an empty folder',
    LONG,
    async () => {
      const empty = path.join(root, 'empty');
      await mkdir(empty);
      const env = await npmEnvIn(root);
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
      // `hook` runs from its bundle in the package: only that writes the code cache
      const cache = path.join(root, 'xdg-cache');
      const hooked = await run(
        'npx',
        ['--yes', '--prefer-offline', `o7-slack-relay@${tarball}`, 'hook'],
        { cwd: empty, env: { ...env, XDG_CACHE_HOME: cache } },
      );
      assert.equal(hooked.code, 0, hooked.stderr);
      assert.match(hooked.stderr, /stdin is not JSON \(it is empty\)/);
      const cached = await readdir(path.join(cache, 'o7-slack-relay'));
      assert.equal(cached.length, 1, cached.join(' '));
      assert.match(cached[0] ?? '', /^hook-[0-9a-f]{8}\.v8$/);
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

/** The marker `scripts/build-relay.mjs` prints when it builds (and only then). */
const BUILDING = 'building the relay (src/ only)…';

/** What of the repository a clone has: everything but what npm, a build or git made. */
const NOT_IN_A_CLONE = new Set(['node_modules', 'dist', '.git', '.env']);

// A newcomer's first hour, in a copy of the repository as a clone has it (its node_modules
// linked to this one's): `npx o7-slack-relay`, the command the README gives, before any build
// and after each build script (npx runs the project's own bin, which it links into its cache
// at the first run: a bin missing then stayed missing), and `npm start`. Eight builds of src/
// (whole or in part) and one of everything: 8 minutes at load 10 on 2 cores.
describe('the o7-slack-relay command in a clone', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let clone: string;
  let env: NodeJS.ProcessEnv;
  const npx = (...args: string[]) =>
    run('npx', ['--prefer-offline', 'o7-slack-relay', ...args], { cwd: clone, env });
  const npm = (...args: string[]) => run('npm', args, { cwd: clone, env });
  const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    version: string;
  };
  /** `npx o7-slack-relay --version` works; whether it built first. */
  const versionWorks = async () => {
    const shown = await npx('--version');
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, `${version}\n`, 'the build output stays off stdout');
    return { built: shown.stderr.includes(BUILDING), stderr: shown.stderr };
  };

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('o7-clone-'));
    clone = path.join(root, 'o7-slack-relay');
    await cp(REPO, clone, {
      recursive: true,
      filter: (from) => {
        const top = path.relative(REPO, from).split(path.sep)[0] ?? '';
        return !NOT_IN_A_CLONE.has(top) && !top.endsWith('.tgz');
      },
    });
    await symlink(path.join(REPO, 'node_modules'), path.join(clone, 'node_modules'));
    env = await npmEnvIn(root);
  }, LONG);

  after(() => cleanup());

  test(
    'before any build, npx o7-slack-relay --help builds src/ (saying so on stderr) and works; then it builds nothing',
    LONG,
    async () => {
      const help = await npx('--help');
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /^Usage: o7-slack-relay \[command\] \[options\]\n/);
      assert.match(
        help.stderr,
        /^building the relay \(src\/ only\)…\nbuilt the relay in [\d.]+ s\n$/,
      );
      assert.ok(existsSync(path.join(clone, 'dist', 'src', 'main.js')));
      assert.ok(!existsSync(path.join(clone, 'dist', 'test')), 'only src/ was built');
      assert.deepEqual(await versionWorks(), { built: false, stderr: '' });
    },
  );

  for (const script of [['run', 'build'], ['run', 'build:package'], ['pack']]) {
    test(
      `after npm ${script.join(' ')}, npx o7-slack-relay still works, and builds nothing`,
      LONG,
      async () => {
        const done = await npm(
          ...script,
          ...(script[0] === 'pack' ? ['--pack-destination', root] : []),
        );
        assert.equal(done.code, 0, done.stderr);
        assert.deepEqual(await versionWorks(), { built: false, stderr: '' });
        const { mode } = await stat(path.join(clone, 'bin', 'o7-slack-relay.js'));
        assert.equal(mode & 0o111, 0o111, 'the command is still executable');
      },
    );
  }

  test('with dist/src removed, it is built again', LONG, async () => {
    await rm(path.join(clone, 'dist', 'src'), { recursive: true });
    assert.equal((await versionWorks()).built, true);
    assert.equal((await versionWorks()).built, false);
  });

  test(
    'npm start with .env.example copied unchanged to .env: the configuration error, exit 2, nothing built',
    LONG,
    async (t) => {
      await cp(path.join(clone, '.env.example'), path.join(clone, '.env'));
      const started = performance.now();
      const start = await npm('start');
      // for the record: a timed assertion would flake on a loaded machine
      t.diagnostic(`npm start answered in ${Math.round(performance.now() - started)} ms`);
      assert.equal(start.code, 2, start.stderr);
      assert.match(
        start.stderr,
        /^The relay cannot start: its configuration is incomplete or wrong\./m,
      );
      assert.match(start.stderr, /SLACK_BOT_TOKEN is a placeholder/);
      assert.ok(!start.stderr.includes(BUILDING), start.stderr);
      noStack(start.stderr);
    },
  );

  test(
    'npm start builds src/ only: a type error in test/ does not stop it, a change in src/ is built once, a type error in src/ stops it until fixed',
    LONG,
    async () => {
      const configError = /^The relay cannot start: its configuration/m;
      /** `npm start`: its exit code, whether it built, whether the relay ran (and said why not). */
      const start = async () => {
        const { code, stderr } = await npm('start');
        const outcome = {
          code,
          built: stderr.includes(BUILDING),
          relayRan: configError.test(stderr),
        };
        return { outcome, stderr };
      };
      const expect = async (wanted: { code: number; built: boolean; relayRan: boolean }) => {
        const { outcome, stderr } = await start();
        assert.deepEqual(outcome, wanted, stderr);
        return stderr;
      };
      await writeFile(
        path.join(clone, 'test', 'type-error.ts'),
        "export const n: number = 'one';\n",
      );
      await expect({ code: 2, built: false, relayRan: true });

      const errors = path.join(clone, 'src', 'errors.ts');
      await writeFile(errors, `${readFileSync(errors, 'utf8')}// changed\n`);
      await expect({ code: 2, built: true, relayRan: true });
      await expect({ code: 2, built: false, relayRan: true });

      const broken = path.join(clone, 'src', 'type-error.ts');
      await writeFile(broken, "export const n: number = 'one';\n");
      // twice: a failed build is not taken for a done one the next time
      for (let i = 0; i < 2; i += 1) {
        const stderr = await expect({ code: 1, built: true, relayRan: false });
        assert.match(stderr, /src\/type-error\.ts.*error TS2322/);
        assert.match(
          stderr,
          /the build failed \(tsc -b tsconfig\.build\.json\): fix the errors above first/,
        );
      }
      await rm(broken);
      await expect({ code: 2, built: true, relayRan: true });
    },
  );
});
