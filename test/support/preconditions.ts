// What a test needs of the machine it runs on (a program, root, another user able to reach the
// clone), checked when its file loads, so that a test that cannot run here says why at once
// instead of failing later, or timing out, on a symptom.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectModule, REPO } from './project-paths.js';

/** Something a test needs of the machine: why it is missing here, if it is, and how to fix it. */
export interface Need {
  /** what is missing, or undefined when the need is met */
  missing: string | undefined;
  /** how to meet it */
  fix: string;
  /**
   * why CI cannot meet it either, when it cannot: the test is then not run in CI too, rather
   * than failing every CI run
   */
  notInCi?: string;
}

/** The options that run a test or suite only where its needs are met. */
export interface NeedsOptions {
  skip: string | false;
  signal?: AbortSignal;
}

/**
 * The options of a test or suite that needs `needs`: `test(name, needs(a, b), fn)`. Where one
 * is missing, the test is not run and says so in one line, `NOT RUN: <what>; <how to fix it>`;
 * with CI=true it fails at once instead, naming the cause, since CI must not pass without
 * running it.
 */
export function needs(...list: Need[]): NeedsOptions {
  const unmet = list.find((need) => need.missing !== undefined);
  if (unmet === undefined) return { skip: false };
  const why = `${unmet.missing}; ${unmet.fix}`;
  if (process.env.CI !== 'true') return { skip: `NOT RUN: ${why}` };
  if (unmet.notInCi !== undefined) return { skip: `NOT RUN: ${why} (${unmet.notInCi})` };
  return { skip: false, signal: AbortSignal.abort(new Error(`cannot run here (CI=true): ${why}`)) };
}

/** Whether the tests run as root, which alone may start processes as other users. */
export const asRoot = process.getuid?.() === 0;

/** The tests run as root (`why`: what it is needed for). */
export const rootUser = (why: string): Need => ({
  missing: asRoot ? undefined : `not running as root, which ${why}`,
  fix: 'run the tests as root (CI does)',
});

/** Where program `name` is on PATH, or undefined. */
export function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Program `name` is on PATH; `fix` says how to install it. */
export const program = (name: string, fix: string): Need => ({
  missing: findOnPath(name) === undefined ? `${name} is not on PATH` : undefined,
  fix,
});

/** The tests run on Linux (`why`: what they read that only Linux has). */
export const linux = (why: string): Need => ({
  missing: process.platform === 'linux' ? undefined : `not on Linux, and the test ${why}`,
  fix: 'run it on Linux',
});

/** An account's ids, for a test that starts processes as another user. */
export interface OtherUser {
  uid: number;
  gid: number;
}

/**
 * `user` can run this node and read the project (its modules, node_modules) and the temp
 * folder, which a test that starts processes as that user needs. Checked by running node as
 * the user, so only when running as root; as anyone else the need is met (no user is switched).
 * A clone below a private folder (`mktemp -d` makes 0700 ones, /root is one) is the usual cause.
 */
export function reachableBy(user: OtherUser, name: string): Need {
  const fix =
    'let other users through the folders above the clone (chmod o+x on each: .ci/run does that), clone it where others may enter, or run the tests as an ordinary user';
  if (!asRoot) return { missing: undefined, fix };
  const paths = [projectModule('src/main'), path.join(REPO, 'node_modules'), tmpdir()];
  const check = spawnSync(process.execPath, ['-e', REACH_CHECK, ...paths], {
    uid: user.uid,
    gid: user.gid,
    cwd: '/',
    encoding: 'utf8',
    env: {},
  });
  if (check.error !== undefined) {
    return { missing: `${name} cannot run ${process.execPath} (${check.error.message})`, fix };
  }
  const blocked = check.stdout.trim();
  if (check.status === 0 && blocked === '') return { missing: undefined, fix };
  return { missing: `${name} cannot reach ${blocked || check.stderr.trim()}`, fix };
}

/**
 * Run as the user: for each path given, the first folder above it (or the path itself) that
 * the user may not pass through or read, with its mode; nothing when every path is reachable.
 */
const REACH_CHECK = `
const { accessSync, constants, statSync } = require('node:fs');
const path = require('node:path');
for (const target of process.argv.slice(1)) {
  const folders = [];
  for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
    folders.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  const steps = [...folders.map((dir) => [dir, constants.X_OK]), [target, constants.R_OK]];
  const stop = steps.find(([at, mode]) => { try { accessSync(at, mode); return false; } catch { return true; } });
  if (stop) {
    let mode = '?';
    try { mode = (statSync(stop[0]).mode & 0o777).toString(8); } catch {}
    console.log(stop[0] === target ? target : target + ': ' + stop[0] + ' (mode ' + mode + ') is closed to it');
    break;
  }
}
`;
