import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  channelForPath,
  channelForProject,
  channelsOf,
  type WatchRoot,
} from '../../../src/core/slack/channel-routes.js';

const roots: WatchRoot[] = [
  { path: '/srv/a/.7/runs', channel: 'C0AAAA' },
  { path: '/srv/b/.7/runs', channel: 'C0BBBB' },
  { path: '/srv/b/.7/runs/special', channel: 'C0SPECIAL' },
  { path: '/srv/single-run', channel: 'C0SINGLE' },
];
const channelOf = (place: string) => channelForPath(roots, 'C0DEFAULT', place);

describe('channelForPath', () => {
  test('a run folder, its qa/ folder and its files go to the channel of the folder watched', () => {
    assert.equal(channelOf('/srv/a/.7/runs/run-1'), 'C0AAAA');
    assert.equal(channelOf('/srv/a/.7/runs/run-1/qa'), 'C0AAAA');
    assert.equal(channelOf('/srv/b/.7/runs/run-2/qa/q-out-001.json'), 'C0BBBB');
    // a watched run folder itself
    assert.equal(channelOf('/srv/single-run'), 'C0SINGLE');
  });

  test('the deepest watched folder wins; the first listed on a tie', () => {
    assert.equal(channelOf('/srv/b/.7/runs/special'), 'C0SPECIAL');
    assert.equal(channelOf('/srv/b/.7/runs/special/qa'), 'C0SPECIAL');
    const twice = [
      { path: '/x', channel: 'C0FIRST' },
      { path: '/x', channel: 'C0SECOND' },
    ];
    assert.equal(channelForPath(twice, 'C0DEFAULT', '/x/run'), 'C0FIRST');
  });

  test('names that only start alike are not inside', () => {
    assert.equal(channelOf('/srv/a/.7/runs-old/run-1'), 'C0DEFAULT');
    assert.equal(channelOf('/srv/single-run2'), 'C0DEFAULT');
  });

  test('a folder above watched folders takes the channel of the first below it; anything else the fallback', () => {
    assert.equal(channelOf('/srv/b'), 'C0BBBB');
    assert.equal(channelOf('/srv'), 'C0AAAA');
    assert.equal(channelOf('/elsewhere/run'), 'C0DEFAULT');
    assert.equal(channelForPath([], 'C0DEFAULT', '/srv/a'), 'C0DEFAULT');
  });
});

describe('channelsOf', () => {
  test('each channel once, in the order listed', () => {
    const more = [...roots, { path: '/srv/c', channel: 'C0AAAA' }];
    assert.deepEqual(channelsOf(more), ['C0AAAA', 'C0BBBB', 'C0SPECIAL', 'C0SINGLE']);
  });
});

describe('channelForProject', () => {
  test("a project folder goes to its watched folder's channel; a relative one, read against nothing here, to the default", () => {
    assert.equal(channelForProject(roots, 'C0DEFAULT', '/srv/a/.7/runs/shop'), 'C0AAAA');
    assert.equal(channelForProject(roots, 'C0DEFAULT', '/elsewhere'), 'C0DEFAULT');
    for (const relative of ['', 'srv/a/.7/runs', '../../srv/a/.7/runs', 'ann:/srv/a/.7/runs'])
      assert.equal(channelForProject(roots, 'C0DEFAULT', relative), 'C0DEFAULT', relative);
  });
});
