import { applySubmissionAck, readSuggestedOptions } from './ack-effects.js';
import { elementValueFromUser, optionsOf } from './element-input.js';
import { isEmptyValue, STATEFUL_ELEMENTS } from './element-state.js';
import {
  actionTs,
  blockActionsPayload,
  blockSuggestionPayload,
  eventCallbackPayload,
  type InteractionSurface,
  slashCommandPayload,
  viewClosedPayload,
  viewSubmissionPayload,
} from './interaction-payloads.js';
import { modalStack, popModal } from './modal-stack.js';
import { elementsOf } from './normalize-blocks.js';
import type { ResponseUrls } from './response-urls.js';
import {
  type AckResult,
  type DeliveryFailure,
  type EnvelopeType,
  type FakeUser,
  isJsonObject,
  type JsonObject,
  type StoredView,
} from './types.js';
import { messageSurfaceKey, viewSurfaceKey, type Workspace } from './workspace.js';

/** A message in a channel, or a view, that the user interacts with. */
export type SurfaceRef = { channel: string; ts: string } | { viewId: string };

/**
 * Changes a payload before it is sent: what someone holding the signing secret or app token
 * could send instead of what Slack's client built.
 */
export type Forge = (payload: JsonObject) => JsonObject;

/** One element on a surface, acted on by one user (`forge`: a forged payload instead). */
export type ElementRef = SurfaceRef & {
  actionId: string;
  blockId?: string;
  user: string;
  forge?: Forge;
};

/** What an interaction produced: whether the app acked, what it answered, what was sent. */
export interface InteractionResult extends AckResult {
  payload: JsonObject;
}

/** A block_suggestion's result, with the options the app offered (flattened). */
export interface SuggestResult extends InteractionResult {
  options: JsonObject[];
}

/** What acting as a user needs from the rest of the stand-in. */
export interface UserActionsDeps {
  workspace: Workspace;
  responseUrls: ResponseUrls;
  deliver(
    envelopeType: EnvelopeType,
    payload: JsonObject,
    acceptsResponsePayload: boolean,
  ): Promise<AckResult>;
  recordFailure(failure: Omit<DeliveryFailure, 'at'>): void;
}

interface ResolvedSurface {
  surface: InteractionSurface;
  blocks: JsonObject[];
  stateKey: string;
  label: string;
}

interface Located {
  block: JsonObject;
  element: JsonObject;
  blockId: string;
  actionId: string;
}

/** The Slack client of a test user: clicks, picks, types, submits, builds payloads like Slack. */
export class UserActions {
  /** options external selects got from the app, by state key + block + action */
  private readonly offered = new Map<string, JsonObject[]>();
  /** modals whose submission waits for its ack */
  private readonly submitting = new Set<string>();

  constructor(private readonly deps: UserActionsDeps) {}

  private get workspace(): Workspace {
    return this.deps.workspace;
  }

  /** Clicks a button. */
  async clickButton(ref: ElementRef): Promise<InteractionResult> {
    const { user, resolved, located } = this.locate(ref, ['button']);
    const { element } = located;
    const action: JsonObject = {
      action_id: located.actionId,
      block_id: located.blockId,
      text: element.text,
      ...(element.value !== undefined ? { value: element.value } : {}),
      ...(element.style !== undefined ? { style: element.style } : {}),
      type: 'button',
      action_ts: actionTs(this.workspace.now()),
    };
    return this.sendBlockAction(user, resolved, action, ref.forge);
  }

  /** Picks one option (static/external select, radio buttons, overflow) or one user (users_select). */
  async selectOption(ref: ElementRef & { value: string }): Promise<InteractionResult> {
    const { user, resolved, located } = this.locate(ref, [
      'static_select',
      'external_select',
      'radio_buttons',
      'overflow',
      'users_select',
    ]);
    const { element } = located;
    if (element.type === 'overflow') {
      // Overflow menus are not stateful: the pick only travels in the action.
      const option = optionsOf(element).find((o) => o.value === ref.value);
      if (!option) {
        throw new Error(
          `${describe(resolved, located)}: no overflow option with value ${JSON.stringify(ref.value)}`,
        );
      }
      const action = this.actionFor(located, { selected_option: structuredClone(option) });
      return this.sendBlockAction(user, resolved, action);
    }
    const value = this.userValue(resolved, located, ref.value);
    this.workspace.elementState.set(resolved.stateKey, located.block, element, value);
    return this.sendBlockAction(user, resolved, this.actionFor(located, value), ref.forge);
  }

