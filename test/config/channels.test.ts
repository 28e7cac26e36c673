import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load-config.js';
import { SOCKET_TOKENS as tokens } from './config-env.js';
import { configProblems as problems } from './config-problems.js';

/** One watched folder and the channel its batches go to. */
const at = (path: string, channel: string) => ({ path, channel });

describe('channels per watched folder (RELAY_WATCH=folder=CHANNEL_ID)', () => {
  const cases: {
    name: string;
    env: Record<string, string>;
    watch: { path: string; channel: string }[];
    askChannel: string;
  }[] = [
    {
      name: 'every entry names its channel: SLACK_CHANNEL_ID may be left out, ask uses the first',
      env: { RELAY_WATCH: '/srv/a/.7/runs=C0AAAA,/srv/b/.7/runs=C0BBBB' },
      watch: [at('/srv/a/.7/runs', 'C0AAAA'), at('/srv/b/.7/runs', 'C0BBBB')],
      askChannel: 'C0AAAA',
    },
    {
      name: 'entries without a channel use SLACK_CHANNEL_ID, which is also the one for ask',
      env: { SLACK_CHANNEL_ID: 'C0DEFAULT', RELAY_WATCH: 'runs, /srv/b=G0PRIVATE' },
      watch: [at('/p/runs', 'C0DEFAULT'), at('/srv/b', 'G0PRIVATE')],
      askChannel: 'C0DEFAULT',
    },
    {
      name: 'RUN_STATE_DIR is one folder: an = in it is part of its path',
      env: { SLACK_CHANNEL_ID: 'C0DEFAULT', RUN_STATE_DIR: '/runs/x=C0AAAA' },
      watch: [at('/runs/x=C0AAAA', 'C0DEFAULT')],
      askChannel: 'C0DEFAULT',
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const config = loadConfig({ ...tokens, ...c.env }, '/p');
      assert.deepEqual(config.watch, c.watch);
      assert.equal(config.slack.channelId, c.askChannel);
    });
  }

  test('without SLACK_CHANNEL_ID, the entries that name no channel are listed with the fix', () => {
    assert.deepEqual(problems({ ...tokens, RELAY_WATCH: '/srv/a=C0AAAA, runs, /srv/c' }), [
      '  - SLACK_CHANNEL_ID is not set, and RELAY_WATCH names no channel for "runs", "/srv/c"; set SLACK_CHANNEL_ID to the channel ID for them (e.g. C0123ABCD), or end each of them with =CHANNEL_ID',
    ]);
  });

  test('without SLACK_CHANNEL_ID nor RELAY_WATCH, the channel is asked for', () => {
    const [problem, ...rest] = problems({ ...tokens });
    assert.deepEqual(rest, []);
    assert.match(problem ?? '', /^ {2}- SLACK_CHANNEL_ID is not set; give the ID of the channel/);
    assert.match(problem ?? '', /RELAY_WATCH, each ending in =CHANNEL_ID$/);
    // RUN_STATE_DIR never names a channel
    assert.equal(problems({ ...tokens, RUN_STATE_DIR: '/runs/x' }).length, 1);
  });

  test('a wrong entry is named under RELAY_WATCH together with the other problems', () => {
    const lines = problems({
      ...tokens,
      SLACK_CHANNEL_ID: 'general',
      RELAY_WATCH: '/srv/a=ops,/srv/b=C0BBBB',
    });
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.ok(lines.some((l) => l.startsWith('  - SLACK_CHANNEL_ID must be a channel ID like')));
    assert.ok(
      lines.some((l) => l.startsWith('  - RELAY_WATCH has "/srv/a=ops", whose "=ops" is not')),
    );
  });

  test('without SLACK_CHANNEL_ID, an entry without a channel is named beside a wrong entry', () => {
    const lines = problems({ ...tokens, RELAY_WATCH: 'runs,/srv/a=ops' });
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.ok(lines.some((l) => l.startsWith('  - RELAY_WATCH has "/srv/a=ops"')));
    assert.ok(lines.some((l) => l.includes('RELAY_WATCH names no channel for "runs";')));
  });

  test('a blank SLACK_CHANNEL_ID counts as unset', () => {
    const config = loadConfig(
      { ...tokens, SLACK_CHANNEL_ID: ' ', RELAY_WATCH: '/srv/a=C0AAAA' },
      '/p',
    );
    assert.equal(config.slack.channelId, 'C0AAAA');
    assert.equal(problems({ ...tokens, SLACK_CHANNEL_ID: '', RELAY_WATCH: 'runs' }).length, 1);
  });
});
