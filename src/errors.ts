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
  /**
   * shared mode: Redis at RELAY_REDIS_URL cannot be reached or used (TLS failed, not a Redis);
   * at start one that cannot be reached is waited for, the rest make `main` exit 2
   */
  RedisUnreachable: 'o7_redis_unreachable',
  /** shared mode, at start: Redis refused RELAY_REDIS_URL's credentials; `main` exits 2 */
  RedisRefused: 'o7_redis_refused',
  /** shared mode, at start: the Redis at RELAY_REDIS_URL is older than 6.2; `main` exits 2 */
  RedisTooOld: 'o7_redis_too_old',
  /** shared mode, while running: Redis is away for now; the action can be tried again */
  RedisUnavailable: 'o7_redis_unavailable',
  /** shared mode: other relays kept changing a batch first; the action can be tried again */
  BatchBusy: 'o7_batch_busy',
  /** shared mode: another live relay holds this RELAY_NODE; `main` exits 2 */
  NodeTaken: 'o7_node_taken',
  /** a port the relay was told to serve on (RELAY_METRICS_PORT) cannot be listened on */
  PortUnavailable: 'o7_port_unavailable',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The codes that mean "change the configuration": `main` exits 2 for them, 1 for the rest. */
export const CONFIG_ERROR_CODES: readonly ErrorCode[] = [
  ErrorCode.ConfigInvalid,
  ErrorCode.RedisUnreachable,
  ErrorCode.RedisRefused,
  ErrorCode.RedisTooOld,
  ErrorCode.NodeTaken,
];

/** An error with a stable code and a message that says how to fix it. */
export class RelayError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RelayError';
    this.code = code;
  }
}

/** The codes that mean "nothing was done, and the same action will work in a moment". */
export const TRY_AGAIN_CODES: readonly ErrorCode[] = [
  ErrorCode.RedisUnavailable,
  ErrorCode.BatchBusy,
];

/** Whether `error` says the action was not done for now and may simply be tried again. */
export function isTryAgain(error: unknown): error is RelayError {
  return error instanceof RelayError && TRY_AGAIN_CODES.includes(error.code);
}
