/**
 * What one HTTP request to a Slack Web API method came to: Slack's answer (`ok`, or refused
 * with an error code), a rate limit (HTTP 429), another HTTP status, or no answer at all.
 */
export type WebApiOutcome =
  | { method: string; kind: 'ok' }
  | { method: string; kind: 'refused'; code: string }
  | { method: string; kind: 'rate-limited'; retryAfterSec: number | undefined }
  | { method: string; kind: 'http-error'; status: number }
  | { method: string; kind: 'network'; message: string };

/** A method name as Slack spells them (`chat.postMessage`); anything else is not counted. */
const METHOD_NAME = /^[a-zA-Z]+(\.[a-zA-Z]+)+$/;

/** The Web API method a request URL calls, or undefined for any other URL (file uploads). */
export function webApiMethodOf(url: string, apiUrl: string): string | undefined {
  if (!url.startsWith(apiUrl)) return undefined;
  const [method = ''] = url.slice(apiUrl.length).split(/[?#]/);
  return METHOD_NAME.test(method) ? method : undefined;
}

/** The seconds Slack asked to wait, read as the Web API client reads `Retry-After`. */
export function retryAfterSec(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number.parseInt(header, 10);
  return Number.isNaN(seconds) ? undefined : seconds;
}

/**
 * The code an outcome counts under among errors: Slack's own error code, `ratelimited`,
 * `http_<status>`, or `network_error`; undefined for a success.
 */
export function webApiErrorCode(outcome: WebApiOutcome): string | undefined {
  switch (outcome.kind) {
    case 'ok':
      return undefined;
    case 'refused':
      return outcome.code;
    case 'rate-limited':
      return 'ratelimited';
    case 'http-error':
      return `http_${outcome.status}`;
    case 'network':
      return 'network_error';
  }
}

/** Slack's error code in a JSON answer, `ok` when it has none. */
function codeOf(body: unknown): string | 'ok' {
  if (typeof body !== 'object' || body === null) return 'ok';
  const { ok, error } = body as { ok?: unknown; error?: unknown };
  if (ok !== false) return 'ok';
  return typeof error === 'string' && /^[a-z0-9_]{1,64}$/.test(error) ? error : 'unknown_error';
}

/**
 * A `fetch` for the Slack SDK's Web API clients that reports the outcome of every request to
 * a Web API method under `apiUrl`, retries included. It is the one place every client's
 * calls pass through: the app's own client, the client Bolt makes for each listener from the
 * same options, and the Socket Mode client's `apps.connections.open`. The answer reaches the
 * SDK unchanged; a report that throws is ignored.
 */
export function observedFetch(
  apiUrl: string,
  report: (outcome: WebApiOutcome) => void,
  inner: typeof globalThis.fetch = globalThis.fetch,
) {
  const tell = (outcome: WebApiOutcome) => {
    try {
      report(outcome);
    } catch {
      // counting must never break a call to Slack
    }
  };
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const method = webApiMethodOf(String(url), apiUrl);
    if (method === undefined) return inner(url, init);
    let response: Response;
    try {
      response = await inner(url, init);
    } catch (error) {
      tell({ method, kind: 'network', message: error instanceof Error ? error.message : 'failed' });
      throw error;
    }
    tell(await outcomeOf(method, response));
    return response;
  };
}

/** What Slack's answer to a call of `method` came to; the response's body is left unread. */
export async function outcomeOf(method: string, response: Response): Promise<WebApiOutcome> {
  if (response.status === 429) {
    return {
      method,
      kind: 'rate-limited',
      retryAfterSec: retryAfterSec(response.headers.get('retry-after')),
    };
  }
  if (response.status !== 200) return { method, kind: 'http-error', status: response.status };
  if (!(response.headers.get('content-type') ?? '').includes('json')) return { method, kind: 'ok' };
  const code = codeOf(
    await response
      .clone()
      .json()
      .catch(() => undefined),
  );
  return code === 'ok' ? { method, kind: 'ok' } : { method, kind: 'refused', code };
}
