import { setFlagsFromString } from 'node:v8';

/**
 * The relay is a long-lived process that mostly waits: on files, on Slack, on people. V8's
 * defaults trade memory for peak JavaScript speed and keep the heap it grew during a burst
 * (2,000 runs opened at once left ~90 MB of heap committed around ~36 MB of live objects).
 * Asking V8 to optimize for size makes it grow the heap less and give pages back once idle;
 * `npm run bench` shows what it costs in latency (nothing it can tell apart) and start-up.
 *
 * Imported first by the entry point, so it applies before the rest of the relay is loaded.
 * Set at run time rather than as a node flag so that every way of starting the relay (the
 * `o7-slack-relay` bin, `npm start`, a service manager) gets it; RELAY_V8_DEFAULTS=1 turns it
 * off, for comparing.
 */
if (process.env.RELAY_V8_DEFAULTS !== '1') setFlagsFromString('--optimize-for-size');
