import { randomBytes } from 'node:crypto';
import type { StateValues } from './element-state.js';
import { deliverOverHttp, postSigned, type RequestUrlAnswer } from './http-delivery.js';
import { closeServer, listenLoopback } from './http-server.js';
import { createIdSource } from './ids.js';
import type { ParsedMention } from './mentions.js';
import { FileUploads } from './methods-files.js';
import { modalStack } from './modal-stack.js';
import { ResponseUrls } from './response-urls.js';
import type { SizeCeilings } from './size-ceilings.js';
import {
  type DisconnectReason,
  type DropKind,
  type RawFrameResult,
  type SocketDelivery,
  SocketModeHub,
} from './socket-mode-hub.js';
import {
  type AckResult,
  type DeliveredPayload,
  type DeliveryFailure,
  type EnvelopeType,
  type InjectedFailure,
  isJsonObject,
  type JsonObject,
  type ObservedMessage,
  type StoredEphemeral,
  type StoredMessage,
  type WebApiCall,
} from './types.js';
import {
  type ElementRef,
  type Forge,
  type InteractionResult,
  type SuggestResult,
  UserActions,
} from './user-actions.js';
import { WebApiRouter } from './web-api-router.js';
import { viewJson } from './wire-shapes.js';
import { messageSurfaceKey, snapshotOf, Workspace } from './workspace.js';

/** Options for {@link startFakeSlack}. */
export interface StartFakeSlackOptions {
  /** the clock for trigger expiry, message ts and call times (ms); default `Date.now` */
  now?: () => number;
  /** picks the Socket Mode connection for each envelope, and random ids; default `Math.random` */
  random?: () => number;
  /** picks the Socket Mode connection for each envelope instead of `random` (0 to <1) */
  pickConnection?: () => number;
  /** how long an interaction waits for its ack; Slack's 3 seconds by default */
  ackTimeoutMs?: number;
  /** how often the stand-in pings each Socket Mode connection; default 5000 */
  pingIntervalMs?: number;
  /** the bot token's granted scopes; default {@link MANIFEST_BOT_SCOPES} */
  botScopes?: readonly string[];
}

/**
 * The bot scopes of an app created from the project's `manifest.yml`, which is what a workspace
 * grants the relay (a test checks the manifest still asks for exactly these).
 */
export const MANIFEST_BOT_SCOPES: readonly string[] = [
  'chat:write',
  'channels:read',
  'groups:read',
  'users:read',
  'usergroups:read',
  'im:write',
  'files:write',
];

/** A view as `views()`/`homeView()` report it: Slack's view object plus any shown errors. */
export type ObservedView = JsonObject & { errors?: Record<string, string> };

/** The loopback Slack stand-in, as tests and the benchmark drive it. */
export interface FakeSlack {
  /** `http://127.0.0.1:<port>/api/`, for `clientOptions.slackApiUrl` */
  readonly apiUrl: string;
  readonly botToken: string;
  readonly appToken: string;
  readonly signingSecret: string;
  readonly teamId: string;
  readonly appId: string;
  readonly botId: string;
  readonly botUserId: string;

  /** Adds a user (default users: U0ALICE01 "alice", U0BOB0001 "bob"); `deleted`: deactivated. */
  addUser(user: { id: string; name: string; isBot?: boolean; deleted?: boolean }): void;
  /** Adds a channel; the bot is a member unless `botIsMember` is false (default: C0RELAY01). */
  addChannel(channel: { id: string; name: string; members: string[]; botIsMember?: boolean }): void;
  /** Archives a channel (posting there then fails with `is_archived`), or unarchives it. */
  setChannelArchived(id: string, archived: boolean): void;
  /** Adds a user group (`@handle` mentions it; a disabled one is hidden from usergroups.*). */
  addUserGroup(group: { id: string; users: string[]; handle?: string; disabled?: boolean }): void;
  /** Changes the scopes the bot token was granted (what `x-oauth-scopes` lists and Slack enforces). */
  setBotScopes(scopes: readonly string[]): void;

