import { hostname } from 'node:os';
import type { z } from 'zod';
import { ErrorCode, RelayError } from '../errors.js';
import {
  type Config,
  envSchema,
  metricsPortClash,
  missingChannel,
  missingEscalationPair,
  missingNodeName,
  missingTransport,
  type SharedConfig,
  sharedEnvSchema,
  sharedOf,
  toConfig,
} from './config-schema.js';

/**
 * Validates the environment (already merged with `.env`) into `Config`. Throws one
 * `RelayError` listing every bad variable and how to fix it, worded for `command`, the one
 * that needs the configuration. `hostName` names this relay's machine in shared mode when
 * `RELAY_NODE` is unset.
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  cwd: string,
  hostName: string = hostname(),
  command: 'start' | 'doctor' = 'start',
): Config {
  const parsed = envSchema.safeParse(env);
  const problems = [
    missingTransport(env),
    missingChannel(env),
    missingEscalationPair(env),
    missingNodeName(env, hostName),
    metricsPortClash(env),
  ].filter((problem) => problem !== undefined);
  if (parsed.success && problems.length === 0) return toConfig(parsed.data, cwd, hostName);
  const headline =
    command === 'start'
      ? 'The relay cannot start: its configuration is incomplete or wrong.'
      : `o7-slack-relay ${command} cannot check the setup: the configuration is incomplete or wrong.`;
  throw configError(parsed.success ? [] : parsed.error.issues, problems, headline, command);
}

/**
 * Shared mode's variables alone (`RELAY_REDIS_URL`, `RELAY_NODE`), for the command that talks
 * to Redis and not to Slack (`nodes`); undefined when `RELAY_REDIS_URL` is unset.
 */
export function loadSharedConfig(
  env: Record<string, string | undefined>,
  hostName: string = hostname(),
): SharedConfig | undefined {
  const parsed = sharedEnvSchema.safeParse(env);
  const node = missingNodeName(env, hostName);
  if (parsed.success && !node) return sharedOf(parsed.data, hostName);
  throw configError(
    parsed.success ? [] : parsed.error.issues,
    node ? [node] : [],
    'Shared mode is not configured right.',
    'nodes',
  );
}

function configError(
  issues: z.core.$ZodIssue[],
  problems: string[],
  headline: string,
  command: string,
): RelayError {
  const lines = issues.map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    return `  - ${name} ${issue.message}`;
  });
  for (const problem of problems) lines.push(`  - ${problem}`);
  return new RelayError(
    ErrorCode.ConfigInvalid,
    [
      headline,
      ...lines,
      `Set these in the environment or in a .env file (see .env.example), then ${command === 'start' ? 'start again' : `run o7-slack-relay ${command} again`}.`,
    ].join('\n'),
  );
}
