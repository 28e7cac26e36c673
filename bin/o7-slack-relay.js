#!/usr/bin/env node
// The o7-slack-relay command (package.json "bin"): runs the built relay, dist/src/main.js, in
// this process, so node flags given to this file apply to the relay. tsc writes dist/ without
// the execute bit, so the command cannot be a built file: this one is committed executable
// and never rebuilt.
//
// `hook` runs from its one-file bundle instead, dist/hook/hook.cjs (scripts/bundle-hook.mjs),
// compiled with V8's code cache: Claude Code starts the hook for every prompt and waits for it,
// and that halves the time from its start to the prompt in Slack (figure 12 in
// docs/performance.md: 130 ms instead of 270, node's own start 97 of them). The cache is kept
// in ~/.cache/o7-slack-relay (XDG_CACHE_HOME), made by the first call and again whenever it
// no longer fits (another node or another bundle). Without the bundle (esbuild not installed), `hook`
// runs through main.js like every other command.
//
// In a clone (src/ beside it) it first brings dist/ up to date: when a file of src/ (or a
// tsconfig, or package.json) is newer than the bundle, scripts/build-relay.mjs builds, saying
// so on stderr. Checking takes a few milliseconds; the build runs in a child process, so that
// TypeScript does not stay in a long-running relay's memory. `hook` skips the check once it
// has a bundle: it is then as new as the relay it asks, whose start built it.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const fromHere = (file) => fileURLToPath(new URL(file, import.meta.url));
const HOOK_BUNDLE = fromHere('../dist/hook/hook.cjs');

/**
 * The newest modification time (ms) of the files the build reads, and of src/'s folders (a
 * file removed or renamed changes its folder's).
 */
function newestSource(root) {
  const newestIn = (folder) => {
    let newest = statSync(folder).mtimeMs;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      newest = Math.max(newest, entry.isDirectory() ? newestIn(file) : statSync(file).mtimeMs);
    }
    return newest;
  };
  const configs = ['tsconfig.json', 'tsconfig.build.json', 'package.json'].map(
    (file) => statSync(path.join(root, file), { throwIfNoEntry: false })?.mtimeMs ?? 0,
  );
  return Math.max(newestIn(path.join(root, 'src')), ...configs);
}

const root = fromHere('..');
const bundled = process.argv[2] === 'hook' && existsSync(HOOK_BUNDLE);
if (!bundled && existsSync(path.join(root, 'src', 'main.ts'))) {
  const built = statSync(HOOK_BUNDLE, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  if (built < newestSource(root) || !existsSync(fromHere('../dist/src/main.js'))) {
    const { spawnSync } = await import('node:child_process');
    const build = spawnSync(process.execPath, [fromHere('../scripts/build-relay.mjs')], {
      stdio: ['ignore', 2, 2],
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}

/** A short, stable name for a path (FNV-1a): one cache file per installed bundle. */
function nameOf(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * Runs the CommonJS file `bundle` in this process, compiled with the V8 code cache kept for
 * it. The cache file begins with a line naming what it was made from (node, the bundle's size
 * and time): V8 checks its own version and flags, not which source the cache belongs to.
 */
function runWithCodeCache(bundle) {
  const source = readFileSync(bundle, 'utf8');
  const { size, mtimeMs } = statSync(bundle);
  const key = `${process.version} ${process.arch} ${size} ${mtimeMs}\n`;
  const home =
    process.env.XDG_CACHE_HOME || (process.env.HOME && path.join(process.env.HOME, '.cache'));
  const cacheFile = home
    ? path.join(home, 'o7-slack-relay', `hook-${nameOf(bundle)}.v8`)
    : undefined;
  let cachedData;
  try {
    const kept = cacheFile === undefined ? undefined : readFileSync(cacheFile);
    if (kept?.subarray(0, key.length).toString('latin1') === key)
      cachedData = kept.subarray(key.length);
  } catch {
    // none yet, or unreadable: compiled without it, and one is written at exit
  }
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    {
      filename: bundle,
      cachedData,
    },
  );
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    // at exit, so that the cache holds the functions this call compiled too
    process.once('exit', () => {
      try {
        mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(
          temp,
          Buffer.concat([Buffer.from(key, 'latin1'), script.createCachedData()]),
          { mode: 0o600 },
        );
        renameSync(temp, cacheFile);
      } catch {
        // a cache that cannot be written only costs the next call its compile
      }
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(
    module.exports,
    createRequire(bundle),
    module,
    bundle,
    path.dirname(bundle),
  );
}

if (process.argv[2] === 'hook' && existsSync(HOOK_BUNDLE)) runWithCodeCache(HOOK_BUNDLE);
else await import('../dist/src/main.js');
