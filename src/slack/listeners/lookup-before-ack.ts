import { isTryAgain } from '../../errors.js';
import type { BatchActions } from '../../queue/actions/batch-actions.js';
import { TRY_AGAIN_TEXT } from '../access/try-again-middleware.js';

/** What a form says when its batch could not be looked up for another reason. */
export const LOOKUP_FAILED_TEXT =
  'The relay could not check this form just now, so nothing was saved. Please try again.';

type Found = Awaited<ReturnType<BatchActions['lookup']>>;

/**
 * The batch lookup a form's submission or a type-ahead search needs before its ack, since the
 * ack is its answer (errors under an input, the options). A lookup that fails is answered in
 * the ack all the same (`answer`), so Slack never waits out its 3 s and the person keeps what
 * they typed: "try again" when the shared store could not be read (undefined is returned),
 * and otherwise a plain failure whose error is thrown on, to be logged.
 */
export async function lookupBeforeAck(
  actions: Pick<BatchActions, 'lookup'>,
  key: string | undefined,
  answer: (text: string) => Promise<unknown>,
): Promise<{ found: Found } | undefined> {
  if (key === undefined) return { found: undefined };
  try {
    return { found: await actions.lookup(key) };
  } catch (error) {
    await answer(isTryAgain(error) ? TRY_AGAIN_TEXT : LOOKUP_FAILED_TEXT);
    if (isTryAgain(error)) return undefined;
    throw error;
  }
}
