import * as z from 'zod';
import { MAX_BODY_DEPTH, nestsDeeperThan } from './nesting-depth.js';
import { valueKind } from './value-kind.js';

/*
 * The shape Bolt relies on to route a request body (or a Socket Mode payload) before any
 * listener runs: what `getTypeAndConversation`, `buildSource` and the payload pick in
 * `App.processEvent` read without checking. A body that breaks it makes Bolt throw (before
 * the fix: on a null body, outside any catch, ending the process). Fields Bolt does not read
 * are left alone, and `null` is refused only where Bolt would dereference it: real payloads
 * carry fields nobody uses and nulls where nothing was picked.
 */

/** A JSON object; `what` is the message's "expected …" when the value is something else. */
const anObject = (what = 'an object') => z.looseObject({}, { error: what });
const aString = (what = 'a non-empty string') => z.string({ error: what }).min(1, { error: what });

/** Events API (`event_callback`): Bolt reads the event's channel, user, item and subteam. */
const eventBody = z.looseObject({
  type: aString().optional(),
  event: z.looseObject(
    {
      type: aString(),
      channel: z.union([z.string(), anObject()], { error: 'a string or an object' }).optional(),
      user: z.union([z.string(), anObject()], { error: 'a string or an object' }).optional(),
      item: anObject().optional(),
      subteam: anObject().optional(),
    },
    { error: 'an object' },
  ),
  authorizations: z.array(anObject(), { error: 'an array of objects' }).optional(),
});

/** A slash command (form fields, no `type`). */
const commandBody = z.looseObject({ command: aString() });

/** Slack's check of a new request URL: the answer echoes `challenge`. */
const urlVerificationBody = z.looseObject({ type: aString(), challenge: aString() });

/**
 * Interactions Bolt routes (clicks, menus, modals, shortcuts): it reads `user.id`, the team,
 * enterprise and channel ids, the first action, and the view of a view submission.
 */
const interactionBody = z.looseObject({
  type: aString().optional(),
  user: anObject(),
  team: anObject('an object or null').nullable().optional(),
  enterprise: anObject('an object or null').nullable().optional(),
  channel: anObject().optional(),
  actions: z
    .array(anObject(), { error: 'a non-empty array of objects' })
    .min(1, { error: 'a non-empty array of objects' })
    .optional(),
  view: anObject().optional(),
});
const viewBody = interactionBody.extend({ view: anObject() });
/** A click: Slack always sends what was clicked, and Bolt routes it by `actions`. */
const blockActionsBody = interactionBody.extend({
  actions: z
    .array(anObject(), { error: 'a non-empty array of objects' })
    .min(1, { error: 'a non-empty array of objects' }),
});

/** `type`s Bolt routes as interactions (see `getTypeAndConversation`). */
const INTERACTION_TYPES = new Set([
  'block_actions',
  'block_suggestion',
  'interactive_message',
  'dialog_submission',
  'dialog_suggestion',
  'dialog_cancellation',
  'shortcut',
  'message_action',
]);
const VIEW_TYPES = new Set(['view_submission', 'view_closed']);

/** Which shape a body must have, from the keys Bolt looks at to route it. */
function shapeFor(body: Record<string, unknown>): z.ZodType | undefined {
  // Bolt routes by these keys; without them it routes nothing and answers nothing (a 404
  // after 3 s in HTTP mode), so a type that always carries one must have it.
  if (body.event !== undefined || body.type === 'event_callback') return eventBody;
  if (body.command !== undefined) return commandBody;
  if (body.type === 'url_verification') return urlVerificationBody;
  if (body.type === 'block_actions') return blockActionsBody;
  if (typeof body.type === 'string' && VIEW_TYPES.has(body.type)) return viewBody;
  const routed =
    body.actions !== undefined ||
    body.name !== undefined ||
    (typeof body.type === 'string' && INTERACTION_TYPES.has(body.type));
  return routed ? interactionBody : undefined;
}

/**
 * Why Bolt must not be handed this body, or undefined when it may. `root` names the body in
 * messages: a field name (`payload`) starts the JSON paths, a description (`the body`) stands
 * alone. The message names the JSON path and what was found there, never the value.
 */
export function bodyProblem(body: unknown, root = 'the body'): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return `${root} is ${valueKind(body)}; expected a JSON object`;
  }
  if (nestsDeeperThan(body, MAX_BODY_DEPTH)) {
    return `${root} nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep; Slack's payloads nest far less`;
  }
  const record = body as Record<string, unknown>;
  // Slack's SSL check carries nothing else; Bolt answers it by itself.
  if (record.ssl_check === '1') return undefined;
  const shape = shapeFor(record);
  if (shape === undefined) {
    if (record.type === undefined) {
      return `${root} has no "type" (nor "event" or "command"), so what kind of request it is cannot be told`;
    }
    if (typeof record.type !== 'string' || record.type === '') {
      return `${pathText(root, ['type'])} is ${valueKind(record.type)}; expected a non-empty string`;
    }
    // A type Bolt does not route: it logs that and calls no listener.
    return undefined;
  }
  const parsed = shape.safeParse(record);
  if (parsed.success) return undefined;
  const [issue] = parsed.error.issues;
  if (!issue) return `${root} does not have the shape Slack sends`;
  const found = valueAt(record, issue.path);
  const where = pathText(root, issue.path);
  return found === undefined
    ? `${where} is missing; expected ${issue.message}`
    : `${where} is ${valueKind(found)}; expected ${issue.message}`;
}

/** `payload.actions[0]`; `event.type` when the root is a description like `the body`. */
function pathText(root: string, path: readonly PropertyKey[]): string {
  let text = root.startsWith('the ') ? '' : root;
  for (const key of path) {
    text += typeof key === 'number' ? `[${key}]` : `${text === '' ? '' : '.'}${String(key)}`;
  }
  return text === '' ? root : text;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
