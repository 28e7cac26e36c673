/**
 * Node flags the relay is started with as a service: `npm start`, the Docker image and the
 * systemd unit pass them, and `npm run bench` measures with them. They work only on node's
 * command line: V8 reads them once, when it sets up the heap (`v8.setFlagsFromString` at run
 * time changes nothing measurable), and NODE_OPTIONS refuses `--no-memory-reducer`.
 *
 * - `--no-memory-reducer`: about 8 s after any burst that grew the heap, V8's memory reducer
 *   runs two or three full collections while the relay is otherwise idle (0.1–0.3 s of CPU at
 *   2,000–10,000 open runs). The relay already asks V8 to compact at every full collection
 *   (`prefer-small-heap.ts`), so what the reducer still gave back was mostly the young
 *   generation a burst had grown, which the next flag keeps small in the first place.
 * - `--max-semi-space-size`: caps each half of the young generation (MB). V8 grows it to
 *   16 MB during a burst and, without the reducer, keeps it; resident memory at 10,000 open
 *   runs was 147 MB uncapped.
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
