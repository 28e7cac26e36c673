import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRunLog, serializeLogLines, serializeRunLog } from '../../src/store/run-log.js';
import { makeRecord } from '../support/make-record.js';

const RUN = '/runs/a';
const header = `{"version":2,"runDir":"${RUN}"}\n`;
const line = (seq: number, drafts: Record<string, string> = {}) =>
  serializeLogLines([makeRecord(RUN, seq, { drafts })]);

/** The log's records as plain objects, by seq, to compare with what was serialised. */
function recordsOf(text: string) {
  const parsed = parseRunLog(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  const { batches, ...rest } = parsed.value;
  return {
    ...rest,
    batches: [...batches.values()].map((r) => ({ ...r, drafts: { ...r.drafts } })),
  };
}

describe('serializeRunLog and parseRunLog', () => {
  it('write a header and one compact line per record, ordered by seq, and read them back', () => {
    const text = serializeRunLog(RUN, [
      makeRecord(RUN, 2),
      makeRecord(RUN, 1, { drafts: { q: 'x' } }),
    ]);
    const lines = text.split('\n');
    assert.equal(lines[0], `{"version":2,"runDir":"${RUN}"}`);
    assert.equal(lines.length, 4, 'a header, two records, and the final newline');
    assert.equal(lines[3], '');
    assert.deepEqual(recordsOf(text), {
      runDir: RUN,
      lines: 2,
      tornTail: false,
      batches: [
        { ...makeRecord(RUN, 1), drafts: { q: 'x' } },
        { ...makeRecord(RUN, 2), drafts: {} },
      ],
    });
  });

  it('a header alone is a run with no records', () => {
    assert.deepEqual(recordsOf(header), { runDir: RUN, lines: 0, tornTail: false, batches: [] });
  });

  it('takes the last line of each seq and counts every record line', () => {
    const text = header + line(1, { q: 'old' }) + line(2) + line(1, { q: 'new' });
    const log = recordsOf(text);
    assert.equal(log.lines, 3);
    assert.deepEqual(
      log.batches.map((r) => [r.seq, r.drafts.q]),
      [
        [1, 'new'],
        [2, undefined],
      ],
    );
  });

  const unfinishedEnds: [string, string, boolean][] = [
    ['drops a torn last line (no newline, no record) and says so', line(3).slice(0, 25), true],
    ['keeps a whole record that only lacks its newline', line(2).trimEnd(), false],
  ];
  for (const [name, tail, torn] of unfinishedEnds) {
    it(name, () => {
      const before = torn ? line(1) + line(2) : line(1);
      const log = recordsOf(header + before + tail);
      assert.deepEqual(
        { tornTail: log.tornTail, lines: log.lines, seqs: log.batches.map((r) => r.seq) },
        { tornTail: torn, lines: 2, seqs: [1, 2] },
      );
    });
  }

  it('refuses a bad line that is not the last, naming it', () => {
    const garbled = parseRunLog(`${header + line(1)}{"key":\n${line(2)}`);
    assert.ok(!garbled.ok);
    assert.match(garbled.error, /^line 3: not valid JSON/);
    const blank = parseRunLog(`${header}\n${line(1)}`);
    assert.ok(!blank.ok);
    assert.match(blank.error, /^line 2: not valid JSON/);
    const wrongShape = parseRunLog(header + line(1).replace('"open"', '"lost-in-space"'));
    assert.ok(!wrongShape.ok);
    assert.match(wrongShape.error, /^line 2: .*status/);
  });

  it('reads a line a later line of its seq replaced only as JSON: the latest line is the record', () => {
    const stale = line(1).replace('"open"', '"lost-in-space"');
    const log = recordsOf(header + stale + line(2) + line(1));
    assert.deepEqual(
      log.batches.map((r) => r.seq),
      [1, 2],
    );
    assert.equal(log.lines, 3);
    const garbled = parseRunLog(`${header}{"seq":\n${line(1)}`);
    assert.ok(!garbled.ok, 'a replaced line must still be JSON');
    assert.match(garbled.error, /^line 2: not valid JSON/);
    const noSeq = parseRunLog(`${header}{"key":"x"}\n${line(1)}`);
    assert.ok(!noSeq.ok);
    assert.match(noSeq.error, /^line 2: no integer seq/);
  });

  it('refuses a terminated last line that is no record: only an unfinished line is torn', () => {
    const parsed = parseRunLog(`${header + line(1)}{"key":"a\n`);
    assert.ok(!parsed.ok);
    assert.match(parsed.error, /^line 3: not valid JSON/);
  });

  it('refuses a record of another run', () => {
    const parsed = parseRunLog(header + serializeLogLines([makeRecord('/runs/b', 1)]));
    assert.ok(!parsed.ok);
    assert.match(parsed.error, /^line 2: runDir "\/runs\/b" is not the header's "\/runs\/a"/);
  });

  it('refuses a missing or wrong header, an empty file included', () => {
    for (const text of ['', line(1), `{"version":1,"runDir":"${RUN}"}\n`, '{"version":2}\n']) {
      const parsed = parseRunLog(text);
      assert.ok(!parsed.ok, JSON.stringify(text));
      assert.match(parsed.error, /^line 1 \(the header\): /);
    }
  });
});
