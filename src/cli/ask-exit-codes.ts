/** The exit codes of `o7-slack-relay ask`; orchestrators branch on them, so they never change. */
export const ASK_EXIT_CODES = {
  /** stdout is the resume message */
  answered: 0,
  unexpectedError: 1,
  usage: 2,
  /** the message has no envelope: nothing to ask */
  noEnvelope: 3,
  /** stderr is the correction message, verbatim */
  malformed: 4,
  /** Cancel in Slack, or SIGINT/SIGTERM */
  cancelled: 5,
  timedOut: 6,
  noRelay: 7,
  /** second attempt failed too: stdout is the dispatch-failure record's path */
  dispatchFailure: 8,
} as const;
export type AskExitCode = (typeof ASK_EXIT_CODES)[keyof typeof ASK_EXIT_CODES];

/** The exit codes as `help` lists them. */
export const ASK_EXIT_CODE_HELP = [
  [ASK_EXIT_CODES.answered, 'answered: stdout is the resume message'],
  [ASK_EXIT_CODES.unexpectedError, 'unexpected error'],
  [ASK_EXIT_CODES.usage, 'usage error (bad flags, unreadable FILE)'],
  [ASK_EXIT_CODES.noEnvelope, 'no openQuestions envelope in the message: nothing to ask'],
  [ASK_EXIT_CODES.malformed, 'malformed envelope: stderr is the correction message, verbatim'],
  [ASK_EXIT_CODES.cancelled, 'cancelled in Slack, or stopped by SIGINT/SIGTERM'],
  [ASK_EXIT_CODES.timedOut, 'no answer within --timeout'],
  [ASK_EXIT_CODES.noRelay, 'no relay is running for RELAY_STATE_DIR, or the --relay one refused'],
  [ASK_EXIT_CODES.dispatchFailure, 'second attempt malformed: dispatch-failure record written'],
] as const;
