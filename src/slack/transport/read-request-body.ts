import type { IncomingMessage } from 'node:http';

/** What reading a request's body gave: the bytes, or that it was larger than allowed. */
export type ReadBody = { ok: true; bytes: Buffer } | { ok: false; tooLarge: true };

/**
 * Reads a request's body, giving up as soon as it is known to exceed `limit` bytes (from its
 * Content-Length, or while it streams), so a huge body is never held in memory.
 */
export function readRequestBody(req: IncomingMessage, limit: number): Promise<ReadBody> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.resolve({ ok: false, tooLarge: true });
  }
  return new Promise<ReadBody>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        resolve({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve({ ok: true, bytes: Buffer.concat(chunks) });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}
