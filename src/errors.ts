/** Error codes the relay reports; stable strings so scripts and tests can match them. */
export const ErrorCode = {
  ConfigInvalid: 'o7_config_invalid',
  StateLocked: 'o7_state_locked',
  UsageInvalid: 'o7_usage_invalid',
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
