import { parse as parseForm } from 'node:querystring';
import { err, ok, type Result } from '../result.js';

/** A request's body as Bolt will see it, and what to call it in messages. */
export interface ParsedBody {
  body: unknown;
  /** `payload` (a form's JSON field), `the form` (its fields) or `the body` (JSON) */
  name: string;
}

/** Why a request's body cannot be read, and the HTTP status that says so. */
export interface BodyRefusal {
  status: 400 | 415;
  problem: string;
}

/** Slack posts interactions and slash commands as forms; Bolt reads a form only by this exact header. */
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/**
 * Reads a request body the way Bolt's HTTP receiver will (a form's `payload` field as JSON,
 * other form fields as they are, anything else as JSON), refusing what Bolt would misread:
 * a content type Slack does not use, a `payload` given twice, a `payload` or body that is not
 * JSON. Says what failed without quoting the body.
 */
export function parseRequestBody(
  text: string,
  contentType: string | undefined,
): Result<ParsedBody, BodyRefusal> {
  if (contentType === FORM) return parseFormBody(text);
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== JSON_TYPE) {
    const found =
      contentType === undefined ? 'no Content-Type' : `Content-Type ${cut(contentType)}`;
    return err({
      status: 415,
      problem: `the request has ${found}; Slack sends ${JSON_TYPE} or exactly ${FORM}`,
    });
  }
  return parseJson(text, 'the body');
}

function parseFormBody(text: string): Result<ParsedBody, BodyRefusal> {
  const fields = parseForm(text);
  const { payload } = fields;
  if (payload === undefined) return ok({ body: { ...fields }, name: 'the form' });
  if (typeof payload !== 'string') {
    return err({
      status: 400,
      problem: `the form has ${payload.length} "payload" fields; expected one`,
    });
  }
  return parseJson(payload, 'payload');
}

function parseJson(text: string, what: string): Result<ParsedBody, BodyRefusal> {
  try {
    return ok({ body: JSON.parse(text) as unknown, name: what });
  } catch {
    // The parser's own message quotes the text, which may hold tokens: say only where it broke.
    return err({ status: 400, problem: `${what} is not JSON (${text.length} characters)` });
  }
}

/** A header cut short: it is whatever the sender chose. */
const cut = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 59)}…` : text);
