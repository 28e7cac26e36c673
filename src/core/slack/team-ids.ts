import { actionIdPattern } from './ids.js';

/**
 * Ids of the team controls (hand-off, claim). They start with `o7.` like every relay id, so the
 * allow-list middleware guards them, but are handled by their own listeners, not the answer ones.
 */
export const TEAM_ACTIONS = {
  /** opens the hand-off modal */
  handOff: 'o7.hand-off',
  /** "I'm on it" / "Release" */
  claim: 'o7.claim',
} as const;

/** Matches the team controls' action ids. */
export const TEAM_ACTION_PATTERN = actionIdPattern(Object.values(TEAM_ACTIONS));

/** Callback id of the hand-off modal. */
export const HAND_OFF_CALLBACK_ID = 'o7.hand-off';

/** Block and action ids of the hand-off modal's inputs, read back on submission. */
export const HAND_OFF_INPUTS = {
  user: { blockId: 'o7.hand-off.user', actionId: 'o7.hand-off.user-value' },
  note: { blockId: 'o7.hand-off.note', actionId: 'o7.hand-off.note-value' },
} as const;

/** Values of the claim button: what pressing it does. */
export const CLAIM_VALUES = { claim: 'claim', release: 'release' } as const;
