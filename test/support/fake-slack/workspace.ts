import { ElementStateStore } from './element-state.js';
import type { IdSource } from './ids.js';
import { mentionsInContent, type ParsedMention } from './mentions.js';
import { normalizeBlocks } from './normalize-blocks.js';
import { DEFAULT_SIZE_CEILINGS, type SizeCeilings } from './size-ceilings.js';
import type {
  DeliveryFailure,
  FakeChannel,
  FakeFile,
  FakeUser,
  FakeUserGroup,
  JsonObject,
  ObservedMessage,
  StoredEphemeral,
  StoredMessage,
  StoredView,
  TriggerRecord,
  WebApiCall,
} from './types.js';

/** A trigger_id opens a view only within this many milliseconds of the interaction. */
export const TRIGGER_LIFETIME_MS = 3000;

/** The start of the element-state keys of a message, one per person who picked something. */
const messageSurfacePrefix = (channel: string, ts: string): string => `message:${channel}/${ts}/`;

/** The element-state key of a message as one user sees it. */
export const messageSurfaceKey = (channel: string, ts: string, userId: string): string =>
  `${messageSurfacePrefix(channel, ts)}${userId}`;

/** The element-state key of a view (a view belongs to one user). */
export const viewSurfaceKey = (viewId: string): string => `view:${viewId}`;

/** Fixed identities of the stand-in workspace and app. */
export const WORKSPACE_IDENTITY = {
  teamId: 'T0FAKE0001',
  teamDomain: 'fake-o7',
  teamName: 'Fake o7 Workspace',
  appId: 'A0RELAY001',
  botId: 'B0RELAY001',
  botUserId: 'U0RELAYBOT',
  botName: 'o7-relay',
  /** the legacy verification token Slack still puts in every payload's `token` */
  verificationToken: 'fakeVerificationToken0001',
} as const;

/** A standing refusal: calls of `method` whose arguments `when` matches fail with `error`. */
export interface ContentRefusal {
  method: string;
  error: string;
  when: (args: JsonObject) => boolean;
}

/** What exchanging a trigger_id for a view produced. */
export type TriggerOutcome =
  | { ok: true; trigger: TriggerRecord }
  | { ok: false; error: 'invalid_trigger_id' | 'expired_trigger_id' | 'exchanged_trigger_id' };

/** Where a view lives. */
export type ViewLocation =
  | { kind: 'modal'; userId: string; index: number; view: StoredView }
  | { kind: 'home'; userId: string; view: StoredView };

/** The mutable state of the stand-in workspace: people, conversations, messages and views. */
export class Workspace {
  readonly identity = WORKSPACE_IDENTITY;
  readonly users = new Map<string, FakeUser>();
  readonly channels = new Map<string, FakeChannel>();
  readonly userGroups = new Map<string, FakeUserGroup>();
  /** every mention Slack made out of what the app sent, oldest first */
  readonly mentions: ParsedMention[] = [];
  readonly calls: WebApiCall[] = [];
  readonly failures: DeliveryFailure[] = [];
  readonly ephemerals: StoredEphemeral[] = [];
  readonly modalStacks = new Map<string, StoredView[]>();
  readonly homeViews = new Map<string, StoredView>();
  /** what each user's client shows in interactive elements */
  readonly elementState = new ElementStateStore();
  /** Slack's unpublished size ceilings, lowered by tests that need them to bite */
  sizeCeilings: SizeCeilings = { ...DEFAULT_SIZE_CEILINGS };
  /** errors Slack gives for certain calls until they are lifted (see `FakeSlack.refuse`) */
  readonly refusals: ContentRefusal[] = [];
  /** files announced with files.getUploadURLExternal, by id */
  readonly files = new Map<string, FakeFile>();
  private readonly messageIndex = new Map<string, StoredMessage>();
  private readonly topLevel = new Map<string, string[]>();
  private readonly triggers = new Map<string, TriggerRecord>();

  constructor(
    readonly now: () => number,
    readonly ids: IdSource,
  ) {
    this.addUser({
      id: WORKSPACE_IDENTITY.botUserId,
      name: WORKSPACE_IDENTITY.botName,
      isBot: true,
    });
  }

  /** Adds (or replaces) a user; `deleted` makes it a deactivated account. */
  addUser(user: { id: string; name: string; isBot?: boolean; deleted?: boolean }): void {
    this.users.set(user.id, {
      id: user.id,
      name: user.name,
      isBot: user.isBot ?? false,
      deleted: user.deleted ?? false,
    });
  }

