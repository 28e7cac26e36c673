import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { blockKitBuilderUrl } from '../../src/cli/preview-command.js';
import { runStart } from '../../src/cli/start-command.js';
import { formatProtocolError } from '../../src/core/protocol/protocol-error.js';
import { parseQuestionFile } from '../../src/core/protocol/questions/parse-question-file.js';
import { answerFileName } from '../../src/core/protocol/run-folder.js';
import {
  current,
  hasNoControls,
  waitForAnswerFile,
  waitForBatchMessage,
  waitForMessage,
} from '../../test/e2e/relay-steps.js';
import { startFakeSlack } from '../../test/support/fake-slack/index.js';
import { ALICE, CHANNEL, configFor } from '../../test/support/relay-harness.js';
import { makeTempDir, writeQuestionFile } from '../../test/support/temp-dir.js';
import { changedLines, messageText } from './message-text.js';
import type { ReadingContext } from './readable-mrkdwn.js';
import { stepsFor } from './simulated-person.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The example run folder: the example batch of the README and docs/file-protocol.md, one question of each type. */
const SAMPLE_RUN = path.join('examples', 'release-plan');

/** The sample batch the demo posts. */
export const SAMPLE_FILE = path.join(SAMPLE_RUN, 'qa', 'q-out-001.json');

/** The run folder's name in the demo, and so in the message header: the example's. */
export const DEMO_RUN = path.basename(SAMPLE_RUN);

/** How the messages are read: the stand-in's default person, who answers, and dates as now. */
const reading = (): ReadingContext => ({
  names: { [ALICE]: 'alice' },
  reading: { now: new Date() },
});

export interface DemoOptions {
  /** Where the lines for the person watching go. */
  out: (line: string) => void;
  /** The relay's logger. */
  log: Logger;
  /** Aborted on Ctrl-C: the demo stops where it is, and still cleans up. */
  signal: AbortSignal;
  /** A pause before each step of the simulated person, so it can be followed. */
  pauseMs?: number;
}

/** Settles with `promise`, or rejects as soon as `signal` aborts. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  // once abandoned, its own failure (say, the stand-in closing under it) is of no interest
  promise.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const indent = (lines: readonly string[]) => lines.map((line) => (line ? `    ${line}` : line));

/**
 * The demo: the loopback Slack stand-in and the real relay (Socket Mode) in this process, a
 * temp run folder with the sample batch, a simulated person answering it through the
 * stand-in, and the answer file. Whatever happens, the relay and the stand-in are stopped and
 * the temp folder removed before this settles. Rejects with the signal's reason on abort.
 */
export async function runDemo(options: DemoOptions): Promise<void> {
  const { out, log, signal, pauseMs = 0 } = options;
  const undo: (() => Promise<void>)[] = [];
  const step = <T>(promise: Promise<T>) => unlessAborted(promise, signal);
  try {
    const sample = await readFile(path.join(repo, SAMPLE_FILE), 'utf8');
    const batch = parseQuestionFile(sample, SAMPLE_FILE);
    if (!batch.ok) throw new Error(formatProtocolError(batch.error));

    out('Starting a Slack stand-in and the relay (Socket Mode), both on 127.0.0.1.');
    const temp = await makeTempDir('o7-demo-');
    undo.push(temp.cleanup);
    const slack = await startFakeSlack();
    undo.push(() => slack.close());
    const config = configFor(slack, temp.dir, 'socket');
    const runs = (config.watch[0] as { path: string }).path;
    await mkdir(runs, { recursive: true });
    const relay = await runStart(config, log);
    undo.push(() => relay.stop());
    signal.throwIfAborted();

    const runDir = path.join(runs, DEMO_RUN);
    const written = await writeQuestionFile(runDir, batch.value.seq, sample);
    out(`Wrote ${written}`);
    out(`  (a copy of ${SAMPLE_FILE}: one question of each type, two with previews)`);
    const posted = await step(waitForBatchMessage(slack, DEMO_RUN, batch.value.seq));

    out('');
    out(`The relay posted this in #o7-relay (${CHANNEL}):`);
    out('');
    for (const line of indent(messageText(posted, reading()))) out(line);
    out('');

    out(
      'alice answers through the stand-in, click by click (under each, what changed on the message):',
    );
    const shown = () => messageText(current(slack, posted.ts), reading());
    for (const { says, act, last } of stepsFor(batch.value.questions)) {
      if (pauseMs > 0) await sleep(pauseMs, undefined, { signal });
      out(`  ${says}`);
      const before = shown();
      await step(act(slack, posted.ts));
      if (!last) for (const line of changedLines(before, shown())) out(`       ${line}`);
    }

    const answerPath = path.join(runDir, 'qa', answerFileName(batch.value.seq));
    const answers = await step(waitForAnswerFile(runDir, batch.value.seq));
    const final = await step(
      waitForMessage(slack, posted.ts, hasNoControls, 'the message in its answered state'),
    );
    out('');
    out(`The relay wrote ${answerPath}:`);
    out('');
    for (const line of indent(answers.trimEnd().split('\n'))) out(line);
    out('');
    out('The message now reads:');
    out('');
    for (const line of indent(messageText(final, reading()))) out(line);
    out('');
    // one long line (the whole message is in it), so it comes last
    out('The message as posted, drawn by Slack, is in Block Kit Builder (signed in to Slack):');
    out(blockKitBuilderUrl(posted.blocks));
    out('');
  } finally {
    for (const action of undo.reverse()) {
      await action().catch((error: unknown) => log.warn({ err: error }, 'while cleaning up'));
    }
  }
}
