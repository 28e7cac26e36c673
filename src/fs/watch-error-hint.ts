/** Error codes that mean "the thing vanished while we looked": normal when runs are deleted. */
const EXPECTED_RACES = new Set(['ENOENT', 'ENOTDIR']);

const HINTS: Readonly<Record<string, string>> = {
  ENOSPC:
    'the system limit on inotify watches is reached: raise it (sysctl fs.inotify.max_user_watches=524288) or set RELAY_POLL=1 to poll instead',
  EMFILE:
    'too many open files: raise the open-file limit (ulimit -n) or set RELAY_POLL=1 to poll instead',
  EACCES:
    "the relay's user may not read this folder: grant it read and execute permission, or stop watching it",
  EPERM:
    "the relay's user may not read this folder: grant it read and execute permission, or stop watching it",
};

/**
 * How to report a watcher error: `undefined` for expected races (a folder deleted between the
 * event and the read), otherwise a hint telling the operator what to change.
 */
export function watchErrorHint(code: string | undefined): string | undefined {
  if (code !== undefined && EXPECTED_RACES.has(code)) return undefined;
  return (
    (code === undefined ? undefined : HINTS[code]) ??
    'check that the watch path exists and is readable, or set RELAY_POLL=1 on network filesystems'
  );
}
