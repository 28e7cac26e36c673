import type { Readable } from 'node:stream';

/** What a child process has written so far, to stdout and to stderr, as text. */
export function collectOutput(child: { stdout: Readable; stderr: Readable }): {
  out: () => string;
  err: () => string;
} {
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  return { out: () => out, err: () => err };
}