  /** Sets the full selection of checkboxes or a multi select (every tick fires an action in Slack). */
  async selectOptions(ref: ElementRef & { values: string[] }): Promise<InteractionResult> {
    const { user, resolved, located } = this.locate(ref, [
      'checkboxes',
      'multi_static_select',
      'multi_external_select',
      'multi_users_select',
    ]);
    const value = this.userValue(resolved, located, ref.values);
    this.workspace.elementState.set(resolved.stateKey, located.block, located.element, value);
    return this.sendBlockAction(user, resolved, this.actionFor(located, value), ref.forge);
  }

  /** Types `value` into an external select; returns the options the app answered. */
  async suggest(ref: ElementRef & { value: string }): Promise<SuggestResult> {
    const { user, resolved, located } = this.locate(ref, [
      'external_select',
      'multi_external_select',
    ]);
    const minLength =
      typeof located.element.min_query_length === 'number' ? located.element.min_query_length : 3;
    if (ref.value.length < minLength) {
      throw new Error(
        `${describe(resolved, located)}: Slack only asks the app once ${minLength} characters are typed (min_query_length); "${ref.value}" is shorter`,
      );
    }
    const built = blockSuggestionPayload({
      workspace: this.workspace,
      user,
      surface: resolved.surface,
      blockId: located.blockId,
      actionId: located.actionId,
      value: ref.value,
    });
    const payload = ref.forge ? ref.forge(structuredClone(built)) : built;
    const result = await this.deps.deliver('interactive', payload, true);
    const options = result.acked
      ? readSuggestedOptions(result.ackPayload, this.deps.recordFailure)
      : [];
    this.offered.set(offeredKey(resolved, located), options);
    return { ...result, payload, options };
  }

  /**
   * Submits the user's top modal with the given input values (block_id → action_id → value).
   * Slack's client sends a form once: a modal whose submission is still waiting for its ack
   * cannot be submitted again.
   */
  async submitView(input: {
    viewId: string;
    user: string;
    values?: Record<string, Record<string, unknown>>;
    forge?: Forge;
  }): Promise<InteractionResult> {
    const user = this.user(input.user);
    const view = this.topModal(input.viewId, user);
    if (this.submitting.has(view.id)) {
      throw new Error(
        `View ${view.id} of ${user.id} is being submitted already; Slack's client sends a form once and waits for its answer`,
      );
    }
    const resolved = this.viewSurface(view);
    for (const [blockId, actions] of Object.entries(input.values ?? {})) {
      for (const [actionId, raw] of Object.entries(actions)) {
        const located = this.findElement(resolved, actionId, blockId);
        const value = this.userValue(resolved, located, raw);
        this.workspace.elementState.set(resolved.stateKey, located.block, located.element, value);
      }
    }
    this.checkRequiredInputs(resolved);
    const built = viewSubmissionPayload({
      workspace: this.workspace,
      user,
      view,
      triggerId: this.workspace.issueTrigger(user.id),
    });
    const payload = input.forge ? input.forge(structuredClone(built)) : built;
    this.submitting.add(view.id);
    try {
      const result = await this.deps.deliver('interactive', payload, true);
      if (result.acked) {
        applySubmissionAck(this.workspace, view, result.ackPayload, this.deps.recordFailure);
      }
      return { ...result, payload };
    } finally {
      this.submitting.delete(view.id);
    }
  }

