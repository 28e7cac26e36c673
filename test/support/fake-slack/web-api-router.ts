import type { IncomingMessage } from 'node:http';
import { fail, type MethodContext, type MethodSpec, type TokenKind } from './method-support.js';
import { CHAT_METHODS } from './methods-chat.js';
import { DIRECTORY_METHODS } from './methods-directory.js';
import { FILE_METHODS } from './methods-files.js';
import { VIEW_METHODS } from './methods-views.js';
import type { InjectedFailure, JsonObject } from './types.js';
import { decodeJsonArgs, parseWebApiRequest } from './web-api-request.js';
import type { Workspace } from './workspace.js';

/** Every Web API method the stand-in implements. */
export const WEB_API_METHODS: Record<string, MethodSpec> = {
  ...DIRECTORY_METHODS,
  ...CHAT_METHODS,
  ...VIEW_METHODS,
  ...FILE_METHODS,
};

/** An HTTP answer to write back. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the router needs from the rest of the stand-in. */
export interface WebApiRouterDeps {
  workspace: Workspace;
  tokens: Record<TokenKind, string>;
  /** the scopes granted to each token, as Slack lists them in `x-oauth-scopes` */
  scopes: Record<TokenKind, readonly string[]>;
  openSocketUrl(): string;
  uploadUrl(fileId: string): string;
}

const json = (
  status: number,
  body: JsonObject,
  headers: Record<string, string> = {},
): HttpAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

/** Answers `/api/<method>` requests like Slack's Web API, recording every call. */
export class WebApiRouter {
  private readonly injected = new Map<string, InjectedFailure[]>();
  /** While set, every call fails so, whatever its method or token: Slack is down. */
  private outage: InjectedFailure | undefined;

  constructor(private readonly deps: WebApiRouterDeps) {}

  /** Makes the next `times` calls of `method` fail as described. */
  failNext(method: string, failure: InjectedFailure, times = 1): void {
    const queue = this.injected.get(method) ?? [];
    for (let i = 0; i < times; i += 1) queue.push(failure);
    this.injected.set(method, queue);
  }

  /** Drops the failures still waiting for `method`: Slack is back. */
  clearFailures(method: string): void {
    this.injected.delete(method);
  }

  /** Makes every call fail with `failure` until the returned function ends the outage. */
  startOutage(failure: InjectedFailure): () => void {
    this.outage = failure;
    return () => {
      if (this.outage === failure) this.outage = undefined;
    };
  }

  /** Handles one request to `/api/<method>`. */
  handle(method: string, req: IncomingMessage, url: URL, body: string): HttpAnswer {
    const parsed = parseWebApiRequest(req, url, body);
    const args = parsed.ok ? decodeJsonArgs(parsed.args) : {};
    const answer = parsed.ok
      ? this.answer(method, args, parsed.token)
      : json(200, fail(parsed.error));
    let response: JsonObject;
    try {
      response = JSON.parse(answer.body) as JsonObject;
    } catch {
      response = { raw: answer.body };
    }
    this.deps.workspace.calls.push({
      method,
      args,
      at: this.deps.workspace.now(),
      status: answer.status,
      response,
    });
    return answer;
  }

  private answer(method: string, args: JsonObject, token: string | undefined): HttpAnswer {
    if (this.outage) return injectedAnswer(this.outage);
    const spec = WEB_API_METHODS[method];
    if (!spec) return json(200, fail('unknown_method'));
    if (!token) return json(200, fail('not_authed'));
    const kind = (Object.keys(this.deps.tokens) as TokenKind[]).find(
      (k) => this.deps.tokens[k] === token,
    );
    if (!kind) return json(200, fail('invalid_auth'));
    // Slack tells every caller with a valid token which scopes it was granted.
    const granted = this.deps.scopes[kind];
    const scopes = { 'x-oauth-scopes': granted.join(',') };
    if (kind !== spec.token) return json(200, fail('not_allowed_token_type'), scopes);

    const injected = this.injected.get(method)?.shift();
    if (injected) return injectedAnswer(injected);
    const refusal = this.deps.workspace.refusals.find((r) => r.method === method && r.when(args));
    if (refusal) return json(200, fail(refusal.error));

    const ctx: MethodContext = {
      args,
      workspace: this.deps.workspace,
      openSocketUrl: () => this.deps.openSocketUrl(),
      uploadUrl: (fileId) => this.deps.uploadUrl(fileId),
    };
    const needed = typeof spec.scope === 'function' ? spec.scope(ctx) : spec.scope;
    if (needed && !granted.includes(needed)) {
      return json(200, fail('missing_scope', { needed, provided: granted.join(',') }), scopes);
    }
    return json(200, spec.handle(ctx), scopes);
  }
}

function injectedAnswer(failure: InjectedFailure): HttpAnswer {
  if ('error' in failure) return json(200, fail(failure.error));
  if (failure.status === 429) {
    return json(429, fail('ratelimited'), { 'retry-after': String(failure.retryAfter) });
  }
  if (failure.status === 503) {
    return { status: 503, headers: { 'content-type': 'text/plain' }, body: 'Service Unavailable' };
  }
  return {
    status: failure.status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!DOCTYPE html><html><head><title>Slack</title></head><body><h1>${failure.status}</h1><p>Slack is having trouble. Please try again in a moment.</p></body></html>`,
  };
}
