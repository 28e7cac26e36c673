import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { envSchema, VARIABLE_SHAPES } from '../../src/config/config-schema.js';
import { loadConfig, loadSharedConfig } from '../../src/config/load-config.js';
import { ErrorCode, RelayError } from '../../src/errors.js';
import { runCli } from '../cli/run-cli.js';
import { makeTempDir } from '../support/temp-dir.js';

// Shaped like real ones, so the token rule sees them; none of them was ever issued.
const BOT_TOKEN = 'xoxb-2841177305-7730941526630-Qw8rT5uYbN3mKd7LsPfXj2Ha';
const APP_TOKEN = 'xapp-1-A07QW3ERT5Y-7741122334455-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const SIGNING_SECRET = '8f14e45fceea167a5a36dedd4bea2543';

/** An environment that loads, in HTTP mode, with each of the three secrets set. */
const HTTP_ENV = {
  SLACK_BOT_TOKEN: BOT_TOKEN,
  SLACK_SIGNING_SECRET: SIGNING_SECRET,
  SLACK_CHANNEL_ID: 'C0123ABCD',
};
/** The same in Socket Mode. */
const SOCKET_ENV = {
  SLACK_BOT_TOKEN: BOT_TOKEN,
  SLACK_APP_TOKEN: APP_TOKEN,
  SLACK_CHANNEL_ID: 'C0123ABCD',
};

/** Secrets people paste into the wrong variable, each as it would be written there. */
const MISPLACED = [
  { what: 'a bot token', secret: BOT_TOKEN, env: SOCKET_ENV },
  {
    what: 'a user token',
    secret: 'xoxp-2841177305-2841177306-7730941526631-5d41402abc4b2a76b9719d911017c592',
    env: SOCKET_ENV,
  },
  {
    what: 'a rotating token',
    secret: 'xoxe.xoxp-1-Mi0yLTI4NDExNzczMDUtNzczMDk0MTUyNjYzMQ',
    env: SOCKET_ENV,
  },
  {
    what: 'a refresh token',
    secret: 'xoxe-1-My0xLTI4NDExNzczMDUtNzczMDk0MTUyNjYzMi0xNzQw',
    env: SOCKET_ENV,
  },
  { what: 'an app token', secret: APP_TOKEN, env: SOCKET_ENV },
  {
    what: 'a URL with a password',
    secret: 'https://relay:hunter2-s3cret@slack.example.com/api/',
    env: SOCKET_ENV,
  },
  { what: 'a URL with a user name', secret: 'https://SECRET-USER-7730941526@x', env: SOCKET_ENV },
  { what: "the signing secret's value", secret: SIGNING_SECRET, env: HTTP_ENV },
] as const;

/** Where each secret belongs, and so is not misplaced (its own checks still never quote it). */
const HOMES: Record<string, readonly string[]> = {
  SLACK_BOT_TOKEN: [
    'a bot token',
    'a user token',
    'a rotating token',
    'a refresh token',
    'an app token',
  ],
  SLACK_APP_TOKEN: [
    'a bot token',
    'a user token',
    'a rotating token',
    'a refresh token',
    'an app token',
  ],
  SLACK_SIGNING_SECRET: ["the signing secret's value"],
  RELAY_REDIS_URL: ['a URL with a password', 'a URL with a user name'],
};

/** The error `env` gives, or fails when it loads. */
function refusal(env: Record<string, string>): RelayError {
  try {
    loadConfig(env, '/p', 'host');
  } catch (error) {
    assert.ok(error instanceof RelayError, String(error));
    assert.equal(error.code, ErrorCode.ConfigInvalid);
    return error;
  }
  assert.fail(`accepted: ${JSON.stringify(env)}`);
}

/**
 * What of a secret must never be shown: a token's body (its prefix is what the message names),
 * a URL's user name and password, anything else whole.
 */
function secretPart(value: string): string {
  const credentials = /:\/\/([^@]*)@/.exec(value);
  if (credentials) return credentials[1] as string;
  if (/^(xox|xapp)/.test(value)) return value.slice(value.indexOf('-') + 1);
  return value;
}

/** No piece of the secret longer than 7 characters is in `text`: a cut quote leaks as much. */
function assertNotShown(text: string, value: string, where: string) {
  const secret = secretPart(value);
  for (let at = 0; at + 8 <= secret.length; at += 1) {
    const piece = secret.slice(at, at + 8);
    assert.ok(!text.includes(piece), `${where}: "${piece}" of the secret is shown in:\n${text}`);
  }
}

const VARIABLES = Object.keys(envSchema.shape);

