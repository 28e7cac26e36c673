import path from 'node:path';
import { z } from 'zod';

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
 * The relay's environment. One schema, validated once at start; every message says what the
 * variable must look like.
 */
export const envSchema = z.object({
  SLACK_BOT_TOKEN: z
    .string({ error: 'is not set; copy the Bot User OAuth Token (xoxb-…) from your Slack app' })
    .trim()
    .startsWith('xoxb-', {
      error: 'must be a bot token starting with xoxb- (OAuth & Permissions → Bot User OAuth Token)',
    }),
  SLACK_APP_TOKEN: optionalText.refine((v) => v === undefined || v.startsWith('xapp-'), {
    error:
      'must be an app-level token starting with xapp- with the connections:write scope (Basic Information → App-Level Tokens), or be left unset for HTTP mode',
  }),
  SLACK_SIGNING_SECRET: optionalText,
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int()
    .min(1, { error: 'must be a port number from 1 to 65535' })
    .max(65535, { error: 'must be a port number from 1 to 65535' })
    .default(3000),
  SLACK_CHANNEL_ID: z
    .string({
      error: 'is not set; give the ID of the channel batches are posted in (e.g. C0123ABCD)',
    })
    .trim()
    .regex(/^[CGD][A-Z0-9]{2,}$/, {
      error:
        'must be a channel ID like C0123ABCD, not a name (in Slack: channel details → About → Channel ID)',
    }),
  SLACK_API_URL: z
    .url({ error: 'must be a URL like https://slack.com/api/' })
    .default('https://slack.com/api/')
    .transform((v) => (v.endsWith('/') ? v : `${v}/`)),
  RELAY_WATCH: optionalText,
  RUN_STATE_DIR: optionalText,
  RELAY_STATE_DIR: optionalText,
  RELAY_POLL: flag,
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
});

/** The validated, normalized configuration the rest of the relay uses. */
export interface Config {
  slack: {
    botToken: string;
    appToken: string | undefined;
    signingSecret: string | undefined;
    port: number;
    channelId: string;
    apiUrl: string;
    mode: 'socket' | 'http';
  };
  watchPaths: string[];
  stateDir: string;
  poll: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
}

/** Turns validated env values into `Config`, resolving paths against `cwd`. */
export function toConfig(env: z.infer<typeof envSchema>, cwd: string): Config {
  const watch = env.RELAY_WATCH ?? env.RUN_STATE_DIR ?? '.7/runs';
  return {
    slack: {
      botToken: env.SLACK_BOT_TOKEN,
      appToken: env.SLACK_APP_TOKEN,
      signingSecret: env.SLACK_SIGNING_SECRET,
      port: env.PORT,
      channelId: env.SLACK_CHANNEL_ID,
      apiUrl: env.SLACK_API_URL,
      mode: env.SLACK_APP_TOKEN ? 'socket' : 'http',
    },
    watchPaths: watch
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '')
      .map((p) => path.resolve(cwd, p)),
    stateDir: path.resolve(cwd, env.RELAY_STATE_DIR ?? '.7/slack-relay'),
    poll: env.RELAY_POLL,
    logLevel: env.LOG_LEVEL,
  };
}
