import { askedQuestions, type Envelope } from '../envelope/envelope.js';
import {
  choiceQuestionOf,
  ENVELOPE_BATCH_SOURCE,
  type EnvelopeBatchQuestion,
  questionIdAt,
} from '../envelope/envelope-to-batch.js';

/** An `ask_user` question without options: a free-write the person answers in a form. */
export interface TextQuestion {
  id: string;
  type: 'free-write';
  prompt: string;
  header: string;
}

/**
 * The q-out batch that puts `ask_user`'s questions to people, in their order: a question with
 * options as an envelope's (`envelopeToBatch`), one without as a free-write under its header.
 * It is an envelope batch: the relay shows the headers, and Cancel ends it without answers.
 */
export function askUserBatch(envelope: Envelope, seq = 1) {
  const questions = askedQuestions(envelope).map(
    (question, index): EnvelopeBatchQuestion | TextQuestion =>
      question.options.length > 0
        ? choiceQuestionOf(question, index)
        : {
            id: questionIdAt(index),
            type: 'free-write',
            prompt: question.question,
            header: question.header,
          },
  );
  return { seq, source: ENVELOPE_BATCH_SOURCE, questions };
}
