/**
 * What Slack says of a hand-off target's account: an active person, a bot or app, a
 * deactivated account, no such user, or `unknown` when the lookup failed or took too long.
 */
export type TargetAccount = 'person' | 'bot' | 'deactivated' | 'not-found' | 'unknown';

/**
 * Why a batch may not be handed to someone: they are the person handing it off, their account
 * cannot answer (or Slack could not say whose it is), or the allow list leaves them out.
 */
export type HandOffRefusal =
  | { kind: 'self' }
  | { kind: 'cannot-answer'; account: Exclude<TargetAccount, 'person'> }
  | { kind: 'not-allowed' };

/**
 * The one rule for "may `from` hand a batch to `to`": only to someone else, who is a person
 * with an active account and may answer. The account is named before the allow list, since
 * no allow list makes a deactivated account answer. `undefined`: the hand-off may go ahead.
 */
export function handOffRefusal(input: {
  from: string;
  to: string;
  account: TargetAccount;
  allowed: boolean;
}): HandOffRefusal | undefined {
  if (input.to === input.from) return { kind: 'self' };
  if (input.account !== 'person') return { kind: 'cannot-answer', account: input.account };
  return input.allowed ? undefined : { kind: 'not-allowed' };
}
