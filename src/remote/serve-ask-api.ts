import type { Logger } from 'pino';
import type { AskServerConfig } from '../config/config-schema.js';
import { type AskServer, startAskServer } from './ask-server.js';
import { loadAskTokens } from './ask-tokens-file.js';
import { openRemoteAsks } from './remote-asks.js';

/**
 * The ask API of `RELAY_ASK_PORT`, for `hook`, `mcp` and `ask` on other machines: its tokens
 * read (a bad file stops the start), the asks still waiting from before a restart found
 * again, then the port opened.
 */
export async function serveAskApi(
  config: AskServerConfig,
  stateDir: string,
  log: Logger,
): Promise<AskServer> {
  const tokens = await loadAskTokens(config.tokensFile);
  const asks = await openRemoteAsks({ stateDir, log, now: Date.now });
  return startAskServer({ config, stateDir, tokens, asks, log });
}
