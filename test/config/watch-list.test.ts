import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseWatchList } from '../../src/config/watch-list.js';

/** The entries of a list that must parse. */
function entries(text: string) {
  const read = parseWatchList(text);
  assert.ok(read.ok, read.ok ? '' : read.error.join('\n'));
  return read.value;
}

/** The problems of a list that must not parse. */
function problems(text: string): string[] {
  const read = parseWatchList(text);
  assert.ok(!read.ok, `${JSON.stringify(text)} was accepted`);
  return read.error;
}

describe('parseWatchList (RELAY_WATCH)', () => {
  test('the contract: folders separated by commas, each maybe ending in =CHANNEL_ID', () => {
    assert.deepEqual(entries('/srv/a/.7/runs=C0AAAA,/srv/b/.7/runs=C0BBBB'), [
      { path: '/srv/a/.7/runs', channel: 'C0AAAA' },
      { path: '/srv/b/.7/runs', channel: 'C0BBBB' },
    ]);
  });

  test('entries without a channel, blanks around parts, and empty parts', () => {
    assert.deepEqual(entries(' .7/runs , /srv/b = G0PRIVATE ,, '), [
      { path: '.7/runs' },
      { path: '/srv/b', channel: 'G0PRIVATE' },
    ]);
  });

  test('an = inside a folder name is part of the path; the channel is what follows the last =', () => {
    assert.deepEqual(entries('/srv/key=value/runs'), [{ path: '/srv/key=value/runs' }]);
    assert.deepEqual(entries('/srv/key=value/runs=C0AAAA'), [
      { path: '/srv/key=value/runs', channel: 'C0AAAA' },
    ]);
    // a folder whose own name has an =: a trailing slash says so
    assert.deepEqual(entries('/srv/a=b/'), [{ path: '/srv/a=b/' }]);
    assert.deepEqual(entries('/srv/a=b/=C0AAAA'), [{ path: '/srv/a=b/', channel: 'C0AAAA' }]);
  });

  test('a comma always separates entries: a path cannot hold one', () => {
    assert.deepEqual(entries('/srv/a,b=C0AAAA'), [
      { path: '/srv/a' },
      { path: 'b', channel: 'C0AAAA' },
    ]);
  });

  test('a channel name or a lower-case ID after = is refused, quoting the entry', () => {
    const [problem] = problems('/srv/a=C0AAAA,/srv/b=general');
    assert.match(problem ?? '', /^has "\/srv\/b=general", whose "=general" is not a channel ID; /);
    assert.match(problem ?? '', /an ID like C0123ABCD \(channel details → About → Channel ID\)/);
    assert.match(problem ?? '', /end the path with \//);
    assert.equal(problems('/srv/b=c0bbbb').length, 1);
    assert.equal(problems('/srv/b=#ops').length, 1);
  });

  test('an = with nothing after it, or a channel with no folder, is refused', () => {
    assert.match(problems('/srv/a=')[0] ?? '', /ends in = with no channel after it/);
    assert.match(problems('=C0AAAA')[0] ?? '', /names a channel but no folder/);
  });

  test('the same folder with two channels is refused; twice with the same channel is kept once', () => {
    const [twice] = problems('/srv/a=C0AAAA,/srv/a/=C0BBBB');
    assert.match(
      twice ?? '',
      /lists the folder "\/srv\/a" twice, as "\/srv\/a=C0AAAA" and "\/srv\/a\/=C0BBBB"/,
    );
    assert.deepEqual(entries('/srv/a=C0AAAA, /srv/./a=C0AAAA'), [
      { path: '/srv/a', channel: 'C0AAAA' },
    ]);
    assert.equal(problems('runs,runs=C0AAAA').length, 1);
  });

  test('every problem is told at once', () => {
    assert.equal(problems('/a=x,/b=,=C0AAAA').length, 3);
  });

  test('a list of only commas names no folder', () => {
    assert.match(problems(' , ,')[0] ?? '', /^lists no folders; give comma-separated folders/);
  });
});
