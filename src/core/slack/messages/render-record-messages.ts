import path from 'node:path';
import type { BatchRecord } from '../../batch/batch-record.js';
import { formatProtocolError, type ProtocolError } from '../../protocol/protocol-error.js';
import { questionFileName } from '../../protocol/run-folder.js';
import { toBatchView, type ViewContext } from '../layout/to-batch-view.js';
import { renderBatchMessages, type SlackMessage } from './render-batch-messages.js';
import { renderMalformedMessage } from './render-malformed.js';

/** What the messages of a record need besides it. */
export interface RecordContext extends ViewContext {
  /** Why the question file was rejected, when the record is `malformed`. */
  error?: ProtocolError | undefined;
}

/**
 * The messages people see for a batch record, before they are stamped with the sync's
 * iteration: the notice for a q-out file that does not parse, or the batch itself laid out
 * for `split` (see `renderBatchMessages`). The presenter posts these, and `preview` prints
 * them, so the two cannot show different things.
 */
export function renderRecordMessages(
  record: BatchRecord,
  ctx: RecordContext,
  split: number,
): SlackMessage[] {
  if (record.status === 'malformed') {
    return [
      renderMalformedMessage({
        runName: path.basename(record.runDir),
        runDir: record.runDir,
        seq: record.seq,
        fileName: questionFileName(record.seq),
        errorText: ctx.error
          ? formatProtocolError(ctx.error)
          : 'The question file could not be read.',
      }),
    ];
  }
  return renderBatchMessages(toBatchView(record, ctx), split);
}
