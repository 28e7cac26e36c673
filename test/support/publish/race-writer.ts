// One contender in the multi-process publish race. Usage:
//   node --import tsx race-writer.ts <dir> <writer> <bytes>
// Prints "ready" once loaded. For every "go <name>" line on stdin it publishes its content as
// <dir>/<name> and prints {"writer":N,"name":"…","outcome":"published"|"exists"} (or
// {"writer":N,"name":"…","error":"…"}). Waiting for the line lets all writers start together.
import { createInterface } from 'node:readline';
import { publishFileNoClobber } from '../../../src/fs/publish-file.js';
import { raceContent } from './race-content.js';

const [dir, writerArg, bytesArg] = process.argv.slice(2);
if (!dir || !writerArg || !bytesArg)
  throw new Error('usage: race-writer.ts <dir> <writer> <bytes>');
const writer = Number(writerArg);
const content = raceContent(writer, Number(bytesArg));

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  const [command, name] = line.trim().split(' ');
  if (command === 'exit') break;
  if (command !== 'go' || !name) continue;
  try {
    const outcome = await publishFileNoClobber(dir, name, content);
    process.stdout.write(`${JSON.stringify({ writer, name, outcome })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ writer, name, error: String(error) })}\n`);
  }
}
lines.close();
