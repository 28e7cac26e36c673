import { ErrorCode, RelayError } from '../errors.js';
import {
  type Config,
  envSchema,
  metricsPortClash,
  missingEscalationPair,
  missingTransport,
  toConfig,
} from './config-schema.js';

/**
 * Validates the environment (already merged with `.env`) into `Config`. Throws one
 * `RelayError` listing every bad variable and how to fix it.
 */
export function loadConfig(env: Record<string, string | undefined>, cwd: string): Config {
  const parsed = envSchema.safeParse(env);
  const transport = missingTransport(env);
  const escalation = missingEscalationPair(env);
  const clash = metricsPortClash(env);
  if (parsed.success && !transport && !escalation && !clash) return toConfig(parsed.data, cwd);
  const lines = (parsed.success ? [] : parsed.error.issues).map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    return `  - ${name} ${issue.message}`;
  });
  if (transport) lines.push(`  - ${transport}`);
  if (escalation) lines.push(`  - ${escalation}`);
  if (clash) lines.push(`  - ${clash}`);
  throw new RelayError(
    ErrorCode.ConfigInvalid,
    [
      'The relay cannot start: its configuration is incomplete or wrong.',
      ...lines,
      'Set these in the environment or in a .env file (see .env.example), then start again.',
    ].join('\n'),
  );
}
