import path from 'node:path';
import * as z from 'zod';
import { chooseNodeName, NODE_NAME, NODE_NAME_RULE } from '../core/node-name.js';
import type { WatchRoot } from '../core/slack/channel-routes.js';
import {
  SLACK_CHANNEL_ID,
  SLACK_GROUP_ID,
  SLACK_USER_ID,
} from '../core/slack/controls/slack-id-shapes.js';
import { redisUrlProblem } from '../redis/redis-url.js';
import { DURATION_FORMAT, parseDuration } from './parse-duration.js';
import { slackApiUrlProblem } from './slack-api-url.js';
import { parseWatchList, readWatchEntry, type WatchEntry } from './watch-list.js';

/**
 * The one rule across variables: Socket Mode needs an app token, HTTP mode a signing secret.
 * Checked on the raw values so it is reported together with every other problem.
 */
export function missingTransport(env: Record<string, string | undefined>): string | undefined {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if (set('SLACK_APP_TOKEN') || set('SLACK_SIGNING_SECRET')) return undefined;
  return 'SLACK_APP_TOKEN is not set, and neither is SLACK_SIGNING_SECRET; set SLACK_APP_TOKEN (xapp-…) for Socket Mode, or SLACK_SIGNING_SECRET and PORT for HTTP mode';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** Who may answer: user IDs and user group IDs, split apart; unset means anyone. */
const allowedUsers = z
  .string()
  .optional()
  .superRefine((value, ctx) => {
    if (value === undefined || value.trim() === '') return;
    const ids = splitList(value);
    if (ids.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message:
          'lists no IDs; give comma-separated user IDs (U0123ABCD) and user group IDs (S0123ABCD), or leave it unset so anyone in the channel may answer',
      });
      return;
    }
    const bad = ids.filter((id) => !SLACK_USER_ID.test(id) && !SLACK_GROUP_ID.test(id));
    if (bad.length > 0) {
      const quoted = bad
        .slice(0, 5)
        .map((id) => JSON.stringify(id.length > 40 ? `${id.slice(0, 39)}…` : id))
        .join(', ');
      ctx.addIssue({
        code: 'custom',
        message: `has ${quoted}, which ${bad.length === 1 ? 'is not an ID' : 'are not IDs'}; use user IDs like U0123ABCD (profile → ⋯ → Copy member ID) and user group IDs like S0123ABCD (the group's page → ⋯ → Copy group ID), separated by commas, not names or @handles`,
      });
    }
  })
  .transform((value) => {
    if (value === undefined || value.trim() === '') return undefined;
    const ids = [...new Set(splitList(value))];
    return {
      users: ids.filter((id) => SLACK_USER_ID.test(id)),
      groups: ids.filter((id) => SLACK_GROUP_ID.test(id)),
    };
  });

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** A duration (see `parseDuration`); unset or blank means the feature is off. */
const duration = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return undefined;
    const ms = parseDuration(value);
    if (ms.ok) return ms.value;
    ctx.addIssue({ code: 'custom', message: `${ms.error}; leave it unset to turn this off` });
    return z.NEVER;
  });

/** Who an unanswered batch is escalated to: one user ID or user group ID. */
const escalateTo = optionalText.refine(
  (v) => v === undefined || SLACK_USER_ID.test(v) || SLACK_GROUP_ID.test(v),
  {
    error: 'must be one user ID (U0123ABCD) or user group ID (S0123ABCD), not a name or @handle',
  },
);

/** Escalation needs both its variables; says which one is missing, if so. */
export function missingEscalationPair(env: Record<string, string | undefined>): string | undefined {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if (set('RELAY_ESCALATE_AFTER') && !set('RELAY_ESCALATE_TO')) {
    return 'RELAY_ESCALATE_TO is not set, but RELAY_ESCALATE_AFTER is; give the user ID or user group ID unanswered batches are handed to, or unset RELAY_ESCALATE_AFTER';
  }
  if (set('RELAY_ESCALATE_TO') && !set('RELAY_ESCALATE_AFTER')) {
    return 'RELAY_ESCALATE_AFTER is not set, but RELAY_ESCALATE_TO is; give how long a batch may wait before it is escalated (e.g. 2h), or unset RELAY_ESCALATE_TO';
  }
  return undefined;
}

/** The watched folders, each maybe naming its channel (see `parseWatchList`); unset: the default. */
const watchList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return undefined;
    const read = parseWatchList(value);
    if (read.ok) return read.value;
    for (const message of read.error) ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