  /** Makes the next `times` calls of a Web API method fail (429 with Retry-After, 503, or an error). */
  failNext(method: string, failure: InjectedFailure, times?: number): void;
  /** Drops the injected failures that have not happened yet for a method. */
  clearFailures(method: string): void;
  /**
   * Slack down: every Web API call of any method fails with `failure` (default: HTTP 500 and
   * an HTML error page) until the returned function ends the outage.
   */
  startOutage(failure?: InjectedFailure): () => void;
  /**
   * Makes every call of `method` whose arguments `when` matches (all, by default) fail with
   * `error`, as Slack does with permanent errors, until the returned function lifts it.
   */
  refuse(method: string, error: string, when?: (args: JsonObject) => boolean): () => void;
  /** Slack's unpublished size ceilings, changed for the rest of the run (see `SizeCeilings`). */
  setSizeCeilings(ceilings: Partial<SizeCeilings>): void;
  /** Sends interactions to this request URL (HTTP mode) instead of Socket Mode; undefined switches back. */
  setRequestUrl(url: string | undefined): void;
  /**
   * Stamps HTTP requests `seconds` away from the wall clock (still correctly signed), as a
   * replayed or forged request would be; 0 goes back to honest timestamps.
   */
  skewRequestTimestamps(seconds: number): void;
  /** Sends `disconnect` with the reason on every Socket Mode connection and closes them. */
  disconnectAll(reason?: DisconnectReason): Promise<void>;
  /**
   * Drops one Socket Mode connection (`connectionId`, else a random one) while the others
   * stay up: with a `disconnect` message (`how`, default `refresh_requested`) or `cut` with
   * no close frame; resolves with its id once closed.
   */
  dropConnection(options?: { connectionId?: number; how?: DropKind }): Promise<number>;
  /**
   * Holds the `hello` of every Socket Mode connection opened from now on, until the returned
   * function sends them: a connection caught between its WebSocket opening and Slack's `hello`.
   */
  holdHellos(): () => void;
  /** Open Socket Mode connections (those that got `hello`). */
  readonly connectionCount: number;
  /** The ids of the open Socket Mode connections, as `deliveries` names them. */
  readonly openConnectionIds: number[];
  /** Socket Mode connections ever opened (a check that must not connect leaves this alone). */
  readonly connectionsOpened: number;

  clickButton(ref: ElementRef): Promise<InteractionResult>;
  selectOption(ref: ElementRef & { value: string }): Promise<InteractionResult>;
  selectOptions(ref: ElementRef & { values: string[] }): Promise<InteractionResult>;
  suggest(ref: ElementRef & { value: string }): Promise<SuggestResult>;
  submitView(input: {
    viewId: string;
    user: string;
    values?: Record<string, Record<string, unknown>>;
    forge?: Forge;
  }): Promise<InteractionResult>;
  closeView(input: {
    viewId: string;
    user: string;
  }): Promise<AckResult & { notified: boolean; payload?: JsonObject }>;
  slashCommand(input: {
    command: string;
    text?: string;
    user: string;
    channel: string;
  }): Promise<InteractionResult>;
  sendEvent(event: JsonObject): Promise<InteractionResult>;
  /**
   * POSTs `body` as it is to the request URL, correctly signed (with `timestampSec`, default
   * now): for bodies Slack would never send. Needs a request URL (HTTP mode).
   */
  postSignedBody(input: {
    body: string;
    contentType: string;
    timestampSec?: number;
  }): Promise<RequestUrlAnswer>;
  /**
   * Sends `text` as one frame on a live Socket Mode connection: for frames Slack would never
   * send. With `envelopeId`, waits for an ack carrying it (see `RawFrameResult`).
   */
  sendSocketFrame(text: string, options?: { envelopeId?: string }): Promise<RawFrameResult>;

  /** Top-level messages of a channel, oldest first, with edit history and thread replies. */
  messages(channel: string): ObservedMessage[];
  /** One message (top-level or reply) as it is now. */
  message(channel: string, ts: string): StoredMessage | undefined;
  /**
   * What a person's Slack client shows in a message's controls now, as `state.values`
   * (block_id → action_id → value): their own picks where the block_id survived, else the
   * message's initial values.
   */
  shownValues(ref: { channel: string; ts: string; user: string }): StateValues;
  /** Ephemeral messages shown to a user, oldest first. */
  ephemerals(userId: string): StoredEphemeral[];
  /** The user's open modal stack, bottom first. */
  views(userId: string): ObservedView[];
  /** The user's App Home view, if published. */
  homeView(userId: string): ObservedView | undefined;
  /** Every Web API call (and response_url post), oldest first. */
  readonly calls: readonly WebApiCall[];
  /**
   * Every mention Slack made of what the app sent (`<!here>`, `<@U…>`, and plain `@here` or
   * `@name` where Slack parses those), oldest first.
   */
  readonly mentions: readonly ParsedMention[];
  /** Deliveries a real user would have seen fail (no ack in time, no connection, bad ack). */
  readonly failures: readonly DeliveryFailure[];
  /** Which Socket Mode connection got each envelope. */
  readonly deliveries: readonly SocketDelivery[];
  /**
   * Every payload delivered to the app (interactions and events, either transport), oldest
   * first, with its ack and when the ack came back.
   */
  readonly deliveredPayloads: readonly DeliveredPayload[];
  /** Stops the server and drops every connection. */
  close(): Promise<void>;
}

