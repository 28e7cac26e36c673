import { normalizeBlocks } from './normalize-blocks.js';
import { isJsonObject, type JsonObject, type StoredView } from './types.js';
import { viewSurfaceKey, type Workspace } from './workspace.js';

/** Slack keeps at most three modals stacked per user. */
export const MAX_MODAL_STACK = 3;

/** Copies a view definition with Slack's generated block and action ids filled in. */
function normalizeDefinition(workspace: Workspace, definition: JsonObject): JsonObject {
  const shown = Array.isArray(definition.blocks) ? definition.blocks : [];
  workspace.recordMentions({ blocks: shown }, definition.type === 'home' ? 'home' : 'modal');
  const copy = structuredClone(definition);
  const blocks = Array.isArray(copy.blocks) ? copy.blocks.filter(isJsonObject) : [];
  copy.blocks = normalizeBlocks(blocks, workspace.ids);
  return copy;
}

function createView(
  workspace: Workspace,
  userId: string,
  definition: JsonObject,
  links: { rootViewId?: string; previousViewId?: string },
): StoredView {
  const id = workspace.ids.nextId('V');
  return {
    id,
    userId,
    type: definition.type === 'home' ? 'home' : 'modal',
    definition: normalizeDefinition(workspace, definition),
    hash: workspace.newViewHash(),
    rootViewId: links.rootViewId ?? id,
    previousViewId: links.previousViewId ?? null,
    externalId: typeof definition.external_id === 'string' ? definition.external_id : '',
  };
}

/** The user's open modals, bottom first. */
export const modalStack = (workspace: Workspace, userId: string): StoredView[] =>
  workspace.modalStacks.get(userId) ?? [];

/** Opens a modal as the root of a new stack (views.open). */
export function openModal(
  workspace: Workspace,
  userId: string,
  definition: JsonObject,
): StoredView {
  clearModals(workspace, userId);
  const view = createView(workspace, userId, definition, {});
  workspace.modalStacks.set(userId, [view]);
  return view;
}

/** Pushes a modal onto the user's stack (views.push, `response_action: 'push'`). */
export function pushModal(
  workspace: Workspace,
  userId: string,
  definition: JsonObject,
): StoredView | 'push_limit_reached' | 'no_modal_open' {
  const stack = modalStack(workspace, userId);
  const top = stack[stack.length - 1];
  if (!top) return 'no_modal_open';
  if (stack.length >= MAX_MODAL_STACK) return 'push_limit_reached';
  const view = createView(workspace, userId, definition, {
    rootViewId: top.rootViewId,
    previousViewId: top.id,
  });
  stack.push(view);
  return view;
}

/** Replaces a view's content in place: same id, new hash (views.update, `response_action: 'update'`). */
export function replaceView(workspace: Workspace, view: StoredView, definition: JsonObject): void {
  view.definition = normalizeDefinition(workspace, definition);
  view.hash = workspace.newViewHash();
  if (typeof definition.external_id === 'string') view.externalId = definition.external_id;
  delete view.errors;
}

/** Closes the user's top modal. */
export function popModal(workspace: Workspace, userId: string): StoredView | undefined {
  const stack = modalStack(workspace, userId);
  const view = stack.pop();
  if (view) workspace.elementState.clear(viewSurfaceKey(view.id));
  if (stack.length === 0) workspace.modalStacks.delete(userId);
  return view;
}

/** Closes every modal the user has open. */
export function clearModals(workspace: Workspace, userId: string): void {
  while (popModal(workspace, userId)) {
    // pop until empty
  }
}

/** Publishes (creates or replaces) the user's App Home view. */
export function publishHome(
  workspace: Workspace,
  userId: string,
  definition: JsonObject,
): StoredView {
  const existing = workspace.homeViews.get(userId);
  if (existing) {
    replaceView(workspace, existing, definition);
    return existing;
  }
  const view = createView(workspace, userId, definition, {});
  workspace.homeViews.set(userId, view);
  return view;
}