  /** Closes the user's top modal; the app hears about it only with `notify_on_close`. */
  async closeView(input: {
    viewId: string;
    user: string;
  }): Promise<AckResult & { notified: boolean; payload?: JsonObject }> {
    const user = this.user(input.user);
    const view = this.topModal(input.viewId, user);
    const notify = view.definition.notify_on_close === true;
    const payload = notify
      ? viewClosedPayload({ workspace: this.workspace, user, view })
      : undefined;
    popModal(this.workspace, user.id);
    if (!payload) return { acked: false, notified: false };
    const result = await this.deps.deliver('interactive', payload, false);
    return { ...result, notified: true, payload };
  }

  /** Runs a slash command in a channel. */
  async slashCommand(input: {
    command: string;
    text?: string;
    user: string;
    channel: string;
  }): Promise<InteractionResult> {
    const user = this.user(input.user);
    const channel = this.workspace.resolveChannel(input.channel);
    if (!channel) throw new Error(`slashCommand: no channel ${input.channel} in the workspace`);
    const payload = slashCommandPayload({
      workspace: this.workspace,
      user,
      channel,
      command: input.command,
      text: input.text ?? '',
      triggerId: this.workspace.issueTrigger(user.id),
      responseUrl: this.deps.responseUrls.issue({ channel: channel.id, userId: user.id }),
    });
    const result = await this.deps.deliver('slash_commands', payload, true);
    return { ...result, payload };
  }

  /** Delivers an Events API event (wrapped in `event_callback`). */
  async sendEvent(event: JsonObject): Promise<InteractionResult> {
    const payload = eventCallbackPayload({
      workspace: this.workspace,
      event,
      eventId: this.workspace.ids.nextId('Ev'),
      eventTs: this.workspace.ids.nextTs(),
    });
    const result = await this.deps.deliver('events_api', payload, false);
    return { ...result, payload };
  }

  private user(id: string): FakeUser {
    const user = this.workspace.users.get(id);
    if (!user) {
      throw new Error(
        `No user ${id} in the stand-in workspace; add one with addUser({ id, name })`,
      );
    }
    return user;
  }

  private locate(ref: ElementRef, types: readonly string[]) {
    const user = this.user(ref.user);
    const resolved = this.resolveSurface(ref, user);
    const located = this.findElement(resolved, ref.actionId, ref.blockId);
    if (!types.includes(String(located.element.type))) {
      throw new Error(
        `${describe(resolved, located)} is a ${String(located.element.type)}; this helper works on ${types.join(', ')}`,
      );
    }
    return { user, resolved, located };
  }

  private resolveSurface(ref: SurfaceRef, user: FakeUser): ResolvedSurface {
    if ('viewId' in ref) {
      const found = this.workspace.findView({ viewId: ref.viewId });
      if (!found || found.userId !== user.id) {
        throw new Error(`User ${user.id} has no open view ${ref.viewId}`);
      }
      return this.viewSurface(found.view);
    }
    const channel = this.workspace.resolveChannel(ref.channel);
    if (!channel) throw new Error(`No channel ${ref.channel} in the stand-in workspace`);
    if (!channel.members.has(user.id)) {
      throw new Error(
        `User ${user.id} is not a member of ${channel.id}, so cannot see its messages; list them in addChannel({ members })`,
      );
    }
    const message = this.workspace.message(channel.id, ref.ts);
    if (!message) {
      const present = this.workspace.observedMessages(channel.id).map((m) => m.ts);
      throw new Error(
        `No message ${ref.ts} in ${channel.id}; messages there: [${present.join(', ')}]`,
      );
    }
    return {
      surface: { kind: 'message', channel, message },
      blocks: message.blocks,
      stateKey: messageSurfaceKey(channel.id, message.ts, user.id),
      label: `message ${channel.id}/${message.ts}`,
    };
  }

  private viewSurface(view: StoredView): ResolvedSurface {
    const blocks = Array.isArray(view.definition.blocks)
      ? view.definition.blocks.filter(isJsonObject)
      : [];
    return {
      surface: { kind: 'view', view },
      blocks,
      stateKey: viewSurfaceKey(view.id),
      label: `view ${view.id}`,
    };
  }