  /** Adds (or replaces) a channel; the bot joins unless `botIsMember` is false. */
  addChannel(channel: {
    id: string;
    name: string;
    members?: readonly string[];
    botIsMember?: boolean;
  }): void {
    const members = new Set(channel.members ?? []);
    if (channel.botIsMember !== false) members.add(WORKSPACE_IDENTITY.botUserId);
    else members.delete(WORKSPACE_IDENTITY.botUserId);
    this.channels.set(channel.id, {
      id: channel.id,
      name: channel.name,
      members,
      isIm: false,
      created: Math.floor(this.now() / 1000),
    });
  }

  /** Adds (or replaces) a user group (a "subteam" in Slack's API). */
  addUserGroup(group: {
    id: string;
    users: readonly string[];
    handle?: string;
    disabled?: boolean;
  }): void {
    this.userGroups.set(group.id, {
      id: group.id,
      handle: group.handle ?? group.id.toLowerCase(),
      users: [...group.users],
      disabled: group.disabled ?? false,
    });
  }

  /**
   * Records the mentions Slack would make out of content the app put on a surface (messages
   * notify people; modals and the Home tab show the same highlighted mentions).
   */
  recordMentions(
    content: { text?: string | undefined; blocks?: readonly unknown[] | undefined },
    surface: ParsedMention['surface'],
  ): void {
    this.mentions.push(...mentionsInContent(content, surface, (name) => this.idForName(name)));
  }

  /** The user (by name) or user group (by handle) a plain `@name` would mention. */
  private idForName(name: string): string | undefined {
    const wanted = name.toLowerCase();
    for (const user of this.users.values()) if (user.name.toLowerCase() === wanted) return user.id;
    for (const group of this.userGroups.values()) {
      if (!group.disabled && group.handle.toLowerCase() === wanted) return group.id;
    }
    return undefined;
  }

  /** Shows an ephemeral message to one user. */
  addEphemeral(ephemeral: StoredEphemeral): void {
    this.ephemerals.push(ephemeral);
    this.recordMentions(ephemeral, 'ephemeral');
  }

  /** Finds a conversation by id, by `#name` or bare name, or by user id (the bot's DM with them). */
  resolveChannel(ref: string): FakeChannel | undefined {
    const byId = this.channels.get(ref);
    if (byId) return byId;
    const name = ref.startsWith('#') ? ref.slice(1) : ref;
    for (const channel of this.channels.values()) {
      if (!channel.isIm && channel.name === name) return channel;
    }
    if (this.users.has(ref)) return this.openIm(ref);
    return undefined;
  }

