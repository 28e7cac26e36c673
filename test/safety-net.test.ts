import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { collectOutput } from './support/child-output.js';
import { NODE_LOADER_ARGS, projectModule } from './support/project-paths.js';

const script = projectModule('test/support/stray-errors');

/** Runs the stray-errors script in a real process; its JSON lines and how it ended. */
async function runStrayErrors(args: string[]) {
  const child = spawn(process.execPath, [...NODE_LOADER_ARGS, script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = output
    .out()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, lines, err: output.err() };
}

describe('the safety net', () => {
  test('without it, an error nothing catches ends the process (what a malformed request did)', async () => {
    const { code, lines, err } = await runStrayErrors([]);
    assert.notEqual(code, 0);
    assert.match(err, /thrown in a timer/);
    assert.deepEqual(lines, []);
  });

  test('with it, uncaught errors and unhandled rejections are logged with their origin and the process carries on', async () => {
    const { code, lines, err } = await runStrayErrors(['--net']);
    assert.equal(code, 0, err);
    assert.deepEqual(
      lines.map((l) => [
        l.level,
        l.msg,
        l.origin,
        (l.err as { message?: string } | undefined)?.message,
      ]),
      [
        [50, 'uncaught error; the relay keeps serving', 'uncaughtException', 'thrown in a timer'],
        [
          50,
          'unhandled promise rejection; the relay keeps serving',
          'unhandledRejection',
          'rejected, never awaited',
        ],
        [undefined, 'still serving', undefined, undefined],
      ],
    );
    assert.match(
      String((lines[0]?.err as { stack?: string } | undefined)?.stack),
      /stray-errors\.ts/,
    );
  });
});