/** What a payload acts on: the action_id, the view's callback_id, the event's or command's name. */
function subjectOf(payload: JsonObject): string {
  const [action] = Array.isArray(payload.actions) ? payload.actions : [];
  const view = isJsonObject(payload.view) ? payload.view : undefined;
  const event = isJsonObject(payload.event) ? payload.event : undefined;
  const subject =
    (isJsonObject(action) ? action.action_id : undefined) ??
    view?.callback_id ??
    payload.action_id ??
    event?.type ??
    payload.command;
  return String(subject ?? payload.type);
}

/** Starts the stand-in on 127.0.0.1 with a random port and the default workspace. */
export async function startFakeSlack(options: StartFakeSlackOptions = {}): Promise<FakeSlack> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const ackTimeoutMs = options.ackTimeoutMs ?? 3000;
  const workspace = new Workspace(now, createIdSource(now, random));
  const { identity } = workspace;
  const secret = (bytes: number) => randomBytes(bytes).toString('hex');
  const tokens = {
    bot: `xoxb-${secret(6)}-${secret(6)}-${secret(12)}`,
    app: `xapp-1-${identity.appId}-${secret(6)}-${secret(16)}`,
  };
  const signingSecret = secret(16);
  let requestUrl: string | undefined;
  let timestampSkewSec = 0;
  // The receiver checks the timestamp against its own wall clock, not the injected one.
  const requestTimestampSec = () => Math.floor(Date.now() / 1000) + timestampSkewSec;

  const recordFailure = (failure: Omit<DeliveryFailure, 'at'>) =>
    workspace.failures.push({ ...failure, at: now() });
  const hub = new SocketModeHub({
    appId: identity.appId,
    random: options.pickConnection ?? random,
    ackTimeoutMs,
    pingIntervalMs: options.pingIntervalMs ?? 5000,
    recordFailure,
  });
  let host = '';
  const responseUrls = new ResponseUrls(workspace, () => `http://${host}/actions/`);
  const scopes = {
    bot: [...(options.botScopes ?? MANIFEST_BOT_SCOPES)],
    app: ['connections:write'],
  };
  const webApi = new WebApiRouter({
    workspace,
    tokens,
    scopes,
    openSocketUrl: () => hub.issueUrl(host),
    uploadUrl: (fileId) => `http://${host}/upload/${fileId}`,
  });
  const uploads = new FileUploads(workspace);
  const listening = await listenLoopback(() => ({ webApi, responseUrls, hub, uploads }));
  host = listening.host;

  const deliveredPayloads: DeliveredPayload[] = [];
  const deliver = async (
    type: EnvelopeType,
    payload: JsonObject,
    accepts: boolean,
  ): Promise<AckResult> => {
    const callsAtSend = workspace.calls.length;
    const sentAt = performance.now();
    const result = await (requestUrl
      ? deliverOverHttp(type, payload, {
          url: requestUrl,
          signingSecret,
          timestampSec: requestTimestampSec(),
          timeoutMs: ackTimeoutMs,
          recordFailure,
        })
      : hub.deliver(type, payload, accepts));
    const timed: AckResult = result.acked
      ? {
          ...result,
          timing: {
            ms: performance.now() - sentAt,
            callsAtSend,
            callsAtAck: workspace.calls.length,
          },
        }
      : result;
    deliveredPayloads.push({
      envelopeType: type,
      payloadType: String(payload.type ?? payload.command ?? type),
      subject: subjectOf(payload),
      payload,
      ...timed,
    });
    return timed;
  };
  const actions = new UserActions({ workspace, responseUrls, deliver, recordFailure });

  workspace.addUser({ id: 'U0ALICE01', name: 'alice' });
  workspace.addUser({ id: 'U0BOB0001', name: 'bob' });
  workspace.addChannel({ id: 'C0RELAY01', name: 'o7-relay', members: ['U0ALICE01', 'U0BOB0001'] });

  const observeView = (view: Parameters<typeof viewJson>[1]): ObservedView => ({
    ...viewJson(workspace, view),
    ...(view.errors ? { errors: { ...view.errors } } : {}),
  });

  return {
    apiUrl: `http://${host}/api/`,
    botToken: tokens.bot,
    appToken: tokens.app,
    signingSecret,
    teamId: identity.teamId,
    appId: identity.appId,
    botId: identity.botId,
    botUserId: identity.botUserId,
    addUser: (user) => workspace.addUser(user),
    addChannel: (channel) => workspace.addChannel(channel),
    setChannelArchived(id, archived) {
      const channel = workspace.channels.get(id);
      if (!channel) throw new Error(`setChannelArchived: no channel ${id}`);
      channel.archived = archived;
    },
    addUserGroup: (group) => workspace.addUserGroup(group),
    failNext: (method, failure, times) => webApi.failNext(method, failure, times),
    clearFailures: (method) => webApi.clearFailures(method),
    startOutage: (failure = { status: 500 }) => webApi.startOutage(failure),
    refuse(method, error, when = () => true) {
      const refusal = { method, error, when };
      workspace.refusals.push(refusal);
      return () => {
        const index = workspace.refusals.indexOf(refusal);
        if (index >= 0) workspace.refusals.splice(index, 1);
      };
    },
    setSizeCeilings(ceilings) {
      workspace.sizeCeilings = { ...workspace.sizeCeilings, ...ceilings };
    },
    setRequestUrl(url) {
      requestUrl = url;
    },
    skewRequestTimestamps(seconds) {
      timestampSkewSec = seconds;
    },
    disconnectAll: (reason = 'refresh_requested') => hub.disconnectAll(reason),
    dropConnection: (options) => hub.dropConnection(options),
    holdHellos: () => hub.holdHellos(),
    get connectionCount() {
      return hub.connectionCount;
    },
    get openConnectionIds() {
      return hub.openConnectionIds;
    },
    get connectionsOpened() {
      return hub.connectionsOpened;
    },
    setBotScopes(granted) {
      scopes.bot = [...granted];
    },
    clickButton: (ref) => actions.clickButton(ref),
    selectOption: (ref) => actions.selectOption(ref),
    selectOptions: (ref) => actions.selectOptions(ref),
    suggest: (ref) => actions.suggest(ref),
    submitView: (input) => actions.submitView(input),
    closeView: (input) => actions.closeView(input),
    slashCommand: (input) => actions.slashCommand(input),
    sendEvent: (event) => actions.sendEvent(event),
    postSignedBody(input) {
      if (!requestUrl) throw new Error('postSignedBody: set a request URL first (HTTP mode)');
      return postSigned({
        url: requestUrl,
        body: input.body,
        contentType: input.contentType,
        signingSecret,
        timestampSec: input.timestampSec ?? requestTimestampSec(),
        timeoutMs: ackTimeoutMs,
      });
    },
    sendSocketFrame: (text, options) => hub.sendRawFrame(text, options?.envelopeId),
    messages: (channel) => workspace.observedMessages(channel),
    message(channel, ts) {
      const found = workspace.message(channel, ts);
      return found ? snapshotOf(found) : undefined;
    },
    shownValues({ channel, ts, user }) {
      const message = workspace.message(channel, ts);
      if (!message) throw new Error(`shownValues: no message ${ts} in ${channel}`);
      return workspace.elementState.stateValues(
        messageSurfaceKey(channel, ts, user),
        message.blocks,
      );
    },
    ephemerals: (userId) => structuredClone(workspace.ephemerals.filter((e) => e.user === userId)),
    views: (userId) => modalStack(workspace, userId).map(observeView),
    homeView(userId) {
      const view = workspace.homeViews.get(userId);
      return view ? observeView(view) : undefined;
    },
    calls: workspace.calls,
    mentions: workspace.mentions,
    failures: workspace.failures,
    deliveries: hub.deliveries,
    deliveredPayloads,
    async close() {
      await hub.close();
      await closeServer(listening.server);
    },
  };
}
