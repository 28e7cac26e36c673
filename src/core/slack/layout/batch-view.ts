import type { AnswerRoute, BatchRecord } from '../../batch/batch-record.js';
import type { BatchOrigin } from '../../protocol/questions/batch-origin.js';
import type { Answer, Question } from '../../protocol/questions/question.js';

/** Where a presented batch is, as far as its Slack message is concerned. */
export type BatchViewState =
  /** `note` explains something odd about the batch, e.g. a gap in the sequence */
  | { kind: 'open'; note?: string }
  /** the answer file could not be written; answers are kept and Submit stays */
  | { kind: 'submit-failed'; error: string }
  /** `by` is a Slack user id */
  | { kind: 'answered'; by: string; at: Date; via?: AnswerRoute }
  /** answered, its answer file written at `until` unless `by` presses Undo first */
  | { kind: 'held'; by: string; at: Date; until: Date; via?: AnswerRoute }
  | { kind: 'answered-elsewhere'; at: Date }
  | { kind: 'withdrawn'; at: Date }
  | { kind: 'run-removed'; at: Date }
  /** an envelope batch someone closed with Cancel; `by` is a Slack user id */
  | { kind: 'cancelled'; by: string; at: Date };
/** the q-out file was rewritten; a fresh message follows */

/** The states after which a batch's messages show answers and no controls. */
export type FinalViewState = Exclude<BatchViewState, { kind: 'open' } | { kind: 'submit-failed' }>;

/** Everything the renderer needs to show one batch. */
export interface BatchView {
  /** batch key (see `batchKey`), carried in block ids */
  key: string;
  /** first 8 hex characters of the q-out fingerprint, so clicks on an old message are recognised */
  revision: string;
  /** base name of the run folder */
  runName: string;
  runDir: string;
  seq: number;
  questions: Question[];
  /** partial answers by question id */
  drafts: Record<string, Answer>;
  state: BatchViewState;
  /**
   * Set for a batch made from an Agent Open Questions envelope (`ask`): its questions show
   * their header and option descriptions, choices may ask for typed text, and it has Cancel.
   */
  envelope?: EnvelopeView;
  /** Where a batch the relay wrote comes from (a Claude Code hook): its title and line. */
  origin?: BatchOrigin;
  /**
   * On a batch the relay wrote, the one-tap answers that open a form for a note, by question
   * id (see `noteOptions`), and the notes given with an answer.
   */
  notes?: { options: Record<string, string[]>; typed: Record<string, string> };
  /** The batch's record, for the team lines and buttons; absent, no team controls are shown. */
  team?: TeamView;
}

/**
 * The record as the team lines and buttons read it (hand-offs, assignee, who is on it), its
 * fields as stored: what a team control records is there for its render to show, with no
 * copy of it here or in `toBatchView`.
 */
export type TeamView = Partial<BatchRecord>;

/** What an envelope batch adds to its view. */
export interface EnvelopeView {
  /** Text typed for `Other…` or a follow-up choice, by question id. */
  followUpText: Record<string, string>;
}

/** Input for the message shown in place of a q-out file that does not parse. */
export interface MalformedView {
  runName: string;
  runDir: string;
  seq: number;
  fileName: string;
  errorText: string;
}

/** Whether a state shows answers rather than controls. */
export function isFinalViewState(state: BatchViewState): state is FinalViewState {
  return state.kind !== 'open' && state.kind !== 'submit-failed';
}
