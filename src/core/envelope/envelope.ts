/** How many questions one envelope may put to the user (AskUserQuestion takes 1 to 4). */
export const MAX_ASKED_QUESTIONS = 4;

/** One answer an agent offers; `description` is `''` when the agent left it out. */
export interface EnvelopeOption {
  label: string;
  description: string;
  [extra: string]: unknown;
}

/** One question of an envelope, shaped like an AskUserQuestion item; unknown fields are kept. */
export interface EnvelopeQuestion {
  question: string;
  header: string;
  /**
   * Empty for a question answered in the person's own words: the `ask_user` tool's free-text
   * questions. An envelope in an agent's message always has options (`envelopeSchema`).
   */
  options: EnvelopeOption[];
  multiSelect?: boolean;
  [extra: string]: unknown;
}

/**
 * A validated Agent Open Questions envelope. `openQuestions` holds every question the agent
 * wrote, even past the limit, so the resume message can name the ones that were not asked.
 */
export interface Envelope {
  openQuestions: EnvelopeQuestion[];
  [extra: string]: unknown;
}

/** What an agent's final message holds: nothing to ask, an envelope, or a broken envelope. */
export type EnvelopeScan =
  | { kind: 'none' }
  | { kind: 'envelope'; envelope: Envelope; notAsked: EnvelopeQuestion[] }
  | { kind: 'malformed'; error: string };

/** The questions that are put to the user: the first four, in the agent's order. */
export const askedQuestions = (envelope: Envelope): EnvelopeQuestion[] =>
  envelope.openQuestions.slice(0, MAX_ASKED_QUESTIONS);

/** The questions past the limit, which the resume message lists instead. */
export const unaskedQuestions = (envelope: Envelope): EnvelopeQuestion[] =>
  envelope.openQuestions.slice(MAX_ASKED_QUESTIONS);