describe('configuration messages never repeat a secret', () => {
  test('every variable has the shape said in its place', () => {
    assert.deepEqual(Object.keys(VARIABLE_SHAPES).sort(), [...VARIABLES].sort());
  });

  for (const name of VARIABLES) {
    test(`${name}: a secret placed there is named, never shown`, () => {
      for (const { what, secret, env } of MISPLACED) {
        const message = (() => {
          try {
            loadConfig({ ...env, [name]: secret }, '/p', 'host');
            return undefined;
          } catch (error) {
            assert.ok(error instanceof RelayError, String(error));
            return error.message;
          }
        })();
        const home = HOMES[name]?.includes(what) === true;
        if (!home) {
          assert.ok(message, `${what} in ${name} is refused`);
          const line = message
            .split('\n')
            .find((l) => l.startsWith(`  - ${name} holds what looks like`));
          assert.ok(line, `${what} in ${name}: the line names the variable:\n${message}`);
          assert.ok(line.includes(VARIABLE_SHAPES[name as keyof typeof VARIABLE_SHAPES]), line);
        }
        if (message) assertNotShown(message, secret, `${what} in ${name}`);
      }
    });
  }

  test('a secret inside a value that is otherwise right is refused too', () => {
    for (const [name, value] of [
      ['RELAY_ALLOWED_USERS', `U0123ABCD, ${BOT_TOKEN}`],
      ['RELAY_WATCH', `/srv/a/.7/runs=C0AAAA1,/srv/${BOT_TOKEN}/runs`],
      ['RELAY_STATE_DIR', `/var/lib/relay-${SIGNING_SECRET}`],
      ['RELAY_REDIS_URL', `rediss://default:${APP_TOKEN}@redis.example.com:6380`],
    ] as const) {
      const env = name === 'RELAY_STATE_DIR' ? HTTP_ENV : SOCKET_ENV;
      const message = refusal({ ...env, [name]: value }).message;
      assert.match(message, new RegExp(`^ {2}- ${name} holds what looks like`, 'm'));
      assertNotShown(
        message,
        value.includes(BOT_TOKEN)
          ? BOT_TOKEN
          : value.includes(APP_TOKEN)
            ? APP_TOKEN
            : SIGNING_SECRET,
        name,
      );
    }
  });

  test('the rules across variables do not quote a variable that holds a secret', () => {
    // RELAY_WATCH without a channel and no SLACK_CHANNEL_ID: the rule would quote the folder
    const { SLACK_CHANNEL_ID: _, ...noChannel } = SOCKET_ENV;
    const message = refusal({ ...noChannel, RELAY_WATCH: `/srv/${BOT_TOKEN}` }).message;
    assert.deepEqual(
      message
        .split('\n')
        .filter((l) => l.startsWith('  - '))
        .map((l) => l.split(' ')[3]),
      ['RELAY_WATCH'],
    );
    assertNotShown(message, BOT_TOKEN, 'RELAY_WATCH');
  });

  test("a secret in another secret's variable is named for what it is", () => {
    const message = refusal({
      ...SOCKET_ENV,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_APP_TOKEN: SIGNING_SECRET,
    }).message;
    assert.match(
      message,
      /SLACK_APP_TOKEN holds what looks like the value of SLACK_SIGNING_SECRET/,
    );
    assertNotShown(message, SIGNING_SECRET, 'SLACK_APP_TOKEN');
    const token = refusal({ ...HTTP_ENV, SLACK_SIGNING_SECRET: BOT_TOKEN }).message;
    assert.match(token, /SLACK_SIGNING_SECRET holds what looks like a Slack token \(xoxb-…\)/);
    assertNotShown(token, BOT_TOKEN, 'SLACK_SIGNING_SECRET');
  });

  test('shared mode alone (nodes) follows the same rule', () => {
    assert.throws(
      () =>
        loadSharedConfig(
          { RELAY_REDIS_URL: 'redis://localhost:6379', RELAY_NODE: BOT_TOKEN },
          'host',
        ),
      (error: unknown) => {
        assert.ok(error instanceof RelayError);
        assert.match(error.message, /RELAY_NODE holds what looks like a Slack token/);
        assertNotShown(error.message, BOT_TOKEN, 'RELAY_NODE');
        return true;
      },
    );
  });

  test('what only resembles a secret is taken as it is', () => {
    const config = loadConfig(
      {
        ...HTTP_ENV,
        SLACK_SIGNING_SECRET: 'secret',
        RELAY_WATCH: '/srv/xapp-2024/runs,/srv/secret/runs,/srv/me@host/runs',
        RELAY_STATE_DIR: '/var/lib/xoxb-relay',
        RELAY_REDIS_URL: 'rediss://relay:hunter2@redis.example.com:6380',
      },
      '/p',
      'host',
    );
    assert.deepEqual(
      config.watch.map((w) => w.path),
      ['/srv/xapp-2024/runs', '/srv/secret/runs', '/srv/me@host/runs'],
    );
    assert.equal(config.stateDir, '/var/lib/xoxb-relay');
    assert.equal(config.shared?.redisUrl, 'rediss://relay:hunter2@redis.example.com:6380');
  });
});

describe('SLACK_API_URL', () => {
  test('a URL no request can be made to is refused, without being quoted', () => {
    for (const [url, problem] of [
      [
        'https://SECRET@x',
        /SLACK_API_URL holds what looks like a URL with a user name or password/,
      ],
      [
        'https:SECRET@x/api/',
        /SLACK_API_URL holds what looks like a URL with a user name or password/,
      ],
      ['ftp://slack.example/api/', /SLACK_API_URL must be an https:\/\/ URL/],
      ['slack.com/api', /SLACK_API_URL must be a URL like https:\/\/slack.com\/api\//],
      ['https://slack.com/api/?SECRET=1', /SLACK_API_URL has a query or a fragment/],
    ] as const) {
      const message = refusal({ ...SOCKET_ENV, SLACK_API_URL: url }).message;
      assert.match(message, problem);
      assert.doesNotMatch(message, /SECRET/);
    }
  });

  test('start refuses a URL with credentials at once: exit 2, the reason, and not the secret', async () => {
    const { dir, cleanup } = await makeTempDir();
    try {
      const result = await runCli(
        ['start'],
        { ...SOCKET_ENV, SLACK_API_URL: 'https://SECRET@x' },
        dir,
      );
      assert.equal(result.code, 2, result.err);
      assert.match(
        result.err,
        /SLACK_API_URL holds what looks like a URL with a user name or password/,
      );
      assert.match(result.err, /no request can be made to a URL with them/);
      assert.doesNotMatch(result.err + result.out, /SECRET/);
    } finally {
      await cleanup();
    }
  });
});
