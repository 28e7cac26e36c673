import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { DispatchFailureRecord } from '../core/envelope/dispatch-failure.js';
import { publishFileNoClobber } from '../fs/publish-file.js';

// A phase retried again and again still gets a record each time, up to a sane limit.
const MOST_RECORDS = 100;

/**
 * Writes a dispatch-failure record under `cwd`, creating its folders. An existing record is
 * never overwritten: the next free name gets a number (`dispatch-failure-2.md`, …). Returns
 * the path written, relative to `cwd` as the record names it.
 */
export async function writeDispatchFailure(
  cwd: string,
  record: DispatchFailureRecord,
): Promise<string> {
  const relativeDir = path.dirname(record.relativePath);
  const ext = path.extname(record.relativePath);
  const stem = path.basename(record.relativePath, ext);
  const dir = path.resolve(cwd, relativeDir);
  await mkdir(dir, { recursive: true });
  for (let n = 1; n <= MOST_RECORDS; n += 1) {
    const name = n === 1 ? `${stem}${ext}` : `${stem}-${n}${ext}`;
    if ((await publishFileNoClobber(dir, name, record.content)) === 'published') {
      return path.join(relativeDir, name);
    }
  }
  throw new Error(
    `${path.join(dir, `${stem}${ext}`)} and ${MOST_RECORDS - 1} numbered records beside it already exist; move the old records away, then run ask again.`,
  );
}
