import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { removeIfPresent, syncDir } from '../fs/durable-io.js';
import { FileWriteError } from '../fs/file-write-error.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { createCoalescingWriter } from './coalescing-writer.js';
import { maxLogLines, serializeLogLines, serializeRunLog } from './run-log.js';

/** What loading found on disk for a run, for its writer to carry on from. */
export interface FoundLog {
  /** Record lines in the file. */
  lines: number;
  /** The file must be replaced before anything is appended (it does not end in a newline). */
  rewriteFirst: boolean;
  /** A state file in the first format, removed once the log holding its records is durable. */
  legacyPath?: string;
}

// Appends never create the file (a log must start with its header), follow a symlink, or wait
// for a reader of a FIFO put in the log's place.
const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Keeps one run's log file up to date with the run's records (`batches`, owned by the store).
 * A write appends the records saved since the last write, in one write and one fdatasync, so
 * it costs what those records cost, however long the run's history. A new file, a file that
 * needs repair, one in the first format, or a log past `maxLogLines` is written whole instead
 * (atomically): amortised, still O(1) per record saved. Writes of one run never overlap.
 */
export class RunLogWriter {
  private dirty: Set<number> | undefined;
  private lines = 0;
  private rewrite = true;
  private legacyPath: string | undefined;
  private readonly writer = createCoalescingWriter(() => this.write());

  /**
   * `after`: the first write waits for it to settle (the removal of this run's files by a
   * `forget` that was under way when the run was saved again).
   */
  constructor(
    readonly path: string,
    private readonly runDir: string,
    private readonly batches: ReadonlyMap<number, BatchRecord>,
    private readonly log: Logger,
    private after?: Promise<void>,
  ) {}

  /** Carries on from the file loading found, instead of writing a new one. */
  adopt(found: FoundLog): void {
    this.lines = found.lines;
    this.rewrite = found.rewriteFirst;
    this.legacyPath = found.legacyPath;
  }

  /** Saves the record `seq` as it is when the write starts; resolves once that is durable. */
  save(seq: number): Promise<void> {
    this.markDirty(seq);
    return this.writer.request();
  }

  /** Resolves when no write is in flight or queued. */
  idle(): Promise<void> {
    return this.writer.idle();
  }

  private markDirty(seq: number): void {
    this.dirty ??= new Set();
    this.dirty.add(seq);
  }

  private async write(): Promise<void> {
    if (this.after) {
      await this.after;
      this.after = undefined;
    }
    const seqs = this.dirty;
    this.dirty = undefined;
    if (seqs) {
      try {
        if (this.rewrite || this.lines + seqs.size > maxLogLines(this.batches.size)) {
          await this.writeWhole();
        } else {
          await this.append(seqs);
        }
      } catch (error) {
        // not durable: those records go into the next write
        for (const seq of seqs) this.markDirty(seq);
        throw error;
      }
    }
    if (this.legacyPath) await this.removeLegacy(this.legacyPath);
  }

  private async writeWhole(): Promise<void> {
    const lines = this.batches.size;
    await writeFileAtomic(this.path, serializeRunLog(this.runDir, this.batches.values()));
    this.lines = lines;
    this.rewrite = false;
  }

  private async append(seqs: Set<number>): Promise<void> {
    // the text is taken now, before any await: later puts wait for the next write
    const text = serializeLogLines([...seqs].map((seq) => this.batches.get(seq) as BatchRecord));
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.path, APPEND_FLAGS);
    } catch {
      // gone (removed by hand), or something else in its place (a symlink, a file we may not
      // write): a whole new log renamed over it is the way back
      await this.writeWhole();
      return;
    }
    try {
      await handle.writeFile(text, 'utf8');
      await handle.datasync();
    } catch (error) {
      // the file may now end in part of these lines: the next write replaces it whole
      this.rewrite = true;
      throw new FileWriteError('Appending to the state log', this.path, error);
    } finally {
      await handle.close();
    }
    this.lines += seqs.size;
  }

  /**
   * The records are durable in the log by now, so a first-format file that will not go fails
   * no save: it is tried again at the next write, and at a start the log beside it wins.
   */
  private async removeLegacy(legacyPath: string): Promise<void> {
    try {
      await removeIfPresent(legacyPath);
      await syncDir(dirname(legacyPath));
      this.legacyPath = undefined;
    } catch (error) {
      this.log.warn(
        { path: legacyPath, err: error },
        'could not remove a state file its run’s log replaced; trying again at the run’s next save (at a start the log wins)',
      );
    }
  }
}
