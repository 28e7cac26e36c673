import { parseJsonText } from '../protocol/json/json-text.js';
import type { ProtocolProblem } from '../protocol/protocol-error.js';
import { findReservedKeys } from '../protocol/questions/reserved-keys.js';
import { isRecord, problemsFromZod } from '../protocol/schema-messages.js';
import { type EnvelopeScan, unaskedQuestions } from './envelope.js';
import { formatEnvelopeError } from './envelope-error.js';
import { sortEnvelopeProblems } from './envelope-problem-order.js';
import { envelopeSchema } from './envelope-schema.js';
import { type FencedJsonBlock, findFencedJsonBlocks } from './fenced-json-blocks.js';

// The key as JSON, JavaScript or a hurried agent would write it, followed by its colon.
const ENVELOPE_KEY = /"openQuestions"|'openQuestions'|\bopenQuestions\s*:/;

/**
 * A json block that does not parse is the envelope when it plainly tries to be one (it
 * names the `openQuestions` key); any other unparsable block, such as a sloppy summary, is
 * skipped like a block without the key.
 */
const triesToBeEnvelope = (block: FencedJsonBlock): boolean => ENVELOPE_KEY.test(block.content);

// Line numbers count from the first line after the opening fence, as the agent sees the block.
function syntaxProblem(line: number, column: number, message: string): ProtocolProblem {
  const prefix = `invalid JSON at line ${line}, column ${column}: `;
  const detail = (message.startsWith(prefix) ? message.slice(prefix.length) : message).replace(
    'the end of the file',
    'the end of the block',
  );
  return {
    path: '',
    message: `invalid JSON at line ${line}, column ${column} of the block: ${detail}`,
  };
}

/**
 * Scans an agent's final message for its open-questions envelope: the first ```` ```json ````
 * block whose top-level object has an `openQuestions` key (first block wins; blocks before
 * it without the key, and every block after it, are ignored). No such block means the agent
 * has nothing to ask. A broken envelope yields one stable correction message listing every
 * problem.
 */
export function findEnvelope(message: string): EnvelopeScan {
  for (const block of findFencedJsonBlocks(message)) {
    const json = parseJsonText(block.content);
    if (!json.ok) {
      if (!triesToBeEnvelope(block)) continue;
      const { line, column, message: text, path } = json.error;
      const problem =
        path === undefined ? syntaxProblem(line, column, text) : { path, message: text };
      return { kind: 'malformed', error: formatEnvelopeError(block.number, [problem]) };
    }
    if (!isRecord(json.value) || !Object.hasOwn(json.value, 'openQuestions')) continue;
    // zod's copies would turn a `__proto__` field into a prototype
    const reserved = findReservedKeys(json.value);
    if (reserved.length > 0) {
      return { kind: 'malformed', error: formatEnvelopeError(block.number, reserved) };
    }
    const parsed = envelopeSchema.safeParse(json.value);
    if (!parsed.success) {
      const problems = sortEnvelopeProblems(problemsFromZod(parsed.error));
      return { kind: 'malformed', error: formatEnvelopeError(block.number, problems) };
    }
    return { kind: 'envelope', envelope: parsed.data, notAsked: unaskedQuestions(parsed.data) };
  }
  return { kind: 'none' };
}
