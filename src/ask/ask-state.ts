import type { AskState } from '../core/remote/ask-wire.js';
import type { AskOutcome } from './wait-for-outcome.js';

/**
 * An ask's end as the ask API says it (`AskState`), from how it ended in its folder: the relay
 * side of one mapping whose other side is {@link outcomeOfState}. Undefined while it waits.
 */
export function stateOfOutcome(outcome: AskOutcome | undefined): AskState | undefined {
  if (outcome?.kind === 'answered') return { state: 'answered', text: outcome.text };
  if (outcome?.kind === 'cancelled')
    return {
      state: 'cancelled',
      ...(outcome.cancellation ? { cancellation: outcome.cancellation } : {}),
    };
  return undefined;
}

/** How an ask ended, from what the ask API said of it; undefined while it waits or was withdrawn. */
export function outcomeOfState(state: AskState): AskOutcome | undefined {
  if (state.state === 'answered') return { kind: 'answered', text: state.text };
  if (state.state === 'cancelled') return { kind: 'cancelled', cancellation: state.cancellation };
  return undefined;
}
