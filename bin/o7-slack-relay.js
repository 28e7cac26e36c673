#!/usr/bin/env node
// The o7-slack-relay command (package.json "bin"): runs the built relay, dist/src/main.js, in
// this process, so node flags given to this file apply to the relay. tsc writes dist/ without
// the execute bit, so the command cannot be a built file: this one is committed executable
// and never rebuilt. In a clone (src/ beside it) it first brings dist/src up to date with
// scripts/build-relay.mjs: nothing to do takes about half a second, and a change or a missing
// build is said on stderr while it builds. That runs in a child process, so that TypeScript
// does not stay in a long-running relay's memory.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const fromHere = (file) => fileURLToPath(new URL(file, import.meta.url));

if (existsSync(fromHere('../src/main.ts'))) {
  const build = spawnSync(process.execPath, [fromHere('../scripts/build-relay.mjs')], {
    stdio: ['ignore', 2, 2],
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import('../dist/src/main.js');
