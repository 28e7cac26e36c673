// Bundles `o7-slack-relay hook` into one CommonJS file, dist/hook/hook.cjs, from what tsc built
// (dist/src/hook-main.js and the modules and packages it imports). Claude Code starts the hook
// for every question and permission prompt and waits for it, and one file that
// bin/o7-slack-relay.js compiles with V8's code cache takes half the time node loading ~80 ES
// modules and zod one by one did (figure 12 in docs/performance.md). CommonJS because node 20
// can give V8 a code cache only for a script.
// Run by scripts/build-relay.mjs, `npm run build` and the test runner, after tsc; run
// directly, it bundles what is in dist/src now.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The bundle bin/o7-slack-relay.js runs for `hook`. */
export const HOOK_BUNDLE = path.join(root, 'dist', 'hook', 'hook.cjs');

/**
 * Writes the bundle (in place at once: a hook starting meanwhile reads the old file or the
 * new one); with esbuild, a dev dependency, not installed, says so and returns false.
 */
export async function bundleHook() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    process.stderr.write(
      'o7-slack-relay: esbuild is not installed (npm install), so `hook` runs unbundled, about twice as slow to start\n',
    );
    return false;
  }
  const result = await esbuild.build({
    entryPoints: [path.join(root, 'dist', 'src', 'hook-main.js')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // import() of node's own modules as require: the bundle runs as a vm.Script, which has none
    supported: { 'dynamic-import': false },
    write: false,
    outfile: HOOK_BUNDLE,
    logLevel: 'warning',
  });
  const [output] = result.outputFiles;
  mkdirSync(path.dirname(HOOK_BUNDLE), { recursive: true });
  const temp = `${HOOK_BUNDLE}.${process.pid}.tmp`;
  writeFileSync(temp, output.contents);
  renameSync(temp, HOOK_BUNDLE);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleHook();
}
