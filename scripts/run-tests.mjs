// Runs every test file under test/ with node's own test runner, TypeScript loaded through tsx.
// Node 20's --test does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const only = process.argv.slice(2);

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findTests(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

// Files run side by side: end-to-end tests spend most of their time waiting on a relay, a
// stand-in or a child process, so more files than cores keep the machine busy. Each test makes
// its own temp folders and takes ports the system hands out, so files share nothing.
// TEST_CONCURRENCY=1 runs them one by one.
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 4);

const files = only.length > 0 ? only : findTests('test').sort();
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
