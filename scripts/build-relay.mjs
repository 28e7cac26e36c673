// Builds what the relay runs, src/ into dist/src (tsconfig.build.json), for `npm start` and the
// o7-slack-relay command in a clone (bin/o7-slack-relay.js). Incremental, in tsc's build mode:
// with nothing changed since the last build it builds nothing and prints nothing, in about half
// a second (most of it loading TypeScript); otherwise it says so on stderr, builds, and says how
// long it took. Then it bundles `hook` (scripts/bundle-hook.mjs), which bin/o7-slack-relay.js
// takes as the mark of the last build. A type error in src/ fails it (exit 1); test/, bench/
// and scripts/ are not built here (`npm run build` builds them too, for the tests and the
// bench).
// Everything it prints goes to stderr, so that a command's own output stays alone on stdout.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleHook } from './bundle-hook.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = path.join(root, 'tsconfig.build.json');
const entry = path.join(root, 'dist', 'src', 'main.js');
const say = (line) => process.stderr.write(`${line}\n`);

let ts;
try {
  ts = createRequire(import.meta.url)('typescript');
} catch {
  // a clone installed without its dev dependencies: run what is built, if anything is
  if (existsSync(entry)) process.exit(0);
  say(
    `o7-slack-relay: the relay is not built (${path.relative(process.cwd(), entry)} is missing), and TypeScript, which builds it, is not installed here: run npm install in ${root}, then try again.`,
  );
  process.exit(1);
}

const formatHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};
const report = (diagnostic) =>
  process.stderr.write(
    process.stderr.isTTY
      ? ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost)
      : ts.formatDiagnostic(diagnostic, formatHost),
  );
const host = ts.createSolutionBuilderHost(ts.sys, undefined, report, () => {});
// tsc's build mode trusts its record of the last build (dist/relay.tsbuildinfo): files removed
// from dist/src since would not be made again, so a missing entry point means build it all.
const builder = ts.createSolutionBuilder(host, [config], { force: !existsSync(entry) });
const project = builder.getNextInvalidatedProject();
if (project === undefined) {
  // dist/src is up to date, the bundle older than src/ (bin/o7-slack-relay.js ran this)
  await bundleHook();
  process.exit(0);
}

say('building the relay (src/ only)…');
const started = Date.now();
const status = project.done();
if (status !== ts.ExitStatus.Success) {
  say('o7-slack-relay: the build failed (tsc -b tsconfig.build.json): fix the errors above first.');
  process.exit(1);
}
await bundleHook();
say(`built the relay in ${((Date.now() - started) / 1000).toFixed(1)} s`);
