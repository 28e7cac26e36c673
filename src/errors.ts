/** Error codes the relay reports; stable strings so scripts and tests can match them. */
export const ErrorCode = {
  /** the environment or .env is wrong; `main` exits 2 */
  ConfigInvalid: 'o7_config_invalid',
  /** another live relay holds the state folder */
  StateLocked: 'o7_state_locked',
  /** a durable write (answers, state) failed */
  FileWriteFailed: 'o7_file_write_failed',
  /** something in the state folder is not what the relay keeps there (a folder as the lock, …) */
  StateDirUnusable: 'o7_state_dir_unusable',
  /** a port the relay was told to serve on (RELAY_METRICS_PORT) cannot be listened on */
  PortUnavailable: 'o7_port_unavailable',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** An error with a stable code and a message that says how to fix it. */
export class RelayError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RelayError';
    this.code = code;
  }
}
