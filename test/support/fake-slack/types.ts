/** A parsed JSON object as it arrives on the wire: shape unknown until checked. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not an array, not null). */
export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A member of the stand-in workspace. */
export interface FakeUser {
  id: string;
  name: string;
  isBot: boolean;
  /** a deactivated account: `users.info` still finds it, with `deleted: true` */
  deleted: boolean;
}

/** A user group ("subteam" in Slack's API). */
export interface FakeUserGroup {
  id: string;
  /** what `@handle` mentions */
  handle: string;
  users: string[];
  /** a disabled group: `usergroups.list` leaves it out unless `include_disabled` */
  disabled: boolean;
}

/** A conversation: a public channel or a direct-message channel with one user. */
export interface FakeChannel {
  id: string;
  name: string;
  members: Set<string>;
  isIm: boolean;
  /** archived channels take no messages (`is_archived`) */
  archived?: boolean;
  /** for direct messages: the other party */
  imUser?: string;
  created: number;
}

/** One earlier version of a message, kept when `chat.update` replaces it. */
export interface MessageVersion {
  text: string;
  blocks: JsonObject[];
  /** injected-clock milliseconds when this version was replaced */
  replacedAt: number;
}

/** A message as the workspace holds it now. */
export interface StoredMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks: JsonObject[];
  user: string;
  /** earlier versions, oldest first */
  history: MessageVersion[];
  /** ts of the last edit, when edited */
  editedTs?: string;
  /** ts of thread replies, oldest first (top-level messages only) */
  replyTs: string[];
  /** files shared with the message (files.completeUploadExternal) */
  files?: FakeFile[];
}

/** A file uploaded with files.getUploadURLExternal and the upload URL. */
export interface FakeFile {
  id: string;
  name: string;
  title: string;
  /** the byte length announced before the upload */
  length: number;
  /** what was uploaded, as text; absent until the upload arrived */
  content?: string;
  permalink: string;
}

/** A message as `messages(channel)` reports it: thread replies resolved. */
export interface ObservedMessage extends Omit<StoredMessage, 'replyTs'> {
  replies: StoredMessage[];
}

/** An ephemeral message shown to one user. */
export interface StoredEphemeral {
  channel: string;
  user: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks: JsonObject[];
}

/** A modal or App Home view as Slack holds it. */
export interface StoredView {
  id: string;
  userId: string;
  type: 'modal' | 'home';
  /** the view definition as the app sent it (blocks with generated block_ids filled in) */
  definition: JsonObject;
  hash: string;
  rootViewId: string;
  previousViewId: string | null;
  externalId: string;
  /** errors from the last `response_action: 'errors'`, keyed by block_id */
  errors?: Record<string, string>;
}

/** A trigger handed out in an interaction payload; it opens one view within three seconds. */
export interface TriggerRecord {
  id: string;
  userId: string;
  issuedAt: number;
  used: boolean;
}

/** One Web API call as the stand-in saw it. */
export interface WebApiCall {
  method: string;
  /** arguments with JSON-string fields (blocks, view, ...) parsed and the token removed */
  args: JsonObject;
  /** injected-clock milliseconds */
  at: number;
  status: number;
  response: JsonObject;
}

/** The kinds of delivery problem the stand-in records (what a user would see as an error). */
export const DELIVERY_FAILURE_KINDS = {
  noAck: 'no_ack',
  noConnection: 'no_connection',
  httpStatus: 'http_status',
  httpError: 'http_error',
  lateAck: 'late_ack',
  invalidAckPayload: 'invalid_ack_payload',
} as const;
/** One kind from {@link DELIVERY_FAILURE_KINDS}. */
export type DeliveryFailureKind =
  (typeof DELIVERY_FAILURE_KINDS)[keyof typeof DELIVERY_FAILURE_KINDS];

/** A delivery that a real Slack user would have seen fail. */
export interface DeliveryFailure {
  kind: DeliveryFailureKind;
  envelopeType: EnvelopeType;
  payloadType: string;
  envelopeId?: string;
  detail: string;
  at: number;
}

/** Socket Mode envelope types. */
export type EnvelopeType = 'interactive' | 'events_api' | 'slash_commands';

/** What the stand-in got back for one delivered payload. */
export interface AckResult {
  acked: boolean;
  ackPayload?: unknown;
  /** when the ack came back (absent when it did not) */
  timing?: AckTiming;
}

/**
 * How long one payload waited for its ack, and which Web API calls the app made meanwhile:
 * `calls.slice(callsAtSend, callsAtAck)` are the calls it made before acknowledging.
 */
export interface AckTiming {
  /** milliseconds from the payload sent to its ack received (a monotonic clock, not `now`) */
  ms: number;
  /** how many Web API calls the stand-in had answered when it sent the payload */
  callsAtSend: number;
  /** how many it had answered when the ack arrived */
  callsAtAck: number;
}

/** One payload delivered to the app (an interaction or an event), as `deliveredPayloads` lists it. */
export interface DeliveredPayload extends AckResult {
  envelopeType: EnvelopeType;
  /** `block_actions`, `view_submission`, `block_suggestion`, `event_callback`, … */
  payloadType: string;
  /** what was acted on: the action_id, the view's callback_id, or the event's type */
  subject: string;
  /** the payload as sent */
  payload: JsonObject;
}

/**
 * A failure to inject into Web API calls: a rate limit, an HTTP error (503 in plain text; 500,
 * 502 and 504 as the HTML error page Slack's front end serves in an outage), or an error code.
 */
export type InjectedFailure =
  | { status: 429; retryAfter: number }
  | { status: 500 | 502 | 503 | 504 }
  | { error: string };
