/** The four question kinds of the Q&A file protocol. */
export const QUESTION_TYPES = ['choose-one', 'choose-many', 'free-write', 'yes-no'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** Question kinds that carry a list of options. */
export const TYPES_WITH_OPTIONS: readonly QuestionType[] = ['choose-one', 'choose-many'];

export const PREVIEW_TYPES = ['markdown', 'ascii'] as const;
export type PreviewType = (typeof PREVIEW_TYPES)[number];

export interface Preview {
  type: PreviewType;
  content: string;
  [extra: string]: unknown;
}

/** One question as read from `q-out-NNN.json`; unknown fields are kept. */
export interface Question {
  id: string;
  type: QuestionType;
  prompt: string;
  options?: string[];
  preview?: Preview;
  [extra: string]: unknown;
}

/** A parsed `q-out-NNN.json`. `source` is the file's top-level object exactly as read. */
export interface QuestionBatch {
  seq: number;
  questions: Question[];
  source: Record<string, unknown>;
  /**
   * Set when the relay itself wrote the file (`ask` hands batches over in the relay's own
   * folder); only then do fields such as `source` change how the batch is answered.
   */
  writtenByRelay?: true;
}

/** A typed answer: choose-one and free-write a string, choose-many strings, yes-no a boolean. */
export type Answer = string | string[] | boolean;

/** One entry of `answers` in `q-answers-NNN.json`. */
export interface AnswerEntry {
  id: string;
  type: QuestionType;
  prompt: string;
  options?: string[];
  answer: Answer;
}

/** The content of `q-answers-NNN.json`. */
export interface AnswerFile {
  seq: number;
  answers: AnswerEntry[];
  questions: unknown[];
}
