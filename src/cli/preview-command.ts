import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { batchKey, fingerprintOf } from '../core/batch/batch-key.js';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { formatProtocolError, refusedFile } from '../core/protocol/protocol-error.js';
import { describeGap, listQaFiles, missingBefore } from '../core/protocol/qa-listing.js';
import { idRecord } from '../core/protocol/questions/id-record.js';
import { lookAlikeFix } from '../core/protocol/questions/look-alike-names.js';
import { parseQuestionFile } from '../core/protocol/questions/parse-question-file.js';
import { parseQaFileName } from '../core/protocol/run-folder.js';
import { stampIteration } from '../core/slack/layout/stamp-iteration.js';
import { renderRecordMessages } from '../core/slack/messages/render-record-messages.js';
import { readProtocolFile } from '../fs/read-protocol-file.js';

const BUILDER = 'https://app.slack.com/block-kit-builder/#';

/** A Block Kit Builder address that opens with these blocks loaded. */
export function blockKitBuilderUrl(blocks: unknown[]): string {
  return `${BUILDER}${encodeURIComponent(JSON.stringify({ blocks }))}`;
}

type Io = { out: (line: string) => void; err: (line: string) => void };

const GIVE_ONE = 'Give the path of one q-out-NNN.json file';

/** Why `file` is not one `preview` can show, or undefined when it names a q-out file. */
async function notAQuestionFile(file: string): Promise<string | undefined> {
  const name = path.basename(file);
  const parsed = parseQaFileName(name);
  try {
    if ((await lstat(file)).isDirectory()) {
      return `${file} is a folder. ${GIVE_ONE} (o7-slack-relay check takes folders).`;
    }
  } catch {
    // a missing file is told by the reader, with the relay's words
  }
  if (parsed?.kind === 'answer') {
    return `${file} is an answer file; preview shows the messages of a question file. ${GIVE_ONE}, or validate this one with o7-slack-relay check.`;
  }
  if (parsed === undefined) {
    const fix = lookAlikeFix(name);
    const why =
      fix === undefined ? 'not a q-out-NNN.json name' : `a name the relay ignores: ${fix}`;
    return `${file}: ${why}, so the relay would post nothing for it. ${GIVE_ONE}.`;
  }
  return undefined;
}

/** The note the relay adds for a gap in the run's batches, from the names beside the file. */
async function gapNote(file: string, seq: number): Promise<string | undefined> {
  try {
    const listing = listQaFiles(await readdir(path.dirname(file)));
    return describeGap(missingBefore(listing, seq), seq);
  } catch {
    return undefined; // the folder cannot be listed: the batch is shown without it
  }
}

/**
 * Prints the messages the relay posts first for a q-out file, built by the presenter's own
 * render function from the record the relay opens: one JSON array on `out` (so it can be piped
 * into jq), and which message is which, with a Block Kit Builder link for each, on `err`.
 * Returns the exit code: 0 shown, 1 the file is refused, 2 it is not a q-out file.
 */
export async function runPreview(file: string, io: Io): Promise<number> {
  const wrong = await notAQuestionFile(file);
  if (wrong !== undefined) {
    io.err(wrong);
    return 2;
  }
  // the relay's guarded reader: a FIFO, a link or a huge file is refused as the relay would
  let found: Awaited<ReturnType<typeof readProtocolFile>>;
  try {
    found = await readProtocolFile(file);
  } catch (error) {
    found = { kind: 'refused', reason: (error as Error).message };
  }
  if (found.kind === 'missing') {
    io.err(`Cannot read ${file}: no such file. ${GIVE_ONE}.`);
    return 2;
  }
  if (found.kind === 'refused') {
    io.err(formatProtocolError(refusedFile(file, found.reason), 'preview'));
    return 1;
  }
  const parsed = parseQuestionFile(found.bytes.toString('utf8'), file);
  if (!parsed.ok) {
    io.err(formatProtocolError(parsed.error, 'preview'));
    return 1;
  }
  const runDir = path.dirname(path.dirname(path.resolve(file)));
  const { seq } = parsed.value;
  const note = await gapNote(file, seq);
  const now = new Date().toISOString();
  // the record the relay opens for a new batch (outside shared mode, whose key names the node)
  const record: BatchRecord = {
    key: batchKey(runDir, seq),
    runDir,
    seq,
    fingerprint: fingerprintOf(found.bytes),
    status: 'open',
    drafts: idRecord(),
    createdAt: now,
    updatedAt: now,
    ...(note ? { note } : {}),
  };
  // a batch's first post is its presentation's first iteration
  const messages = renderRecordMessages(record, { batch: parsed.value }, 0).map((message) =>
    stampIteration(message, 1),
  );
  io.out(JSON.stringify(messages, null, 2));
  for (const [index, message] of messages.entries()) {
    const label = index === 0 ? 'channel message' : `thread reply ${index}`;
    io.err(`[${index}] ${label}, in Block Kit Builder: ${blockKitBuilderUrl(message.blocks)}`);
  }
  return 0;
}
