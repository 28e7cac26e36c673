import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(import.meta.url);

/**
 * Whether the tests run compiled (`dist/test/…`, what `npm test` does) or from the TypeScript
 * sources through tsx (`node --import tsx --test test/x.test.ts`).
 */
const compiled = here.endsWith('.js');

/** Where `src/`, `test/` and `bench/` are as modules: the repository, or `dist/` when compiled. */
const modulesRoot = path.resolve(path.dirname(here), '../..');

function findRepo(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The repository root: README, fixtures, examples, package.json (never inside `dist/`). */
export const REPO = findRepo(modulesRoot);

/** A file of the repository by its path from the root, e.g. `test/fixtures/tls/server-cert.pem`. */
export function repoFile(fromRoot: string): string {
  return path.join(REPO, fromRoot);
}

/**
 * A module of the project by its path from the root without extension (`src/main`): the
 * compiled `dist/src/main.js` when the tests run compiled, `src/main.ts` otherwise.
 */
export function projectModule(fromRoot: string): string {
  return path.join(modulesRoot, `${fromRoot}${compiled ? '.js' : '.ts'}`);
}

const tsxLoader = compiled
  ? undefined
  : pathToFileURL(createRequire(path.join(REPO, 'package.json')).resolve('tsx')).href;

/**
 * What goes before a module's path on `node`'s command line to run a project module: source
 * maps when compiled (stack traces name the .ts files, as they do in the test), tsx's loader
 * otherwise. A child started this way runs the same build of the code as the test.
 */
export const NODE_LOADER_ARGS: readonly string[] =
  tsxLoader === undefined ? ['--enable-source-maps'] : ['--import', tsxLoader];

/** The o7-slack-relay command as npm links it: `hook` runs from its bundle, the rest main.js. */
export const COMMAND = repoFile('bin/o7-slack-relay.js');
