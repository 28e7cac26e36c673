import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseArgs } from '../../src/cli/parse-args.js';
import { parseAskArgs, parseDuration } from '../../src/cli/parse-ask-args.js';

describe('ask arguments', () => {
  it('read stdin by default, or one FILE', () => {
    assert.deepEqual(parseAskArgs([]), { ok: true, value: { input: '-' } });
    assert.deepEqual(parseAskArgs(['-']), { ok: true, value: { input: '-' } });
    assert.deepEqual(parseAskArgs(['msg.md']), { ok: true, value: { input: 'msg.md' } });
    assert.deepEqual(parseAskArgs(['--', '--odd-name.md']), {
      ok: true,
      value: { input: '--odd-name.md' },
    });
    assert.equal(parseAskArgs(['a.md', 'b.md']).ok, false);
  });

  it('read --timeout in seconds, minutes or hours, spaced or with =', () => {
    assert.deepEqual(parseAskArgs(['--timeout', '15m']), {
      ok: true,
      value: { input: '-', timeout: { ms: 900_000, text: '15m' } },
    });
    assert.deepEqual(parseAskArgs(['--timeout=90', 'f.md']), {
      ok: true,
      value: { input: 'f.md', timeout: { ms: 90_000, text: '90' } },
    });
    assert.deepEqual(parseDuration('2h'), { ok: true, value: 7_200_000 });
    assert.deepEqual(parseDuration('1.5s'), { ok: true, value: 1500 });
    assert.deepEqual(parseDuration('250ms'), { ok: true, value: 250 });
    for (const bad of ['0', '-5', 'soon', '5d', ''])
      assert.equal(parseDuration(bad).ok, false, bad);
    const missing = parseAskArgs(['--timeout']);
    assert.ok(!missing.ok);
    assert.match(missing.error, /--timeout needs a value/);
  });

  it('need --plan and --phase with --second-attempt, and only with it', () => {
    assert.deepEqual(
      parseAskArgs(['--second-attempt', '--plan', '2026-05-01-x', '--phase', 'design']),
      {
        ok: true,
        value: { input: '-', secondAttempt: { planId: '2026-05-01-x', phase: 'design' } },
      },
    );
    const refusals: [string[], RegExp][] = [
      [['--second-attempt'], /needs --plan <id> and --phase <phase>/],
      [['--plan', 'x', '--phase', 'design'], /go with --second-attempt/],
      [['--second-attempt', '--plan', 'a/b', '--phase', 'design'], /expected a plan id/],
      [['--second-attempt', '--plan', 'x', '--phase', ' '], /--phase needs a phase name/],
      [['--verbose'], /unknown option --verbose/],
    ];
    for (const [argv, message] of refusals) {
      const parsed = parseAskArgs(argv);
      assert.ok(!parsed.ok, argv.join(' '));
      assert.match(parsed.error, message);
    }
  });

  it('are reached through the main parser; a problem is a usage error', () => {
    assert.deepEqual(parseArgs(['ask', 'f.md']), { command: 'ask', ask: { input: 'f.md' } });
    assert.equal(parseArgs(['ask', '--timeout', 'x']).command, 'usage-error');
  });
});
