import { hostname } from 'node:os';
import type * as z from 'zod';
import { ErrorCode, RelayError } from '../errors.js';
import {
  askApiProblem,
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
  VARIABLE_SHAPES,
  type VariableName,
} from './config-schema.js';
import { misplacedSecret } from './secret-values.js';

type Env = Record<string, string | undefined>;

/** A rule across variables, and the variables it reads (it may quote them). */
interface CrossCheck {
  reads: readonly VariableName[];
  problem(env: Env, hostName: string): string | undefined;
}

const CROSS_CHECKS: readonly CrossCheck[] = [
  { reads: ['SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET'], problem: missingTransport },
  { reads: ['SLACK_CHANNEL_ID', 'RELAY_WATCH'], problem: missingChannel },
  { reads: ['RELAY_ESCALATE_AFTER', 'RELAY_ESCALATE_TO'], problem: missingEscalationPair },
  { reads: ['RELAY_REDIS_URL', 'RELAY_NODE'], problem: missingNodeName },
  { reads: ['RELAY_METRICS_PORT', 'SLACK_APP_TOKEN', 'PORT'], problem: metricsPortClash },
  {
    reads: [
      'RELAY_ASK_PORT',
      'RELAY_ASK_TOKENS',
      'RELAY_ASK_TLS_CERT',
      'RELAY_ASK_TLS_KEY',
      'SLACK_APP_TOKEN',
      'PORT',
      'RELAY_METRICS_PORT',
    ],
    problem: askApiProblem,
  },
];

/**
 * Validates the environment (already merged with `.env`) into `Config`. Throws one
 * `RelayError` listing every bad variable and how to fix it, worded for `command`, the one
 * that needs the configuration. `hostName` names this relay's machine in shared mode when
 * `RELAY_NODE` is unset.
 */
export function loadConfig(
  env: Env,
  cwd: string,
  hostName: string = hostname(),
  command: 'start' | 'doctor' = 'start',
): Config {
  const headline =
    command === 'start'
      ? 'The relay cannot start: its configuration is incomplete or wrong.'
      : `o7-slack-relay ${command} cannot check the setup: the configuration is incomplete or wrong.`;
  return toConfig(
    validate(envSchema, CROSS_CHECKS, env, hostName, headline, command),
    cwd,
    hostName,
  );
}

/**
 * Shared mode's variables alone (`RELAY_REDIS_URL`, `RELAY_NODE`), for the command that talks
 * to Redis and not to Slack (`nodes`); undefined when `RELAY_REDIS_URL` is unset.
 */
export function loadSharedConfig(
  env: Env,
  hostName: string = hostname(),
): SharedConfig | undefined {
  const checks = CROSS_CHECKS.filter((check) => check.problem === missingNodeName);
  const valid = validate(
    sharedEnvSchema,
    checks,
    env,
    hostName,
    'Shared mode is not configured right.',
    'nodes',
  );
  return sharedOf(valid, hostName);
}

/**
 * The schema's values, or one `RelayError` with every problem. A variable holding what looks
 * like a secret that does not belong there is told as that alone, with what it expects: its
 * other problems, and the rules across variables that read it, would quote the value.
 */
function validate<S extends z.ZodObject>(
  schema: S,
  checks: readonly CrossCheck[],
  env: Env,
  hostName: string,
  headline: string,
  command: string,
): z.infer<S> {
  const names = Object.keys(schema.shape) as VariableName[];
  const secrets = new Map<string, string>();
  for (const name of names) {
    const look = misplacedSecret(name, env);
    if (look !== undefined) {
      secrets.set(
        name,
        `${name} holds what looks like ${look}, which is not shown here; it expects ${VARIABLE_SHAPES[name]}. Put each secret only in the variable it belongs to`,
      );
    }
  }
  const parsed = schema.safeParse(env);
  const issues = parsed.success
    ? []
    : parsed.error.issues.filter((issue) => !secrets.has(String(issue.path[0])));
  const problems = checks
    .filter((check) => !check.reads.some((name) => secrets.has(name)))
    .map((check) => check.problem(env, hostName))
    .filter((problem) => problem !== undefined);
  if (parsed.success && secrets.size === 0 && problems.length === 0) return parsed.data;
  throw configError(issues, [...secrets.values(), ...problems], headline, command);
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
