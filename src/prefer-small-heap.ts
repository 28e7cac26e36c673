import { setFlagsFromString } from 'node:v8';

/**
 * The relay is a long-lived process that mostly waits: on files, on Slack, on people. V8's
 * defaults trade memory for peak JavaScript speed and keep the heap it grew during a burst
 * (2,000 runs opened at once left ~90 MB of heap committed around ~36 MB of live objects).
 * Asking V8 to optimize for size makes it grow the heap less and give pages back at each full
 * GC; `npm run bench` shows what it costs in latency (nothing it can tell apart) and start-up.
 *
 * V8's memory reducer is off. It is made for browser tabs: 8 s after the last full GC of a
 * growing heap it does up to three more full GCs to give memory back, whether or not they
 * find anything. For the relay that came just when a burst was over and the relay idle: at
 * 10,000 open runs, 0.4 s of CPU in the 10 s from 3 s after the last post (4–5%; bench figure
 * 1c). Without it, the heap stays as the burst's last full GC left it (optimizing for size
 * already compacts it then) until activity needs the next one.
 *
 * Imported first by the entry point, so it applies before the rest of the relay is loaded.
 * Set at run time rather than as node flags so that every way of starting the relay (the
 * `o7-slack-relay` bin, `npm start`, a service manager) gets them; RELAY_V8_DEFAULTS=1 turns
 * them off, for comparing.
 */
if (process.env.RELAY_V8_DEFAULTS !== '1') {
  setFlagsFromString('--optimize-for-size');
  setFlagsFromString('--no-memory-reducer');
}
