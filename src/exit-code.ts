import { CONFIG_ERROR_CODES, RelayError } from './errors.js';

/**
 * Sets the process's exit code to the one `run` settles on. A command that threw is said in
 * one stderr line: a RelayError already says what failed and how to fix it (a stack would
 * only bury that), and exits 2 for a configuration mistake, 1 for the rest; anything else is
 * a bug, shown with its stack. main.ts and hook-main.ts end with this.
 */
export function exitWith(run: Promise<number>): void {
  run.then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof RelayError) {
        process.stderr.write(`${error.message}\n`);
        process.exitCode = CONFIG_ERROR_CODES.includes(error.code) ? 2 : 1;
        return;
      }
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`o7-slack-relay failed: ${detail}\n`);
      process.exitCode = 1;
    },
  );
}
