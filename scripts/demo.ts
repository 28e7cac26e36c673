// `npm run demo`: the relay answering a batch without a Slack workspace (see demo/run-demo.ts).
// The entry point: reads the options, turns Ctrl-C into a clean stop, and sets the exit code.
import { parseArgs } from 'node:util';
import { parseDuration } from '../src/config/parse-duration.js';
import { createLogger } from '../src/log/create-logger.js';
import { runDemo } from './demo/run-demo.js';

const USAGE = `Usage: npm run demo [-- --pause <duration>]

Starts a loopback Slack stand-in and the relay, posts a sample batch of questions, answers
it as a simulated person, prints the answer file, and cleans up. No Slack workspace needed.

  --pause <duration>  wait this long (e.g. 2s) before each click, to follow along
  -h, --help          show this help`;

/** Exit code for a stop by Ctrl-C (128 + SIGINT), as shells report it. */
const INTERRUPTED = 130;

async function main(): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`${line}\n`);
  let pauseMs = 0;
  try {
    const { values } = parseArgs({
      options: { pause: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      out(USAGE);
      return 0;
    }
    if (values.pause !== undefined) {
      const parsed = parseDuration(values.pause);
      if (!parsed.ok) throw new Error(`--pause ${parsed.error}`);
      pauseMs = parsed.value;
    }
  } catch (error) {
    err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }

  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(INTERRUPTED);
    err(`${signal}: stopping the relay and the stand-in (again to quit at once)`);
    controller.abort(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Warnings and errors only: a clean run has none, so the demo's own lines stay readable.
  const log = createLogger({
    level: 'warn',
    pretty: true,
    write: (line) => process.stderr.write(line),
  });
  try {
    await runDemo({ out, log, signal: controller.signal, pauseMs });
    out('Done: the relay and the stand-in are stopped, the temp folder is removed.');
    return 0;
  } catch (error) {
    if (controller.signal.aborted) {
      err('Stopped; the temp folder is removed.');
      return INTERRUPTED;
    }
    err(
      `The demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return 1;
  }
}

process.exitCode = await main();
