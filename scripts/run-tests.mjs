// Runs the tests with node's own test runner, compiled: `tsc` builds src/ and test/ into dist/
// (that build is also the type check: a type error stops here), then the runner runs
// dist/test/**/*.test.js. Compiled tests start their child processes (relays, scripts) from
// dist/ too: loading TypeScript through tsx costs each process about a second of CPU, which
// over the suite's hundreds of processes was most of its time.
// Node 20's --test does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bundleHook } from './bundle-hook.mjs';

const only = process.argv.slice(2);

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findTests(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** test/x/y.test.ts → dist/test/x/y.test.js (what tsc makes of it). */
function compiledPath(file) {
  if (!/\.(test|slow-test)\.ts$/.test(file) || !existsSync(file)) {
    console.error(`run-tests: ${file} is not a test file (test/**/*.test.ts)`);
    process.exit(2);
  }
  return join('dist', file.replace(/\.ts$/, '.js'));
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
if (build.status !== 0) {
  console.error('run-tests: the build (tsc -p tsconfig.json) failed; fix the errors above first');
  process.exit(build.status ?? 1);
}
// the bundle bin/o7-slack-relay.js runs for `hook`, as a clone's build makes it
await bundleHook();

// Files run side by side: end-to-end tests spend most of their time waiting on a relay, a
// stand-in or a child process, so more files than cores keep the machine busy. Each test makes
// its own temp folders and takes ports the system hands out, so files share nothing.
// TEST_CONCURRENCY=1 runs them one by one.
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 4);

// The long files first: end-to-end tests start relays, stand-ins, Redis and child processes
// and take seconds to a minute each; started last, one of them would run on alone at the end
// while the unit tests (milliseconds each) could have filled the gaps beside it.
const LONG_FIRST = ['test/e2e/', 'test/hostile/', 'test/cli/', 'test/scripts/'];
const rank = (file) => {
  const at = LONG_FIRST.findIndex((folder) => file.startsWith(folder));
  return at === -1 ? LONG_FIRST.length : at;
};

// Only the sources' own tests: a test file deleted from test/ may still have a stale build.
const files = (
  only.length > 0 ? only : findTests('test').sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
).map(compiledPath);
const result = spawnSync(
  process.execPath,
  [
    '--enable-source-maps',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
