// The schema's variables one at a time, and its rules across variables, without loadConfig.
// Shapes the loadConfig tests beside this file already cover are not repeated here: the
// allow list (allowed-users), RELAY_WATCH (watch-list, channels), durations (parse-duration),
// RELAY_REDIS_URL and RELAY_NODE's refusals (shared-mode), RELAY_METRICS_PORT (metrics-port),
// placeholder tokens and secrets in the wrong place (load-config, secret-values).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  askApiProblem,
  envSchema,
  metricsPortClash,
  missingChannel,
  missingEscalationPair,
  missingNodeName,
  missingTransport,
  resolveStateDir,
  toConfig,
  type VariableName,
} from '../../src/config/config-schema.js';
import { HTTP_ENV, SOCKET_ENV, SOCKET_TOKENS } from './config-env.js';

/** A value of one variable, and what the schema makes of it: a value, or a refusal. */
type Row = [name: VariableName, value: string | undefined, expected: unknown];

/** What the schema refuses a value with: the start of its message. */
const refused = (message: string) => ({ refused: message });

const VARIABLES: readonly Row[] = [
  ['SLACK_BOT_TOKEN', ' xoxb-1-2-abc ', 'xoxb-1-2-abc'],
  ['SLACK_BOT_TOKEN', '', refused('must be a bot token starting with xoxb-')],
  ['SLACK_APP_TOKEN', undefined, undefined],
  ['SLACK_APP_TOKEN', ' ', undefined],
  ['SLACK_APP_TOKEN', ' xapp-1-A1-2-abc ', 'xapp-1-A1-2-abc'],
  // a bot token where the app token goes: one problem, the prefix, not a placeholder too
  ['SLACK_APP_TOKEN', 'xoxb-1-2', refused('must be an app-level token starting with xapp-')],
  ['SLACK_SIGNING_SECRET', undefined, undefined],
  ['SLACK_SIGNING_SECRET', '  ', undefined],
  ['SLACK_SIGNING_SECRET', ' s3cret ', 's3cret'],
  ['PORT', undefined, 3000],
  ['PORT', '8080', 8080],
  ['PORT', ' 8080 ', 8080],
  ['PORT', '65535', 65535],
  ['PORT', '0', refused('must be a port number from 1 to 65535')],
  ['PORT', '65536', refused('must be a port number from 1 to 65535')],
  ['PORT', '80.5', refused('must be a port number')],
  ['PORT', 'eighty', refused('must be a port number')],
  ['SLACK_CHANNEL_ID', undefined, undefined],
  ['SLACK_CHANNEL_ID', ' ', undefined],
  ['SLACK_CHANNEL_ID', ' C0123ABCD ', 'C0123ABCD'],
  ['SLACK_CHANNEL_ID', 'G0PRIVATE', 'G0PRIVATE'],
  ['SLACK_CHANNEL_ID', 'D0123ABCD', 'D0123ABCD'],
  ['SLACK_CHANNEL_ID', 'c0123abcd', refused('must be a channel ID like C0123ABCD')],
  ['SLACK_CHANNEL_ID', 'U0123ABCD', refused('must be a channel ID like C0123ABCD')],
  ['SLACK_API_URL', undefined, 'https://slack.com/api/'],
  ['SLACK_API_URL', 'https://slack.com/api/', 'https://slack.com/api/'],
  ['SLACK_API_URL', 'http://127.0.0.1:9/api', 'http://127.0.0.1:9/api/'],
  ['SLACK_API_URL', '', refused('must be a URL like https://slack.com/api/')],
  ['SLACK_API_URL', 'slack.com/api', refused('must be a URL like https://slack.com/api/')],
  ['SLACK_API_URL', 'ftp://slack.com/api/', refused('must be an https:// URL')],
  ['SLACK_API_URL', 'https://slack.com/api/?x=1', refused('has a query or a fragment')],
  ['RELAY_WATCH', undefined, undefined],
  ['RELAY_WATCH', ' ', undefined],
  ['RUN_STATE_DIR', undefined, undefined],
  ['RUN_STATE_DIR', ' ', undefined],
  ['RUN_STATE_DIR', ' .7/runs/abc ', '.7/runs/abc'],
  ['RELAY_STATE_DIR', undefined, undefined],
  ['RELAY_STATE_DIR', ' ', undefined],
  ['RELAY_STATE_DIR', ' /var/lib/o7 ', '/var/lib/o7'],
  ['RELAY_POLL', undefined, false],
  ['RELAY_POLL', '', false],
  ...['1', 'true', 'yes', ' YES ', 'True'].map((v): Row => ['RELAY_POLL', v, true]),
  ...['0', 'false', 'no', 'NO'].map((v): Row => ['RELAY_POLL', v, false]),
  ['RELAY_POLL', 'on', refused('expected 1/0, true/false or yes/no')],
  ['RELAY_POLL', '2', refused('expected 1/0, true/false or yes/no')],
  ['RELAY_ALLOWED_USERS', undefined, undefined],
  ['RELAY_REMIND_AFTER', undefined, undefined],
  ['RELAY_REMIND_AFTER', ' ', undefined],
  ['RELAY_ESCALATE_AFTER', '2h', 7_200_000],
  ['RELAY_ESCALATE_TO', undefined, undefined],
  ['RELAY_ESCALATE_TO', ' U0123ABCD ', 'U0123ABCD'],
  ['RELAY_ESCALATE_TO', 'W0123ABCD', 'W0123ABCD'],
  ['RELAY_ESCALATE_TO', 'S0ONCALL1', 'S0ONCALL1'],
  ['RELAY_ESCALATE_TO', 'C0123ABCD', refused('must be one user ID (U0123ABCD) or user group ID')],
  ['RELAY_ESCALATE_TO', 'U0123ABCD,S0ONCALL1', refused('must be one user ID')],
  ['RELAY_REDIS_URL', undefined, undefined],
  ['RELAY_REDIS_URL', ' ', undefined],
  ['RELAY_REDIS_URL', 'redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
  ['RELAY_NODE', undefined, undefined],
  ['RELAY_NODE', ' node-1 ', 'node-1'],
  ['RELAY_NODE', 'Web_2.eu', 'Web_2.eu'],
  ['RELAY_METRICS_PORT', undefined, undefined],
  ['RELAY_ASK_PORT', undefined, undefined],
  ['RELAY_ASK_PORT', ' 8443 ', 8443],
  [
    'RELAY_ASK_PORT',
    '70000',
    refused('must be a port number from 1 to 65535; leave it unset to serve no ask API'),
  ],
  ['RELAY_ASK_HOST', ' 127.0.0.1 ', '127.0.0.1'],
  ['RELAY_ASK_TOKENS', ' /etc/o7/ask-tokens ', '/etc/o7/ask-tokens'],
  ['RELAY_ASK_TLS_CERT', undefined, undefined],
  ['RELAY_ASK_TLS_KEY', ' ', undefined],
  ['RELAY_ASK_MAX_OPEN', undefined, 20],
  ['RELAY_ASK_MAX_OPEN', '5', 5],
  ['RELAY_ASK_MAX_OPEN', '0', refused('must be a whole number from 1 to 1000')],
  ['RELAY_ASK_MAX_OPEN', '2.5', refused('must be a whole number from 1 to 1000')],
  ['RELAY_AUDIT_LOG', ' /var/log/o7/audit.jsonl ', '/var/log/o7/audit.jsonl'],
  ['RELAY_AUDIT_LOG', '', undefined],
  ['RELAY_DIGEST_AT', undefined, 4],
  ['RELAY_DIGEST_AT', '0', 0],
  ['RELAY_DIGEST_AT', '12', 12],
  ['RELAY_DIGEST_AT', '-1', refused('must be a whole number from 0 to 1000')],
  ['RELAY_DIGEST_AT', 'many', refused('must be a whole number from 0 to 1000')],
  ['RELAY_UNDO_SECONDS', undefined, 10],
  ['RELAY_UNDO_SECONDS', '0', 0],
  ['RELAY_UNDO_SECONDS', '30', 30],
  ['RELAY_UNDO_SECONDS', '301', refused('must be a whole number from 0 to 300')],
  ['RELAY_UNDO_SECONDS', '10s', refused('must be a whole number from 0 to 300')],
  ['RELAY_UNDO_ALL', undefined, false],
  ['RELAY_UNDO_ALL', '1', true],
  ['RELAY_UNDO_ALL', 'maybe', refused('expected 1/0, true/false or yes/no')],
  ['LOG_LEVEL', undefined, 'info'],
  ...['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map(
    (v): Row => ['LOG_LEVEL', v, v],
  ),
  ['LOG_LEVEL', 'DEBUG', refused('must be one of fatal, error, warn, info, debug, trace, silent')],
  ['LOG_LEVEL', 'verbose', refused('must be one of fatal, error')],
];

describe('the configuration schema, one variable at a time', () => {
  test('every variable of the schema has rows here', () => {
    const named = new Set(VARIABLES.map(([name]) => name));
    assert.deepEqual(
      Object.keys(envSchema.shape).filter((name) => !named.has(name as VariableName)),
      [],
    );
  });

  for (const [name, value, expected] of VARIABLES) {
    test(`${name}=${JSON.stringify(value)}`, () => {
      const result = envSchema.shape[name].safeParse(value);
      if (typeof expected === 'object' && expected !== null && 'refused' in expected) {
        assert.equal(result.success, false, `accepted as ${JSON.stringify(result.data)}`);
        const messages = result.error?.issues.map((issue) => issue.message) ?? [];
        assert.equal(messages.length, 1, messages.join(' | '));
        assert.ok(messages[0]?.startsWith(String(expected.refused)), messages[0]);
      } else {
        assert.equal(result.success, true, result.error?.message);
        assert.deepEqual(result.data, expected);
      }
    });
  }
});

type Env = Record<string, string>;

describe('the rules across variables', () => {
  const rules: [
    rule: string,
    env: Env,
    problem: RegExp | undefined,
    check: (env: Env) => unknown,
  ][] = [
    ['transport', { SLACK_APP_TOKEN: 'xapp-1' }, undefined, missingTransport],
    ['transport', { SLACK_SIGNING_SECRET: 'secret' }, undefined, missingTransport],
    [
      'transport',
      {},
      /^SLACK_APP_TOKEN is not set, and neither is SLACK_SIGNING_SECRET; /,
      missingTransport,
    ],
    // blank counts as unset
    [
      'transport',
      { SLACK_APP_TOKEN: ' ', SLACK_SIGNING_SECRET: '' },
      /^SLACK_APP_TOKEN is not set/,
      missingTransport,
    ],
    ['escalation', {}, undefined, missingEscalationPair],
    [
      'escalation',
      { RELAY_ESCALATE_AFTER: '2h', RELAY_ESCALATE_TO: 'U0123ABCD' },
      undefined,
      missingEscalationPair,
    ],
    [
      'escalation',
      { RELAY_ESCALATE_TO: 'U0123ABCD' },
      /^RELAY_ESCALATE_AFTER is not set, but RELAY_ESCALATE_TO is; /,
      missingEscalationPair,
    ],
    [
      'escalation',
      { RELAY_ESCALATE_AFTER: '2h', RELAY_ESCALATE_TO: ' ' },
      /^RELAY_ESCALATE_TO is not set, but RELAY_ESCALATE_AFTER is; /,
      missingEscalationPair,
    ],
    ['channel', { SLACK_CHANNEL_ID: 'C0123ABCD' }, undefined, missingChannel],
    ['channel', { RELAY_WATCH: 'a=C0AAAA,b=C0BBBB' }, undefined, missingChannel],
    // an entry that is wrong is told under RELAY_WATCH, not again here
    ['channel', { RELAY_WATCH: 'a=C0AAAA,b=general' }, undefined, missingChannel],
    [
      'channel',
      { RELAY_WATCH: 'a=C0AAAA, b ,c' },
      /^SLACK_CHANNEL_ID is not set, and RELAY_WATCH names no channel for "b", "c"; /,
      missingChannel,
    ],
    ['metrics port', { ...HTTP_ENV, RELAY_METRICS_PORT: '9464' }, undefined, metricsPortClash],
    [
      'metrics port',
      { ...HTTP_ENV, RELAY_METRICS_PORT: '03000' },
      /^RELAY_METRICS_PORT is 03000, the port Slack's requests come to \(PORT\)/,
      metricsPortClash,
    ],
    [
      'metrics port',
      { ...HTTP_ENV, PORT: '8080', RELAY_METRICS_PORT: '3000' },
      undefined,
      metricsPortClash,
    ],
    [
      'metrics port',
      { ...HTTP_ENV, SLACK_APP_TOKEN: 'xapp-1', RELAY_METRICS_PORT: '3000' },
      undefined,
      metricsPortClash,
    ],
    ['ask API', { RELAY_ASK_PORT: '8443', RELAY_ASK_TOKENS: 'tokens' }, undefined, askApiProblem],
    [
      'ask API',
      { RELAY_ASK_PORT: '8443' },
      /^RELAY_ASK_TOKENS is not set, but RELAY_ASK_PORT is; give the file of the tokens/,
      askApiProblem,
    ],
    [
      'ask API',
      { RELAY_ASK_TOKENS: 'tokens', RELAY_ASK_TLS_KEY: 'key.pem' },
      /^RELAY_ASK_TOKENS and RELAY_ASK_TLS_KEY are set, but RELAY_ASK_PORT is not; /,
      askApiProblem,
    ],
    [
      'ask API',
      { RELAY_ASK_PORT: '8443', RELAY_ASK_TOKENS: 't', RELAY_ASK_TLS_CERT: 'c.pem' },
      /^RELAY_ASK_TLS_CERT is set without RELAY_ASK_TLS_KEY; give both/,
      askApiProblem,
    ],
    [
      'ask API',
      { ...HTTP_ENV, RELAY_ASK_PORT: '3000', RELAY_ASK_TOKENS: 't' },
      /^RELAY_ASK_PORT is 3000, the port Slack's requests come to \(PORT\)/,
      askApiProblem,
    ],
    [
      'ask API',
      { RELAY_ASK_PORT: '9464', RELAY_ASK_TOKENS: 't', RELAY_METRICS_PORT: '9464' },
      /^RELAY_ASK_PORT and RELAY_METRICS_PORT are both 9464; /,
      askApiProblem,
    ],
  ];
  for (const [rule, env, problem, check] of rules) {
    test(`${rule}: ${JSON.stringify(env)}`, () => {
      const said = check(env);
      if (problem === undefined) assert.equal(said, undefined);
      else assert.match(String(said), problem);
    });
  }

  test('shared mode names the node by RELAY_NODE, else by a host name that can name it', () => {
    const redis = { RELAY_REDIS_URL: 'redis://127.0.0.1:6379' };
    assert.equal(missingNodeName({}, 'not a name!'), undefined, 'not in shared mode');
    assert.equal(missingNodeName({ ...redis, RELAY_NODE: 'web-1' }, 'not a name!'), undefined);
    assert.equal(missingNodeName(redis, 'web-1.example'), undefined);
    assert.match(
      String(missingNodeName({ ...redis, RELAY_NODE: ' ' }, 'not a name!')),
      /^RELAY_NODE is not set, and this machine's host name "not a name!" cannot name it; /,
    );
  });
});

describe('from validated values to the configuration', () => {
  test('the state folder is RELAY_STATE_DIR against the working folder, else .7/slack-relay', () => {
    assert.equal(resolveStateDir(undefined, '/p'), '/p/.7/slack-relay');
    assert.equal(resolveStateDir('state', '/p'), '/p/state');
    assert.equal(resolveStateDir('/var/lib/o7', '/p'), '/var/lib/o7');
  });

  test('toConfig refuses what a rule across variables should have stopped, naming the rule', () => {
    const parsed = (env: Env) => envSchema.parse(env);
    assert.throws(
      () => toConfig(parsed(SOCKET_TOKENS), '/p', 'host'),
      /check missingChannel first/,
    );
    const noTransport = {
      SLACK_BOT_TOKEN: SOCKET_ENV.SLACK_BOT_TOKEN,
      SLACK_CHANNEL_ID: 'C0123ABCD',
    };
    assert.throws(
      () => toConfig(parsed(noTransport), '/p', 'host'),
      /check missingTransport first/,
    );
    const badHost = { ...SOCKET_ENV, RELAY_REDIS_URL: 'redis://127.0.0.1:6379' };
    assert.throws(
      () => toConfig(parsed(badHost), '/p', 'not a name!'),
      /check missingNodeName first/,
    );
  });
});
