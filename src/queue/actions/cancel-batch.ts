import path from 'node:path';
import type { Logger } from 'pino';
import { cancelled } from '../../core/batch/batch-changes.js';
import type { CancelOutcome } from '../../core/batch/outcomes.js';
import { refusalFor } from '../../core/batch/refusal.js';
import {
  CANCELLED_FILE_NAME,
  serializeCancellation,
} from '../../core/envelope/ask-cancellation.js';
import { isEnvelopeBatch } from '../../core/envelope/envelope-batch.js';
import { writeFileAtomic } from '../../fs/write-file-atomic.js';
import type { QuestionReader } from '../runs/question-reader.js';
import { otherOwner } from '../runs/run-owners.js';
import type { CancelInput } from './action-inputs.js';
import type { OwnBatchWorkDeps } from './open-batch-changes.js';

/** What {@link cancelBatch} needs. */
export interface CancelBatchDeps extends OwnBatchWorkDeps {
  questions: Pick<QuestionReader, 'batchOf'>;
  /** Throws when the folder of a file to write may not be written (see `createFolderGuard`). */
  assertWritable: (file: string) => Promise<void>;
  log: Logger;
}

/**
 * Closes the open envelope batch `key` without answers: writes `cancelled.json` into its
 * folder for the waiting `ask`, then records who cancelled. No answer file is written. A batch
 * of another machine is cancelled by its own relay, asked through `owners`.
 */
export function cancelBatch(
  key: string,
  input: CancelInput,
  deps: CancelBatchDeps,
): Promise<CancelOutcome> {
  const { log } = deps;
  const known = deps.store.get(key);
  const owner = known && otherOwner(deps.owners, known);
  if (known && owner) {
    const refusal = refusalFor(known, { revision: input.revision });
    return refusal ? Promise.resolve(refusal) : owner.cancel(known, input);
  }
  return deps.open.onOwn(key, input.revision, async (open, runDir): Promise<CancelOutcome> => {
    const batch = await deps.questions.batchOf(open);
    if (!batch) return { kind: 'out-of-date' };
    if (!isEnvelopeBatch(batch)) return { kind: 'not-cancellable' };
    const { seq } = open;
    const at = deps.now().toISOString();
    const content = serializeCancellation({ seq, cancelledBy: input.by, cancelledAt: at });
    try {
      const file = path.join(runDir, CANCELLED_FILE_NAME);
      await deps.assertWritable(file);
      await writeFileAtomic(file, content);
    } catch (err) {
      log.error({ err, runDir, seq }, 'could not write the cancellation');
      return {
        kind: 'write-failed',
        message: err instanceof Error ? err.message : String(err),
      };
    }
    log.info({ runDir, seq, by: input.by }, 'batch cancelled');
    const record = await deps.change(key, (current) => cancelled(current, input.by, at));
    await deps.show(runDir);
    return { kind: 'cancelled', record: record ?? open };
  });
}