  private findElement(resolved: ResolvedSurface, actionId: string, blockId?: string): Located {
    const found: Located[] = [];
    const present: string[] = [];
    for (const block of resolved.blocks) {
      for (const element of elementsOf(block)) {
        present.push(`${String(block.block_id)}/${String(element.action_id)}`);
        if (element.action_id !== actionId) continue;
        if (blockId !== undefined && block.block_id !== blockId) continue;
        found.push({ block, element, blockId: String(block.block_id), actionId });
      }
    }
    const [only, ...more] = found;
    if (!only) {
      throw new Error(
        `No element with action_id "${actionId}"${blockId ? ` in block "${blockId}"` : ''} in ${resolved.label}; block/action ids present: [${present.join(', ')}]`,
      );
    }
    if (more.length > 0) {
      throw new Error(
        `action_id "${actionId}" appears in ${found.length} blocks of ${resolved.label}; pass blockId to pick one`,
      );
    }
    return only;
  }

  private userValue(resolved: ResolvedSurface, located: Located, raw: unknown): JsonObject {
    return elementValueFromUser(located.element, raw, {
      offered: this.offered.get(offeredKey(resolved, located)),
      userExists: (id) => this.workspace.users.has(id),
      describe: describe(resolved, located),
    });
  }

  private actionFor(located: Located, value: JsonObject): JsonObject {
    const { element } = located;
    return {
      type: element.type,
      action_id: located.actionId,
      block_id: located.blockId,
      ...Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'type')),
      ...(element.placeholder !== undefined ? { placeholder: element.placeholder } : {}),
      action_ts: actionTs(this.workspace.now()),
    };
  }

  private sendBlockAction(
    user: FakeUser,
    resolved: ResolvedSurface,
    action: JsonObject,
    forge?: Forge,
  ): Promise<InteractionResult> {
    const { surface } = resolved;
    const built = blockActionsPayload({
      workspace: this.workspace,
      user,
      surface,
      action,
      triggerId: this.workspace.issueTrigger(user.id),
      ...(surface.kind === 'message'
        ? {
            responseUrl: this.deps.responseUrls.issue({
              channel: surface.channel.id,
              userId: user.id,
              messageTs: surface.message.ts,
            }),
          }
        : {}),
    });
    const payload = forge ? forge(structuredClone(built)) : built;
    return this.deps
      .deliver('interactive', payload, true)
      .then((result) => ({ ...result, payload }));
  }

  private topModal(viewId: string, user: FakeUser): StoredView {
    const stack = modalStack(this.workspace, user.id);
    const top = stack[stack.length - 1];
    if (!top || top.id !== viewId) {
      throw new Error(
        `View ${viewId} is not the top modal of ${user.id} (open: [${stack.map((v) => v.id).join(', ')}]); only the top modal can be submitted or closed`,
      );
    }
    return top;
  }

  /** Slack's client refuses to submit a modal whose required inputs are empty. */
  private checkRequiredInputs(resolved: ResolvedSurface): void {
    const values = this.workspace.elementState.stateValues(resolved.stateKey, resolved.blocks);
    for (const block of resolved.blocks) {
      if (block.type !== 'input' || block.optional === true) continue;
      const element = isJsonObject(block.element) ? block.element : undefined;
      if (!element || !(STATEFUL_ELEMENTS as readonly string[]).includes(String(element.type)))
        continue;
      const value = values[String(block.block_id)]?.[String(element.action_id)];
      if (isEmptyValue(value)) {
        throw new Error(
          `Slack's client would not submit ${resolved.label}: required input ${String(block.block_id)}/${String(element.action_id)} is empty`,
        );
      }
    }
  }
}

const offeredKey = (resolved: ResolvedSurface, located: Located): string =>
  `${resolved.stateKey}|${located.blockId}|${located.actionId}`;

const describe = (resolved: ResolvedSurface, located: Located): string =>
  `${located.blockId}/${located.actionId} (${String(located.element.type)}) in ${resolved.label}`;
