import path from 'node:path';
import { batchKey, fingerprintOf, revisionOf } from '../core/batch/batch-key.js';
import { idRecord } from '../core/protocol/id-record.js';
import { parseQuestionFile } from '../core/protocol/parse-question-file.js';
import { formatProtocolError, refusedFile } from '../core/protocol/protocol-error.js';
import { renderBatchMessages } from '../core/slack/render-batch-messages.js';
import { readProtocolFile } from '../fs/read-protocol-file.js';

const BUILDER = 'https://app.slack.com/block-kit-builder/#';

/** A Block Kit Builder address that opens with these blocks loaded. */
export function blockKitBuilderUrl(blocks: unknown[]): string {
  return `${BUILDER}${encodeURIComponent(JSON.stringify({ blocks }))}`;
}

/**
 * Prints the messages the relay would post for a q-out file: one JSON array on `out` (so it
 * can be piped into jq), and which message is which, with a Block Kit Builder link for each,
 * on `err`. Returns the exit code.
 */
export async function runPreview(
  file: string,
  io: { out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  // the relay's guarded reader: a FIFO, a link or a huge file is refused as the relay would
  let found: Awaited<ReturnType<typeof readProtocolFile>>;
  try {
    found = await readProtocolFile(file);
  } catch (error) {
    found = { kind: 'refused', reason: (error as Error).message };
  }
  if (found.kind === 'missing') {
    io.err(`Cannot read ${file}: no such file. Give the path of a q-out-NNN.json file.`);
    return 2;
  }
  if (found.kind === 'refused') {
    io.err(formatProtocolError(refusedFile(file, found.reason)));
    return 1;
  }
  const text = found.bytes.toString('utf8');
  const parsed = parseQuestionFile(text, file);
  if (!parsed.ok) {
    io.err(formatProtocolError(parsed.error));
    return 1;
  }
  const runDir = path.dirname(path.dirname(path.resolve(file)));
  const messages = renderBatchMessages({
    key: batchKey(runDir, parsed.value.seq),
    revision: revisionOf(fingerprintOf(text)),
    runName: path.basename(runDir),
    runDir,
    seq: parsed.value.seq,
    questions: parsed.value.questions,
    drafts: idRecord(),
    state: { kind: 'open' },
  });
  io.out(JSON.stringify(messages, null, 2));
  for (const [index, message] of messages.entries()) {
    const label = index === 0 ? 'channel message' : `thread reply ${index}`;
    io.err(`[${index}] ${label}, in Block Kit Builder: ${blockKitBuilderUrl(message.blocks)}`);
  }
  return 0;
}
