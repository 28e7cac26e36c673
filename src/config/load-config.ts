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
 * `RelayError` listing every bad variable and how to fix it. `hostName` names this relay's
 * machine in shared mode when `RELAY_NODE` is unset.
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  cwd: string,
  hostName: string = hostname(),
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
  throw configError(parsed.success ? [] : parsed.error.issues, problems);
}

/**
 * Shared mode's variables alone (`RELAY_REDIS_URL`, `RELAY_NODE`), for commands that talk to
 * Redis and not to Slack; undefined when `RELAY_REDIS_URL` is unset.
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
  );
}

function configError(
  issues: z.core.$ZodIssue[],
  problems: string[],
  headline = 'The relay cannot start: its configuration is incomplete or wrong.',
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
      'Set these in the environment or in a .env file (see .env.example), then start again.',
    ].join('\n'),
  );
}