  /** The bot's direct-message channel with a user, created on first use. */
  openIm(userId: string): FakeChannel {
    for (const channel of this.channels.values()) {
      if (channel.isIm && channel.imUser === userId) return channel;
    }
    const channel: FakeChannel = {
      id: this.ids.nextId('D'),
      name: userId,
      members: new Set([userId, WORKSPACE_IDENTITY.botUserId]),
      isIm: true,
      imUser: userId,
      created: Math.floor(this.now() / 1000),
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** One message (top-level or reply) by channel and ts. */
  message(channel: string, ts: string): StoredMessage | undefined {
    return this.messageIndex.get(`${channel}/${ts}`);
  }

  /** Stores a new message posted by the bot; blocks get Slack's generated ids. */
  postMessage(input: {
    channel: string;
    text: string;
    blocks: readonly JsonObject[];
    threadTs?: string;
    files?: FakeFile[];
  }): StoredMessage {
    const ts = this.ids.nextTs();
    const message: StoredMessage = {
      channel: input.channel,
      ts,
      text: input.text,
      blocks: normalizeBlocks(input.blocks, this.ids),
      user: WORKSPACE_IDENTITY.botUserId,
      history: [],
      replyTs: [],
      ...(input.threadTs ? { threadTs: input.threadTs } : {}),
      ...(input.files ? { files: input.files } : {}),
    };
    this.messageIndex.set(`${input.channel}/${ts}`, message);
    this.recordMentions(input, 'message');
    if (input.threadTs) {
      this.message(input.channel, input.threadTs)?.replyTs.push(ts);
    } else {
      const list = this.topLevel.get(input.channel) ?? [];
      list.push(ts);
      this.topLevel.set(input.channel, list);
    }
    return message;
  }

  /** Replaces a message's text and blocks, keeping the previous version in its history. */
  updateMessage(
    message: StoredMessage,
    update: { text?: string; blocks?: readonly JsonObject[] },
  ): StoredMessage {
    // a version in the history never changes again: frozen, it is shared by every snapshot
    message.history.push(
      deepFreeze(
        structuredClone({ text: message.text, blocks: message.blocks, replacedAt: this.now() }),
      ),
    );
    this.recordMentions(update, 'message');
    if (update.text !== undefined) message.text = update.text;
    if (update.blocks !== undefined) {
      message.blocks = normalizeBlocks(update.blocks, this.ids);
      this.elementState.keepBlocks(
        messageSurfacePrefix(message.channel, message.ts),
        message.blocks,
      );
    }
    message.editedTs = this.ids.nextTs();
    return message;
  }

  /** Removes a message (and, for a thread parent, leaves replies reachable by ts as Slack does). */
  deleteMessage(message: StoredMessage): void {
    this.messageIndex.delete(`${message.channel}/${message.ts}`);
    this.elementState.keepBlocks(messageSurfacePrefix(message.channel, message.ts), []);
    if (message.threadTs) {
      const parent = this.message(message.channel, message.threadTs);
      if (parent) parent.replyTs = parent.replyTs.filter((ts) => ts !== message.ts);
      return;
    }
    const list = this.topLevel.get(message.channel) ?? [];
    this.topLevel.set(
      message.channel,
      list.filter((ts) => ts !== message.ts),
    );
  }

  /** Top-level messages of a channel, oldest first, with their thread replies. */
  observedMessages(channel: string): ObservedMessage[] {
    const out: ObservedMessage[] = [];
    for (const ts of this.topLevel.get(channel) ?? []) {
      const message = this.message(channel, ts);
      if (!message) continue;
      const { replyTs, ...rest } = snapshotOf(message);
      const replies = replyTs
        .map((replyTsValue) => this.message(channel, replyTsValue))
        .filter((reply): reply is StoredMessage => reply !== undefined)
        .map(snapshotOf);
      out.push({ ...rest, replies });
    }
    return out;
  }

  /** Hands out a fresh trigger_id for an interaction by `userId`. */
  issueTrigger(userId: string): string {
    const id = this.ids.triggerId();
    this.triggers.set(id, { id, userId, issuedAt: this.now(), used: false });
    return id;
  }

  /** Exchanges a trigger_id for the right to open or push one view. */
  exchangeTrigger(triggerId: string): TriggerOutcome {
    const trigger = this.triggers.get(triggerId);
    if (!trigger) return { ok: false, error: 'invalid_trigger_id' };
    if (trigger.used) return { ok: false, error: 'exchanged_trigger_id' };
    if (this.now() - trigger.issuedAt > TRIGGER_LIFETIME_MS) {
      return { ok: false, error: 'expired_trigger_id' };
    }
    trigger.used = true;
    return { ok: true, trigger };
  }

  /** Finds a view by id (or external_id) among open modals and home tabs. */
  findView(ref: { viewId?: string; externalId?: string }): ViewLocation | undefined {
    const matches = (view: StoredView) =>
      (ref.viewId !== undefined && view.id === ref.viewId) ||
      (ref.externalId !== undefined && ref.externalId !== '' && view.externalId === ref.externalId);
    for (const [userId, stack] of this.modalStacks) {
      const index = stack.findIndex(matches);
      const view = stack[index];
      if (view) return { kind: 'modal', userId, index, view };
    }
    for (const [userId, view] of this.homeViews) {
      if (matches(view)) return { kind: 'home', userId, view };
    }
    return undefined;
  }

  /** A fresh view hash; Slack changes it on every update so stale updates can be refused. */
  newViewHash(): string {
    return `${Math.floor(this.now() / 1000)}.${this.ids.hex(8)}`;
  }
}

/**
 * A copy of a message that the tests may keep while the workspace goes on changing it. Its
 * history is frozen and shared, not copied: tests poll messages every 20 ms, and copying every
 * earlier version of a long batch's message each time was most of such a test's CPU.
 */
export function snapshotOf(message: StoredMessage): StoredMessage {
  const { history, ...rest } = message;
  return { ...structuredClone(rest), history: [...history] };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