/**
 * `SLACK_CHANNEL_ID` may be left out only when every `RELAY_WATCH` entry names its channel;
 * says which entries name none, if so. Checked on the raw values, beside the schema.
 */
export function missingChannel(env: Record<string, string | undefined>): string | undefined {
  if ((env.SLACK_CHANNEL_ID ?? '').trim() !== '') return undefined;
  const watch = (env.RELAY_WATCH ?? '').trim();
  if (watch === '') {
    return 'SLACK_CHANNEL_ID is not set; give the ID of the channel batches are posted in (e.g. C0123ABCD), or list the folders in RELAY_WATCH, each ending in =CHANNEL_ID';
  }
  // each entry on its own, so that this is told beside any problem of RELAY_WATCH itself
  const unnamed = watch
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(readWatchEntry)
    .filter((entry): entry is WatchEntry => !('problem' in entry) && entry.channel === undefined);
  if (unnamed.length === 0) return undefined;
  const listed = unnamed.map((entry) => JSON.stringify(entry.path)).join(', ');
  return `SLACK_CHANNEL_ID is not set, and RELAY_WATCH names no channel for ${listed}; set SLACK_CHANNEL_ID to the channel ID for them (e.g. C0123ABCD), or end each of them with =CHANNEL_ID`;
}

/** Shared mode's Redis; the message never quotes the value, which may hold a password. */
const redisUrl = optionalText.superRefine((value, ctx) => {
  const problem = value === undefined ? undefined : redisUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** This machine's name in shared mode; the host name when unset (see `missingNodeName`). */
const nodeName = optionalText.refine((v) => v === undefined || NODE_NAME.test(v), {
  error: `must be ${NODE_NAME_RULE}`,
});

/**
 * In shared mode the relay needs a node name: `RELAY_NODE`, else a host name that fits.
 * Checked beside the schema, since the host name is not in the environment.
 */
export function missingNodeName(
  env: Record<string, string | undefined>,
  hostName: string,
): string | undefined {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if (!set('RELAY_REDIS_URL') || set('RELAY_NODE')) return undefined;
  const chosen = chooseNodeName(undefined, hostName);
  return chosen.ok ? undefined : chosen.problem;
}

/** A port the relay serves on; unset or blank: not served, said by `off`. */
const servedPort = (off: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      const port = /^\d{1,5}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
      if (port >= 1 && port <= 65535) return port;
      ctx.addIssue({ code: 'custom', message: `must be a port number from 1 to 65535; ${off}` });
      return z.NEVER;
    });

/**
 * Where operators read `/healthz` and `/metrics` (`RELAY_METRICS_PORT`); unset or blank: no
 * such server, since it is one more open port.
 */
const metricsPort = servedPort('leave it unset to serve no health and metrics');

/**
 * Where `hook`, `mcp` and `ask` on other machines ask through this relay (`RELAY_ASK_PORT`);
 * unset or blank: nobody can, the default.
 */
const askPort = servedPort('leave it unset to serve no ask API');

/**
 * The ask API needs its tokens, a certificate needs its key, and it needs a port of its own.
 * Checked on the raw values, beside the schema.
 */
export function askApiProblem(env: Record<string, string | undefined>): string | undefined {
  const value = (name: string) => (env[name] ?? '').trim();
  const port = value('RELAY_ASK_PORT');
  const tls = ['RELAY_ASK_TLS_CERT', 'RELAY_ASK_TLS_KEY'].filter((name) => value(name) !== '');
  if (port === '') {
    const stray = ['RELAY_ASK_TOKENS', ...tls].filter((name) => value(name) !== '');
    return stray.length > 0
      ? `${stray.join(' and ')} ${stray.length === 1 ? 'is' : 'are'} set, but RELAY_ASK_PORT is not; set RELAY_ASK_PORT to serve the ask API (docs/remote-relay.md), or unset them`
      : undefined;
  }
  if (value('RELAY_ASK_TOKENS') === '')
    return 'RELAY_ASK_TOKENS is not set, but RELAY_ASK_PORT is; give the file of the tokens that may ask ("<name> <token>" per line; docs/remote-relay.md)';
  if (tls.length === 1)
    return `${tls[0]} is set without ${tls[0] === 'RELAY_ASK_TLS_CERT' ? 'RELAY_ASK_TLS_KEY' : 'RELAY_ASK_TLS_CERT'}; give both (PEM files), or neither and a TLS proxy in front`;
  const slack = value('SLACK_APP_TOKEN') === '' ? value('PORT') || '3000' : undefined;
  if (slack !== undefined && Number(slack) === Number(port))
    return `RELAY_ASK_PORT is ${port}, the port Slack's requests come to (PORT); give it a port of its own (e.g. 8443)`;
  if (Number(value('RELAY_METRICS_PORT')) === Number(port))
    return `RELAY_ASK_PORT and RELAY_METRICS_PORT are both ${port}; give each a port of its own`;
  return undefined;
}

/**
 * In HTTP mode the metrics port must be another port than Slack's: `PORT` faces Slack (the
 * internet), `/metrics` only the people running the relay.
 */
export function metricsPortClash(env: Record<string, string | undefined>): string | undefined {
  const metrics = (env.RELAY_METRICS_PORT ?? '').trim();
  if (metrics === '' || (env.SLACK_APP_TOKEN ?? '').trim() !== '') return undefined;
  const slack = (env.PORT ?? '').trim() || '3000';
  if (Number(metrics) !== Number(slack)) return undefined;
  return `RELAY_METRICS_PORT is ${metrics}, the port Slack's requests come to (PORT); give it a port of its own (e.g. 9464), so that /metrics is not served where Slack, and the internet, reach the relay`;
}

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .optional()
  .refine((v) => v === undefined || ['', '0', '1', 'true', 'false', 'yes', 'no'].includes(v), {
    message: 'expected 1/0, true/false or yes/no',
  })
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/**
 * A token that is only its prefix and words, like `xoxb-your-bot-token` in `.env.example`.
 * Every token Slack issues has numbers after the prefix (team and app ids), so a token
 * without any is one nobody filled in; Slack would only answer `invalid_auth`.
 */
const isPlaceholderToken = (token: string): boolean =>
  !/\d/.test(token.slice(token.indexOf('-') + 1));

/** A whole number from `min` to `max`, `fallback` when unset; refused in one sentence. */
const wholeNumber = (min: number, max: number, fallback: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce
    .number({ error })
    .int({ error })
    .min(min, { error })
    .max(max, { error })
    .default(fallback);
};

/**
 * The relay's environment. One schema, validated once at start; every message says what the
 * variable must look like.
 */
export const envSchema = z.object({
  SLACK_BOT_TOKEN: z
    .string({ error: 'is not set; copy the Bot User OAuth Token (xoxb-…) from your Slack app' })
    .trim()
    .startsWith('xoxb-', {
      error: 'must be a bot token starting with xoxb- (OAuth & Permissions → Bot User OAuth Token)',
      abort: true,
    })
    .refine((v) => !isPlaceholderToken(v), {
      error:
        'is a placeholder (a real token has numbers in it); copy the Bot User OAuth Token from OAuth & Permissions in your Slack app',
    }),
  SLACK_APP_TOKEN: optionalText
    .refine((v) => v === undefined || v.startsWith('xapp-'), {
      error:
        'must be an app-level token starting with xapp- with the connections:write scope (Basic Information → App-Level Tokens), or be left unset for HTTP mode',
      abort: true,
    })
    .refine((v) => v === undefined || !isPlaceholderToken(v), {
      error:
        'is a placeholder (a real token has numbers in it); generate an app-level token with the connections:write scope (Basic Information → App-Level Tokens), or leave it empty for HTTP mode',
    }),
  SLACK_SIGNING_SECRET: optionalText,
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int()
    .min(1, { error: 'must be a port number from 1 to 65535' })
    .max(65535, { error: 'must be a port number from 1 to 65535' })
    .default(3000),
  // required unless every RELAY_WATCH entry names a channel: see `missingChannel`
  SLACK_CHANNEL_ID: optionalText.refine((v) => v === undefined || SLACK_CHANNEL_ID.test(v), {
    error:
      'must be a channel ID like C0123ABCD, not a name (in Slack: channel details → About → Channel ID)',
  }),
  SLACK_API_URL: z
    .string()
    .default('https://slack.com/api/')
    .superRefine((value, ctx) => {
      const problem = slackApiUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((v) => (v.endsWith('/') ? v : `${v}/`)),
  RELAY_WATCH: watchList,
  RUN_STATE_DIR: optionalText,
  RELAY_STATE_DIR: optionalText,
  RELAY_POLL: flag,
  RELAY_ALLOWED_USERS: allowedUsers,
  RELAY_REMIND_AFTER: duration,
  RELAY_ESCALATE_AFTER: duration,
  RELAY_ESCALATE_TO: escalateTo,
  RELAY_REDIS_URL: redisUrl,
  RELAY_NODE: nodeName,
  RELAY_METRICS_PORT: metricsPort,
  RELAY_ASK_PORT: askPort,
  RELAY_ASK_HOST: optionalText,
  RELAY_ASK_TOKENS: optionalText,
  RELAY_ASK_TLS_CERT: optionalText,
  RELAY_ASK_TLS_KEY: optionalText,
  RELAY_ASK_MAX_OPEN: wholeNumber(1, 1000, 20),
  RELAY_AUDIT_LOG: optionalText,
  RELAY_DIGEST_AT: wholeNumber(0, 1000, 4),
  RELAY_UNDO_SECONDS: wholeNumber(0, 300, 10),
  RELAY_UNDO_ALL: flag,
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
});

/** A variable of the relay's environment. */
export type VariableName = keyof typeof envSchema.shape;

/**
 * What each variable expects, in a few words: said instead of the value when the value must
 * not be shown (see `misplacedSecret`).
 */
export const VARIABLE_SHAPES: Readonly<Record<VariableName, string>> = {
  SLACK_BOT_TOKEN: 'the Bot User OAuth Token, xoxb-… (OAuth & Permissions)',
  SLACK_APP_TOKEN:
    'an app-level token, xapp-… (Basic Information → App-Level Tokens), or nothing for HTTP mode',
  SLACK_SIGNING_SECRET:
    'the Signing Secret (Basic Information → App Credentials), or nothing for Socket Mode',
  PORT: 'a port number from 1 to 65535',
  SLACK_CHANNEL_ID: 'a channel ID like C0123ABCD',
  SLACK_API_URL:
    'the Web API base URL without a user name or password, like https://slack.com/api/ (no request can be made to a URL with them; the bot token authenticates each one)',
  RELAY_WATCH: 'comma-separated folders, each optionally followed by =CHANNEL_ID',
  RUN_STATE_DIR: 'the folder of one run',
  RELAY_STATE_DIR: "a folder for the relay's own state",
  RELAY_POLL: '1/0, true/false or yes/no',
  RELAY_ALLOWED_USERS: 'comma-separated user IDs (U0123ABCD) and user group IDs (S0123ABCD)',
  RELAY_REMIND_AFTER: `a duration, ${DURATION_FORMAT}`,
  RELAY_ESCALATE_AFTER: `a duration, ${DURATION_FORMAT}`,
  RELAY_ESCALATE_TO: 'one user ID (U0123ABCD) or user group ID (S0123ABCD)',
  RELAY_REDIS_URL: 'a Redis URL like redis://host:6379 or rediss://user:password@host:6380',
  RELAY_NODE: NODE_NAME_RULE,
  RELAY_METRICS_PORT: 'a port number from 1 to 65535',
  RELAY_ASK_PORT: 'a port number from 1 to 65535',
  RELAY_ASK_HOST: 'the address the ask API listens on, like 127.0.0.1 behind a proxy',
  RELAY_ASK_TOKENS: 'the file of the tokens that may ask, "<name> <token>" per line',
  RELAY_ASK_TLS_CERT: "the ask API's certificate chain, a PEM file",
  RELAY_ASK_TLS_KEY: "the ask API's private key, a PEM file",
  RELAY_ASK_MAX_OPEN: 'a whole number from 1 to 1000',
  RELAY_DIGEST_AT: 'a whole number from 0 (off) to 1000',
  RELAY_UNDO_SECONDS: 'a whole number of seconds from 0 (off) to 300',
  RELAY_UNDO_ALL: "1 to hold every Submit for Undo, not only the digest's",
  RELAY_AUDIT_LOG: 'the file every decision is appended to, as JSON lines',
  LOG_LEVEL: `one of ${LOG_LEVELS.join(', ')}`,
};

/** The variables of shared mode alone, for commands that need Redis and not Slack (`nodes`). */
export const sharedEnvSchema = envSchema.pick({ RELAY_REDIS_URL: true, RELAY_NODE: true });

/** The one variable `ask` reads: it only hands files to the running relay, never to Slack. */
export const stateDirEnvSchema = envSchema.pick({ RELAY_STATE_DIR: true });

/** The relay's state folder from `RELAY_STATE_DIR`, resolved against `cwd`. */
export const resolveStateDir = (value: string | undefined, cwd: string): string =>
  path.resolve(cwd, value ?? '.7/slack-relay');

/** The validated, normalized configuration the rest of the relay uses. */
/**
 * How the relay talks to Slack: the Web API with the bot token either way; interactions over
 * Socket Mode (an app token) or as HTTP requests to `port`, signed with the signing secret.
 */
export type SlackConfig = {
  botToken: string;
  /**
   * The channel of `ask`'s batches and of whatever no `RELAY_WATCH` entry routes:
   * `SLACK_CHANNEL_ID`, else the channel the first entry names.
   */
  channelId: string;
  apiUrl: string;
} & ({ mode: 'socket'; appToken: string } | { mode: 'http'; signingSecret: string; port: number });

export interface Config {
  slack: SlackConfig;
  /** The watched folders (absolute), in order, each with its channel (its own, else `slack.channelId`). */
  watch: WatchRoot[];
  stateDir: string;
  poll: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
  /**
   * Who may answer (`RELAY_ALLOWED_USERS`): Slack user IDs and user group IDs. Absent: anyone
   * who can see a batch may answer it.
   */
  allowedUsers?: { users: string[]; groups: string[] };
  /**
   * Reminders (`RELAY_REMIND_AFTER`) and escalation (`RELAY_ESCALATE_AFTER`,
   * `RELAY_ESCALATE_TO`) for unanswered batches; absent when neither is set.
   */
  reminders?: {
    remindAfterMs?: number;
    escalate?: { afterMs: number; to: string };
  };
  /**
   * Fewest open quick batches a channel's digest lists (`RELAY_DIGEST_AT`); 0: no digest.
   * Not kept in shared mode yet.
   */
  digestAt: number;
  /**
   * How long a decision is held before its answer file is written, while Undo can put it back
   * (`RELAY_UNDO_SECONDS`; 0: written at once): those given through the digest, or every
   * Submit with `everywhere` (`RELAY_UNDO_ALL`).
   */
  undo: { seconds: number; everywhere: boolean };
  /** the audit log's file (`RELAY_AUDIT_LOG`), absolute: `audit.jsonl` in the state folder by default */
  auditLog: string;
  /** Where `/healthz` and `/metrics` are served (`RELAY_METRICS_PORT`); absent: not at all. */
  metricsPort?: number;
  /** The ask API for other machines (`RELAY_ASK_PORT`); absent: not served. */
  askServer?: AskServerConfig;
  /**
   * Shared mode (`RELAY_REDIS_URL`): batch records live in Redis and many relays, one per
   * machine, share one Slack app. Absent: the state folder holds everything, as always.
   */
  shared?: SharedConfig;
}

/** Where and how the ask API is served (docs/remote-relay.md). */
export interface AskServerConfig {
  port: number;
  /** the address to listen on; absent: every interface */
  host?: string;
  /** absolute path of `RELAY_ASK_TOKENS` */
  tokensFile: string;
  /** absent: plain HTTP, for a TLS proxy in front or loopback */
  tls?: { certFile: string; keyFile: string };
  /** how many asks of one token may wait in Slack at once (`RELAY_ASK_MAX_OPEN`) */
  maxOpen: number;
}

/** Where the relays meet, and which of them this one is. */
export interface SharedConfig {
  /** `redis://` or `rediss://` URL, maybe with a password: never log it, see `redactRedisUrl` */
  redisUrl: string;
  /** `RELAY_NODE`, else the host name */
  node: string;
}

/**
 * Shared mode from validated values, or undefined without `RELAY_REDIS_URL`; `hostName` names
 * the node when `RELAY_NODE` is unset (`missingNodeName` has made sure it can).
 */
export function sharedOf(
  env: Pick<z.infer<typeof envSchema>, 'RELAY_REDIS_URL' | 'RELAY_NODE'>,
  hostName: string,
): SharedConfig | undefined {
  if (env.RELAY_REDIS_URL === undefined) return undefined;
  const chosen = chooseNodeName(env.RELAY_NODE, hostName);
  if (!chosen.ok) throw new Error(`sharedOf: ${chosen.problem}; check missingNodeName first`);
  return { redisUrl: env.RELAY_REDIS_URL, node: chosen.node };
}

/** Turns validated env values into `Config`, resolving paths against `cwd`. */
export function toConfig(env: z.infer<typeof envSchema>, cwd: string, hostName: string): Config {
  // RUN_STATE_DIR is o7's own variable: one folder, never with a channel
  const entries = env.RELAY_WATCH ?? [{ path: env.RUN_STATE_DIR ?? '.7/runs' }];
  const channelId = env.SLACK_CHANNEL_ID ?? entries[0]?.channel;
  if (channelId === undefined) {
    throw new Error(
      'toConfig: no SLACK_CHANNEL_ID and no channel in RELAY_WATCH; check missingChannel first',
    );
  }
  const shared = sharedOf(env, hostName);
  return {
    slack: slackOf(env, channelId),
    watch: entries.map((entry) => ({
      path: path.resolve(cwd, entry.path),
      channel: entry.channel ?? channelId,
    })),
    stateDir: resolveStateDir(env.RELAY_STATE_DIR, cwd),
    poll: env.RELAY_POLL,
    logLevel: env.LOG_LEVEL,
    ...(env.RELAY_ALLOWED_USERS ? { allowedUsers: env.RELAY_ALLOWED_USERS } : {}),
    ...remindersOf(env),
    digestAt: env.RELAY_DIGEST_AT,
    undo: { seconds: env.RELAY_UNDO_SECONDS, everywhere: env.RELAY_UNDO_ALL },
    auditLog: auditLogOf(env.RELAY_AUDIT_LOG, resolveStateDir(env.RELAY_STATE_DIR, cwd), cwd),
    ...(shared ? { shared } : {}),
    ...(env.RELAY_METRICS_PORT !== undefined ? { metricsPort: env.RELAY_METRICS_PORT } : {}),
    ...askServerOf(env, cwd),
  };
}

/** The audit log's file: `RELAY_AUDIT_LOG` (against `cwd`), else `audit.jsonl` in the state folder. */
export const auditLogOf = (value: string | undefined, stateDir: string, cwd: string): string =>
  value === undefined ? path.join(stateDir, 'audit.jsonl') : path.resolve(cwd, value);

/** The ask API's settings; `askApiProblem` has made sure they go together. */
function askServerOf(env: z.infer<typeof envSchema>, cwd: string): Pick<Config, 'askServer'> {
  if (env.RELAY_ASK_PORT === undefined || env.RELAY_ASK_TOKENS === undefined) return {};
  const tls =
    env.RELAY_ASK_TLS_CERT !== undefined && env.RELAY_ASK_TLS_KEY !== undefined
      ? {
          certFile: path.resolve(cwd, env.RELAY_ASK_TLS_CERT),
          keyFile: path.resolve(cwd, env.RELAY_ASK_TLS_KEY),
        }
      : undefined;
  return {
    askServer: {
      port: env.RELAY_ASK_PORT,
      ...(env.RELAY_ASK_HOST !== undefined ? { host: env.RELAY_ASK_HOST } : {}),
      tokensFile: path.resolve(cwd, env.RELAY_ASK_TOKENS),
      ...(tls ? { tls } : {}),
      maxOpen: env.RELAY_ASK_MAX_OPEN,
    },
  };
}

/** Socket Mode when there is an app token; HTTP otherwise (the schema made sure of a secret). */
function slackOf(env: z.infer<typeof envSchema>, channelId: string): SlackConfig {
  const common = {
    botToken: env.SLACK_BOT_TOKEN,
    channelId,
    apiUrl: env.SLACK_API_URL,
  };
  if (env.SLACK_APP_TOKEN) return { ...common, mode: 'socket', appToken: env.SLACK_APP_TOKEN };
  if (!env.SLACK_SIGNING_SECRET) {
    throw new Error(
      'toConfig: no SLACK_APP_TOKEN nor SLACK_SIGNING_SECRET; check missingTransport first',
    );
  }
  return { ...common, mode: 'http', signingSecret: env.SLACK_SIGNING_SECRET, port: env.PORT };
}

function remindersOf(env: z.infer<typeof envSchema>): Pick<Config, 'reminders'> {
  const remindAfterMs = env.RELAY_REMIND_AFTER;
  const escalate =
    env.RELAY_ESCALATE_AFTER !== undefined && env.RELAY_ESCALATE_TO !== undefined
      ? { afterMs: env.RELAY_ESCALATE_AFTER, to: env.RELAY_ESCALATE_TO }
      : undefined;
  if (remindAfterMs === undefined && !escalate) return {};
  return {
    reminders: {
      ...(remindAfterMs !== undefined ? { remindAfterMs } : {}),
      ...(escalate ? { escalate } : {}),
    },
  };
}
