import { setFlagsFromString } from 'node:v8';

/**
 * How node is tuned for the relay, in one place: the flags every launcher puts on node's
 * command line, and the one setting the relay applies to itself when `start` begins. The relay
 * is a long-lived process that mostly waits (on files, on Slack, on people), and V8's defaults
 * trade memory and idle CPU for peak JavaScript speed. `npm run bench` measures both.
 */

/**
 * Node flags the relay is started with as a service. Every launcher passes them: `npm start`
 * (package.json), the Docker image's ENTRYPOINT and the systemd unit's ExecStart, each checked
 * against this list by its test, and `npm run bench`, which reads it. They work only on node's
 * command line: V8 reads them once, when it sets up the heap (`v8.setFlagsFromString` at run
 * time changes nothing measurable), and NODE_OPTIONS refuses `--no-memory-reducer`.
 *
 * - `--no-memory-reducer`: a while after any burst that grew the heap, V8's memory reducer
 *   runs a few full collections while the relay is otherwise idle. The relay already has V8
 *   compact at every full collection (`preferSmallHeap`), so what the reducer still gave back
 *   was mostly the young generation a burst had grown, which the next flag keeps small.
 * - `--max-semi-space-size`: caps each half of the young generation (MB). V8 grows it during
 *   a burst and, without the reducer, keeps it.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = [
  '--no-memory-reducer',
  '--max-semi-space-size=2',
];

/**
 * The service flags that node was not given (`execArgv`: `process.execArgv`). A flag given
 * with another value (`--max-semi-space-size=4`) is someone's choice, not missing.
 */
export function missingServiceFlags(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.map(flagName));
  return SERVICE_NODE_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/** How to start the relay with the service flags when it runs from the installed command. */
export const START_WITH_SERVICE_FLAGS = `node ${SERVICE_NODE_FLAGS.join(' ')} "$(command -v o7-slack-relay)" start`;

const flagName = (flag: string): string => flag.split('=')[0] as string;

/**
 * Asks V8 to optimize for size, which `start` does before it loads the relay: by default V8
 * keeps the heap it grew during a burst, committed far beyond the objects still alive; this
 * way it grows the heap less and gives pages back once idle. Set at run time, not as a node
 * flag, so that every way of starting the relay gets it, the `o7-slack-relay` command too,
 * which cannot carry flags. RELAY_V8_DEFAULTS=1 leaves V8's defaults, for comparing.
 */
export function preferSmallHeap(env: NodeJS.ProcessEnv): void {
  if (env.RELAY_V8_DEFAULTS !== '1') setFlagsFromString('--optimize-for-size');
}
