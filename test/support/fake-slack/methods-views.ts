import { fail, invalidView, type MethodContext, type MethodSpec } from './method-support.js';
import { openModal, publishHome, pushModal, replaceView } from './modal-stack.js';
import { viewTooLarge } from './size-ceilings.js';
import { isJsonObject, type JsonObject, type StoredView } from './types.js';
import { validateView } from './validate-blocks.js';
import { stringArg } from './web-api-request.js';
import { viewJson } from './wire-shapes.js';
import type { Workspace } from './workspace.js';

type ViewArg = { ok: true; view: JsonObject } | { ok: false; response: JsonObject };

/** Reads and validates the `view` argument; `expected` restricts the view type. */
function readView(ctx: MethodContext, expected: 'modal' | 'home' | 'any'): ViewArg {
  const view = ctx.args.view;
  if (view === undefined) {
    return {
      ok: false,
      response: fail('invalid_arguments', {
        response_metadata: { messages: ['[ERROR] missing required field: view'] },
      }),
    };
  }
  if (!isJsonObject(view)) {
    return {
      ok: false,
      response: fail('invalid_arguments', {
        response_metadata: {
          messages: ['[ERROR] view must be a JSON object [json-pointer:/view]'],
        },
      }),
    };
  }
  if (viewTooLarge(view, ctx.workspace.sizeCeilings)) {
    return { ok: false, response: fail('view_too_large') };
  }
  const issues = validateView(view);
  if (issues.length > 0) return { ok: false, response: invalidView(issues) };
  if (expected !== 'any' && view.type !== expected) {
    return {
      ok: false,
      response: fail('invalid_arguments', {
        response_metadata: {
          messages: [
            `[ERROR] view type must be "${expected}" for this method [json-pointer:/view/type]`,
          ],
        },
      }),
    };
  }
  return { ok: true, view };
}

/** Exchanges the `trigger_id` argument; Slack's error names for missing, stale and reused ones. */
function exchangeTrigger(
  ctx: MethodContext,
): { ok: true; userId: string } | { ok: false; response: JsonObject } {
  const triggerId = stringArg(ctx.args, 'trigger_id');
  if (!triggerId) return { ok: false, response: fail('invalid_trigger_id') };
  const outcome = ctx.workspace.exchangeTrigger(triggerId);
  if (!outcome.ok) return { ok: false, response: fail(outcome.error) };
  return { ok: true, userId: outcome.trigger.userId };
}

/**
 * A method that puts a modal up from a click's trigger (views.open, views.push): a valid modal
 * and a fresh trigger first, then `place`, which returns the view or Slack's error name.
 */
function modalMethod(
  place: (workspace: Workspace, userId: string, definition: JsonObject) => StoredView | string,
): MethodSpec {
  return {
    token: 'bot',
    handle(ctx) {
      const view = readView(ctx, 'modal');
      if (!view.ok) return view.response;
      const trigger = exchangeTrigger(ctx);
      if (!trigger.ok) return trigger.response;
      const placed = place(ctx.workspace, trigger.userId, view.view);
      if (typeof placed === 'string') return fail(placed);
      return { ok: true, view: viewJson(ctx.workspace, placed) };
    },
  };
}

/** The views.* methods. */
export const VIEW_METHODS: Record<string, MethodSpec> = {
  'views.open': modalMethod(openModal),
  'views.push': modalMethod((workspace, userId, definition) => {
    const pushed = pushModal(workspace, userId, definition);
    // push_limit_reached is Slack's name too
    return pushed === 'no_modal_open' ? 'not_found' : pushed;
  }),
  'views.update': {
    token: 'bot',
    handle(ctx) {
      const viewId = stringArg(ctx.args, 'view_id');
      const externalId = stringArg(ctx.args, 'external_id');
      if (!viewId && !externalId) {
        return fail('invalid_arguments', {
          response_metadata: { messages: ['[ERROR] view_id or external_id is required'] },
        });
      }
      const view = readView(ctx, 'any');
      if (!view.ok) return view.response;
      const found = ctx.workspace.findView({
        ...(viewId ? { viewId } : {}),
        ...(externalId ? { externalId } : {}),
      });
      if (!found) return fail('not_found');
      const hash = stringArg(ctx.args, 'hash');
      if (hash !== undefined && hash !== found.view.hash) return fail('hash_conflict');
      if (view.view.type !== found.view.type) {
        return fail('invalid_arguments', {
          response_metadata: {
            messages: [
              `[ERROR] cannot change a ${found.view.type} view into a ${String(view.view.type)} view`,
            ],
          },
        });
      }
      replaceView(ctx.workspace, found.view, view.view);
      return { ok: true, view: viewJson(ctx.workspace, found.view) };
    },
  },
  'views.publish': {
    token: 'bot',
    handle(ctx) {
      const userId = stringArg(ctx.args, 'user_id');
      if (!userId || !ctx.workspace.users.has(userId)) return fail('user_not_found');
      const view = readView(ctx, 'home');
      if (!view.ok) return view.response;
      const existing = ctx.workspace.homeViews.get(userId);
      const hash = stringArg(ctx.args, 'hash');
      if (existing && hash !== undefined && hash !== existing.hash) return fail('hash_conflict');
      const published = publishHome(ctx.workspace, userId, view.view);
      return { ok: true, view: viewJson(ctx.workspace, published) };
    },
  },
};
