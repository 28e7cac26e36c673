import { bodyProblem } from './body-problem.js';
import { valueKind } from './value-kind.js';

/** What to do with one Socket Mode frame before the Socket Mode client reads it. */
export type FrameVerdict =
  | { pass: true }
  | {
      pass: false;
      problem: string;
      /** present when the frame carried one: ack it, or Slack delivers it again */
      envelopeId?: string;
      envelopeType?: string;
    };

/** Frames that are not envelopes; the client handles them by itself. */
const CONTROL_TYPES = new Set(['hello', 'disconnect']);

/**
 * The envelope types Slack sends, and the key that tells the payload's kind. The client
 * emits a frame's `type` as an event name, so any other type (`error`, `ws_message`, …) would
 * reach its own machinery.
 */
const ENVELOPE_KEYS: Readonly<Record<string, string>> = {
  events_api: 'event',
  interactive: 'type',
  slash_commands: 'command',
};

/**
 * Decides whether a Socket Mode frame is safe to hand to the Socket Mode client and Bolt,
 * which dereference `payload` (and `payload.event` for events) without checking. A refused
 * frame's problem names the JSON path and what was found, never the content.
 */
export function checkSocketFrame(text: string): FrameVerdict {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return { pass: false, problem: `the frame is not JSON (${text.length} characters)` };
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
    return { pass: false, problem: `the frame is ${valueKind(frame)}; expected a JSON object` };
  }
  const { type, envelope_id: rawId, payload } = frame as Record<string, unknown>;
  const envelopeId = typeof rawId === 'string' && rawId !== '' ? rawId : undefined;
  const refuse = (problem: string): FrameVerdict => ({
    pass: false,
    problem,
    ...(envelopeId === undefined ? {} : { envelopeId }),
    ...(typeof type === 'string' ? { envelopeType: cut(type) } : {}),
  });
  if (typeof type !== 'string') return refuse(`type is ${valueKind(type)}; expected a string`);
  if (CONTROL_TYPES.has(type)) return { pass: true };
  const key = Object.hasOwn(ENVELOPE_KEYS, type) ? ENVELOPE_KEYS[type] : undefined;
  if (key === undefined) {
    return refuse(
      `type ${JSON.stringify(cut(type))} is not a Socket Mode envelope type (${Object.keys(ENVELOPE_KEYS).join(', ')})`,
    );
  }
  if (envelopeId === undefined) {
    return refuse(
      `envelope_id is ${valueKind(rawId)}; expected a non-empty string (the envelope cannot be acknowledged)`,
    );
  }
  const problem = bodyProblem(payload, 'payload');
  if (problem !== undefined) return refuse(problem);
  if ((payload as Record<string, unknown>)[key] === undefined) {
    return refuse(`payload.${key} is missing; a ${type} envelope carries one`);
  }
  return { pass: true };
}

/** A type from the frame, cut short for the log. */
const cut = (text: string) => (text.length > 40 ? `${text.slice(0, 39)}…` : text);
