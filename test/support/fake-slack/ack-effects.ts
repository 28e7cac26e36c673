import { checkOption, IssueList } from './composition-checks.js';
import { optionsOf } from './element-input.js';
import { clearModals, popModal, pushModal, replaceView } from './modal-stack.js';
import { viewTooLarge } from './size-ceilings.js';
import { SLACK_LIMITS } from './slack-limits.js';
import {
  DELIVERY_FAILURE_KINDS,
  type DeliveryFailure,
  isJsonObject,
  type JsonObject,
  type StoredView,
} from './types.js';
import { formatIssue, validateView } from './validate-blocks.js';
import type { Workspace } from './workspace.js';

/** Records an ack payload Slack would not accept (the user would see an error). */
type RecordFailure = (failure: Omit<DeliveryFailure, 'at'>) => void;

const invalidAck =
  (recordFailure: RecordFailure, payloadType: string) =>
  (detail: string): void =>
    recordFailure({
      kind: DELIVERY_FAILURE_KINDS.invalidAckPayload,
      envelopeType: 'interactive',
      payloadType,
      detail,
    });

/**
 * The options an app answered to a block_suggestion, flattened; an answer Slack would refuse
 * (not `{ options }`/`{ option_groups }`, over 100 options, invalid option) offers nothing.
 */
export function readSuggestedOptions(ack: unknown, recordFailure: RecordFailure): JsonObject[] {
  const reject = invalidAck(recordFailure, 'block_suggestion');
  if (!isJsonObject(ack)) {
    reject(
      `block_suggestion ack must be { options } or { option_groups }, got ${JSON.stringify(ack)}`,
    );
    return [];
  }
  const options = optionsOf(ack);
  if (options.length > SLACK_LIMITS.select.options) {
    reject(
      `block_suggestion answered ${options.length} options; Slack shows at most ${SLACK_LIMITS.select.options}`,
    );
    return [];
  }
  const issues = new IssueList();
  options.forEach((option, i) => {
    checkOption(issues, option, `/options/${i}`, { plainOnly: true });
  });
  if (issues.issues.length > 0) {
    reject(`block_suggestion options are invalid: ${issues.issues.map(formatIssue).join('; ')}`);
    return [];
  }
  return options.map((o) => structuredClone(o));
}

/** What Slack does with a view_submission ack: close, show errors, update, push or clear. */
export function applySubmissionAck(
  workspace: Workspace,
  view: StoredView,
  ack: unknown,
  recordFailure: RecordFailure,
): void {
  const reject = invalidAck(recordFailure, 'view_submission');
  if (ack === undefined) {
    popModal(workspace, view.userId);
    return;
  }
  if (!isJsonObject(ack) || typeof ack.response_action !== 'string') {
    reject(
      `view_submission ack must be empty or carry a response_action, got ${JSON.stringify(ack)}`,
    );
    return;
  }
  switch (ack.response_action) {
    case 'clear':
      clearModals(workspace, view.userId);
      return;
    case 'errors':
      applyErrors(view, ack.errors, reject);
      return;
    case 'update':
    case 'push': {
      if (isJsonObject(ack.view) && viewTooLarge(ack.view, workspace.sizeCeilings)) {
        reject(
          `response_action ${ack.response_action} carries a view over Slack's size ceiling (view_too_large)`,
        );
        return;
      }
      const issues = validateView(ack.view);
      if (issues.length > 0 || !isJsonObject(ack.view) || ack.view.type !== 'modal') {
        const why = issues.map(formatIssue).join('; ') || 'view.type must be "modal"';
        reject(`response_action ${ack.response_action} carries an invalid modal: ${why}`);
        return;
      }
      if (ack.response_action === 'update') {
        replaceView(workspace, view, ack.view);
        return;
      }
      const pushed = pushModal(workspace, view.userId, ack.view);
      if (typeof pushed === 'string') reject(`response_action push failed: ${pushed}`);
      return;
    }
    default:
      reject(`unknown response_action ${JSON.stringify(ack.response_action)}`);
  }
}

/** Shows `response_action: 'errors'` on the view; Slack only accepts input block ids as keys. */
function applyErrors(view: StoredView, errors: unknown, reject: (detail: string) => void): void {
  if (!isJsonObject(errors) || Object.keys(errors).length === 0) {
    reject('response_action errors needs a non-empty errors object (block_id → message)');
    return;
  }
  const blocks = Array.isArray(view.definition.blocks)
    ? view.definition.blocks.filter(isJsonObject)
    : [];
  const inputIds = new Set(blocks.filter((b) => b.type === 'input').map((b) => b.block_id));
  const bad = Object.keys(errors).filter((id) => !inputIds.has(id));
  if (bad.length > 0) {
    reject(
      `response_action errors names blocks that are not input blocks of ${view.id}: ${bad.join(', ')}`,
    );
    return;
  }
  view.errors = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, String(v)]));
}
