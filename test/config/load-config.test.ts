import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse as parseDotenv } from 'dotenv';
import { loadConfig } from '../../src/config/load-config.js';
import { ErrorCode, RelayError } from '../../src/errors.js';
import { REPO } from '../support/project-paths.js';
import { SOCKET_ENV as base } from './config-env.js';

describe('loadConfig', () => {
  test('Socket Mode with defaults', () => {
    const config = loadConfig(base, '/work/project');
    assert.deepEqual(config, {
      slack: {
        botToken: 'xoxb-1-2-abc',
        channelId: 'C0123ABCD',
        apiUrl: 'https://slack.com/api/',
        mode: 'socket',
        appToken: 'xapp-1-A1-2-abc',
      },
      watch: [{ path: '/work/project/.7/runs', channel: 'C0123ABCD' }],
      stateDir: '/work/project/.7/slack-relay',
      poll: false,
      logLevel: 'info',
      digestAt: 4,
      undo: { seconds: 10, everywhere: false },
      auditLog: '/work/project/.7/slack-relay/audit.jsonl',
    });
  });

  test('HTTP mode, RUN_STATE_DIR as the watch default, URL given a trailing slash', () => {
    const config = loadConfig(
      {
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 'secret',
        PORT: '8080',
        SLACK_CHANNEL_ID: 'G0PRIVATE',
        SLACK_API_URL: 'http://127.0.0.1:9/api',
        RUN_STATE_DIR: '.7/runs/abc',
        RELAY_POLL: 'yes',
        LOG_LEVEL: 'debug',
      },
      '/p',
    );
    assert.equal(config.slack.mode, 'http');
    assert.equal(config.slack.port, 8080);
    assert.equal(config.slack.signingSecret, 'secret');
    assert.equal('appToken' in config.slack, false);
    assert.equal(config.slack.apiUrl, 'http://127.0.0.1:9/api/');
    assert.deepEqual(config.watch, [{ path: '/p/.7/runs/abc', channel: 'G0PRIVATE' }]);
    assert.equal(config.poll, true);
  });

  test('RELAY_WATCH takes several paths and wins over RUN_STATE_DIR', () => {
    const config = loadConfig({ ...base, RELAY_WATCH: ' a , /abs/b ,', RUN_STATE_DIR: 'x' }, '/p');
    assert.deepEqual(
      config.watch.map((root) => root.path),
      ['/p/a', '/abs/b'],
    );
  });

  test('every bad variable is named with how to fix it, and no secret is echoed', () => {
    let caught: unknown;
    try {
      loadConfig(
        {
          SLACK_BOT_TOKEN: 'xoxp-user-token-secret',
          SLACK_CHANNEL_ID: '#general',
          PORT: 'eighty',
          LOG_LEVEL: 'loud',
        },
        '/p',
      );
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof RelayError);
    assert.equal(caught.code, ErrorCode.ConfigInvalid);
    const lines = caught.message.split('\n');
    assert.equal(lines[0], 'The relay cannot start: its configuration is incomplete or wrong.');
    assert.ok(
      lines.some((l) =>
        l.startsWith('  - SLACK_BOT_TOKEN must be a bot token starting with xoxb-'),
      ),
    );
    assert.ok(
      lines.some((l) => l.startsWith('  - SLACK_CHANNEL_ID must be a channel ID like C0123ABCD')),
    );
    assert.ok(lines.some((l) => l.startsWith('  - PORT ')));
    assert.ok(lines.some((l) => l.startsWith('  - LOG_LEVEL must be one of fatal, error')));
    assert.ok(
      lines.some((l) =>
        l.startsWith('  - SLACK_APP_TOKEN is not set, and neither is SLACK_SIGNING_SECRET'),
      ),
    );
    assert.doesNotMatch(caught.message, /user-token-secret/);
  });

  test('a missing bot token says where to find one', () => {
    assert.throws(
      () => loadConfig({ SLACK_APP_TOKEN: 'xapp-1', SLACK_CHANNEL_ID: 'C1234' }, '/p'),
      /SLACK_BOT_TOKEN is not set; copy the Bot User OAuth Token/,
    );
  });

  test('.env.example copied as it is does not pass: each placeholder is named', () => {
    const example = parseDotenv(readFileSync(path.join(REPO, '.env.example'), 'utf8'));
    let caught: unknown;
    try {
      loadConfig(example, '/p');
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof RelayError, 'the placeholders are refused');
    assert.equal(caught.code, ErrorCode.ConfigInvalid);
    const lines = caught.message.split('\n');
    assert.ok(
      lines.includes(
        `  - SLACK_BOT_TOKEN is a placeholder (a real token has numbers in it); copy the Bot User OAuth Token from OAuth & Permissions in your Slack app`,
      ),
      caught.message,
    );
    assert.ok(
      lines.some((l) => l.startsWith('  - SLACK_APP_TOKEN is a placeholder')),
      caught.message,
    );
    assert.ok(
      lines.some((l) => l.startsWith('  - SLACK_CHANNEL_ID must be a channel ID like C0123ABCD')),
      caught.message,
    );
    assert.equal(lines.length, 5, 'nothing else is wrong with the example');
  });

  test('a token with the right prefix and numbers passes; one without numbers is a placeholder', () => {
    assert.equal(loadConfig(base, '/p').slack.botToken, 'xoxb-1-2-abc');
    assert.throws(
      () => loadConfig({ ...base, SLACK_BOT_TOKEN: 'xoxb-paste-here' }, '/p'),
      /SLACK_BOT_TOKEN is a placeholder/,
    );
    assert.throws(
      () => loadConfig({ ...base, SLACK_APP_TOKEN: 'xapp-…' }, '/p'),
      /SLACK_APP_TOKEN is a placeholder/,
    );
  });
});
