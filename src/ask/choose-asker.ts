import * as z from 'zod';
import { resolveStateDir } from '../config/config-schema.js';
import { err, ok, type Result } from '../core/result.js';
import { type Asker, localAsker } from './ask-relay.js';
import { type RemoteRelay, remoteAsker } from './remote-asker.js';

/** What a command that asks through a relay reads from its environment; never Slack's tokens. */
const askerEnvSchema = z.object({
  RELAY_STATE_DIR: z.string().trim().optional(),
  RELAY_URL: z.string().trim().optional(),
  RELAY_TOKEN: z.string().trim().optional(),
});

/** `--relay <url>`, taken by every command that asks through a relay (`ask`, `hook`, `mcp`). */
export const RELAY_URL_OPTION = { relay: { type: 'string' } } as const;

/** Where a command asks: this machine's relay, or one on another machine. */
export type AskTarget =
  | { kind: 'local'; stateDir: string }
  | { kind: 'remote'; relay: RemoteRelay };

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Picks the relay a command (`ask`, `hook`, `mcp`) asks through: `--relay URL` or `RELAY_URL`
 * (with `RELAY_TOKEN`) for a relay on another machine, else the one of `--state-dir` or
 * `RELAY_STATE_DIR` here. The token travels only over https, or to this machine itself.
 */
export function chooseTarget(
  flags: { relay?: string | undefined; stateDir?: string | undefined },
  env: Record<string, string | undefined>,
  cwd: string,
): Result<AskTarget, string> {
  const vars = askerEnvSchema.parse(env);
  const relay = flags.relay ?? (vars.RELAY_URL || undefined);
  if (relay === undefined)
    return ok({
      kind: 'local',
      stateDir: resolveStateDir(flags.stateDir ?? (vars.RELAY_STATE_DIR || undefined), cwd),
    });
  if (flags.stateDir !== undefined)
    return err(
      '--state-dir and a relay URL (--relay or RELAY_URL) both say where to ask: pick one',
    );
  let url: URL;
  try {
    url = new URL(relay);
  } catch {
    return err(
      `the relay URL ${JSON.stringify(relay.slice(0, 100))} is not a URL; give one like https://relay.example.com:8443`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return err(`the relay URL must start with https:// (got ${url.protocol})`);
  if (url.username !== '' || url.password !== '')
    return err(
      'the relay URL must not hold a user name or password; the token goes in RELAY_TOKEN',
    );
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname))
    return err(
      `the relay URL is http:// to ${url.hostname}: the token would cross the network unencrypted; use https:// (the relay's RELAY_ASK_TLS_CERT, or a TLS proxy in front)`,
    );
  const token = vars.RELAY_TOKEN;
  if (!token)
    return err(
      `RELAY_TOKEN is not set; asking the relay at ${url.origin} needs the token its operator gave you`,
    );
  return ok({ kind: 'remote', relay: { url, token } });
}

/** The asker for `target`; `report` says a dropped connection to a remote relay. */
export const askerFor = (target: AskTarget, report: (line: string) => void): Asker =>
  target.kind === 'local' ? localAsker(target.stateDir) : remoteAsker(target.relay, { report });
