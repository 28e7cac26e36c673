import type { IncomingMessage } from 'node:http';
import { isJsonObject, type JsonObject } from './types.js';

/** A Web API request reduced to what the method handlers need. */
export type ParsedWebApiRequest =
  | { ok: true; args: JsonObject; token: string | undefined }
  | { ok: false; error: 'invalid_form_data' | 'invalid_json' | 'invalid_post_type' };

/** Reads the whole request body as UTF-8. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Parses a Web API call the way Slack accepts them: form-encoded or JSON POST bodies, or a
 * GET query string; the token from `Authorization: Bearer` or, failing that, a `token` argument.
 */
export function parseWebApiRequest(
  req: IncomingMessage,
  url: URL,
  body: string,
): ParsedWebApiRequest {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  let args: JsonObject;
  if (req.method === 'GET' || body.length === 0) {
    args = Object.fromEntries(url.searchParams);
  } else if (contentType === 'application/json') {
    try {
      const parsed: unknown = JSON.parse(body);
      if (!isJsonObject(parsed)) return { ok: false, error: 'invalid_json' };
      args = parsed;
    } catch {
      return { ok: false, error: 'invalid_json' };
    }
  } else if (contentType === 'application/x-www-form-urlencoded' || contentType === 'text/plain') {
    args = Object.fromEntries(new URLSearchParams(body));
  } else {
    return { ok: false, error: 'invalid_post_type' };
  }
  const header = req.headers.authorization;
  const bearer = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
  const bodyToken = typeof args.token === 'string' ? args.token : undefined;
  const { token: _dropped, ...rest } = args;
  return { ok: true, args: rest, token: bearer || bodyToken };
}

/** Fields that form-encoded callers send as JSON strings. */
const JSON_STRING_ARGS = ['blocks', 'view', 'attachments', 'metadata', 'files'] as const;

/**
 * Returns a copy of `args` with JSON-string fields parsed; a field that is not valid JSON is
 * left as the string so the method handler can report it.
 */
export function decodeJsonArgs(args: JsonObject): JsonObject {
  const out: JsonObject = { ...args };
  for (const name of JSON_STRING_ARGS) {
    const value = out[name];
    if (typeof value !== 'string') continue;
    try {
      out[name] = JSON.parse(value);
    } catch {
      // left as a string: the handler answers invalid_blocks_format / invalid_arguments
    }
  }
  return out;
}

/** Reads a string argument; form values are always strings, JSON ones may be numbers. */
export function stringArg(args: JsonObject, name: string): string | undefined {
  const value = args[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** Reads a boolean argument given as a JSON boolean or the strings "true"/"1". */
export function booleanArg(args: JsonObject, name: string): boolean | undefined {
  const value = args[name];
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}
