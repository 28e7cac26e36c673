import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readAskAnswers } from '../ask/ask-answers.js';
import type { AskingProcess, RelayAsk } from '../ask/ask-relay.js';
import { askerFor, chooseTarget } from '../ask/choose-asker.js';
import { noRelayMessage } from '../ask/no-relay-message.js';
import { writeDispatchFailure } from '../ask/write-dispatch-failure.js';
import type { AskCancellation } from '../core/envelope/ask-cancellation.js';
import { dispatchFailureRecord } from '../core/envelope/dispatch-failure.js';
import type { Envelope } from '../core/envelope/envelope.js';
import { envelopeToBatch } from '../core/envelope/envelope-to-batch.js';
import { findEnvelope } from '../core/envelope/find-envelope.js';
import { formatResumeMessage } from '../core/envelope/resume-message.js';
import { stopReason } from '../stop-signals.js';
import type { AskArgs } from './ask-args.js';
import { ASK_EXIT_CODES, type AskExitCode } from './ask-exit-codes.js';

/** What `ask` needs from its process; tests pass their own. */
export interface AskDeps extends AskingProcess {
  now?: () => Date;
}

const NO_ENVELOPE =
  'No open questions: the message has no ```json block whose top-level object has an "openQuestions" array, so there is nothing to ask. The agent can go on without answers.';

/**
 * `o7-slack-relay ask [FILE|-]`: reads an agent's final message, and when it carries an Agent
 * Open Questions envelope, hands the questions to the running relay as a batch in
 * `<RELAY_STATE_DIR>/asks/<id>/`, waits for the answer, and prints the resume message.
 * Returns the exit code (see `ASK_EXIT_CODES`); it never exits the process itself.
 */
export async function runAsk(args: AskArgs, deps: AskDeps): Promise<AskExitCode> {
  const now = deps.now ?? (() => new Date());
  const message = await readMessage(args.input, deps);
  if (message === undefined) return ASK_EXIT_CODES.usage;
  if (deps.signal?.aborted) {
    deps.err(`Stopped by ${stopReason(deps.signal.reason)} before anything was asked.`);
    return ASK_EXIT_CODES.cancelled;
  }

  const scan = findEnvelope(message);
  if (scan.kind === 'none') {
    deps.err(NO_ENVELOPE);
    return ASK_EXIT_CODES.noEnvelope;
  }
  if (scan.kind === 'malformed') {
    if (!args.secondAttempt) {
      deps.err(scan.error); // verbatim and alone: the orchestrator passes it back to the agent
      return ASK_EXIT_CODES.malformed;
    }
    return recordDispatchFailure(args.secondAttempt, message, scan.error, now(), deps);
  }

  const target = chooseTarget({ relay: args.relay }, deps.env, deps.cwd);
  if (!target.ok) {
    deps.err(`ask: ${target.error}`);
    return ASK_EXIT_CODES.usage;
  }
  const batchFile = envelopeToBatch(scan.envelope);
  const count = batchFile.questions.length;
  const outcome = await askerFor(
    target.value,
    deps.err,
  )({
    batch: batchFile,
    now,
    onDelivered: (where) =>
      deps.err(`Asked ${count} ${count === 1 ? 'question' : 'questions'} in Slack ${where}`),
    ...(args.timeout ? { timeoutMs: args.timeout.ms } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}),
  });
  if (outcome.kind === 'no-relay') {
    deps.err(noRelayMessage(outcome.stateDir, 'ask', 'run ask again'));
    return ASK_EXIT_CODES.noRelay;
  }
  if (outcome.kind === 'refused') {
    deps.err(outcome.reason);
    return ASK_EXIT_CODES.noRelay;
  }
  return report(outcome, { envelope: scan.envelope, args, deps });
}

async function readMessage(input: string, deps: AskDeps): Promise<string | undefined> {
  if (input === '-') return deps.readStdin();
  const file = path.resolve(deps.cwd, input);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    deps.err(
      `ask: could not read the agent's message from ${file} (${reason}). Pass a readable file, or - to read standard input.`,
    );
    return undefined;
  }
}

async function recordDispatchFailure(
  attempt: { planId: string; phase: string },
  message: string,
  error: string,
  now: Date,
  deps: AskDeps,
): Promise<AskExitCode> {
  const record = dispatchFailureRecord({ ...attempt, message, error, now });
  // the plan id was checked when the arguments were read
  if (!record.ok) throw new Error(`ask: ${record.error}`);
  const written = await writeDispatchFailure(deps.cwd, record.value);
  deps.out(written);
  deps.err(
    `The open-questions envelope could not be parsed on the second attempt either; phase "${attempt.phase}" is halted. The raw message and the parse error are in ${written}.`,
  );
  return ASK_EXIT_CODES.dispatchFailure;
}

interface ReportInput {
  envelope: Envelope;
  args: AskArgs;
  deps: AskDeps;
}

function report(
  outcome: Exclude<RelayAsk, { kind: 'no-relay' | 'refused' }>,
  input: ReportInput,
): AskExitCode {
  const { deps } = input;
  switch (outcome.kind) {
    case 'answered':
      return printResume(outcome, input);
    case 'cancelled':
      deps.err(describeCancellation(outcome.cancellation));
      return ASK_EXIT_CODES.cancelled;
    case 'timed-out':
      deps.err(
        `No answer within ${input.args.timeout?.text ?? 'the time allowed'}; the questions were withdrawn from Slack.`,
      );
      return ASK_EXIT_CODES.timedOut;
    case 'aborted':
      deps.err(`Stopped by ${outcome.reason}; the questions were withdrawn from Slack.`);
      return ASK_EXIT_CODES.cancelled;
  }
}

function describeCancellation(cancellation: AskCancellation | undefined): string {
  if (!cancellation)
    return 'The questions were cancelled in Slack; there are no answers to pass on.';
  return `The questions were cancelled in Slack by ${cancellation.cancelledBy} at ${cancellation.cancelledAt}; there are no answers to pass on.`;
}

function printResume(
  outcome: Extract<RelayAsk, { kind: 'answered' }>,
  { envelope, deps }: ReportInput,
): AskExitCode {
  const read = readAskAnswers(outcome);
  if (!read.ok) {
    deps.err(read.error);
    return ASK_EXIT_CODES.unexpectedError;
  }
  deps.out(formatResumeMessage(envelope, read.value.answers, read.value.followUpText));
  return ASK_EXIT_CODES.answered;
}
