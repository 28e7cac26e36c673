import type { BlockAction } from '@slack/bolt';
import type { Logger } from 'pino';
import { snoozed } from '../../core/batch/batch-changes.js';
import { revisionOf } from '../../core/batch/batch-key.js';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { idRecord } from '../../core/protocol/questions/id-record.js';
import type { Answer, Question, QuestionBatch } from '../../core/protocol/questions/question.js';
import { type DecodedAction, draftsFromState } from '../../core/slack/controls/decode-action.js';
import { CLAIM_VALUES } from '../../core/slack/controls/ids.js';
import { toBatchView } from '../../core/slack/layout/to-batch-view.js';
import { describeMissing } from '../../core/slack/messages/missing-answers.js';
import { describeMissingText } from '../../core/slack/messages/missing-text.js';
import { NOTHING_TO_SNOOZE, SNOOZED } from '../../core/slack/messages/render-team.js';
import {
  explainCancel,
  explainClaimedByOther,
  explainRefusal,
  explainSubmit,
  explainUndo,
} from '../../core/slack/outcome-text.js';
import { renderHandOffModal } from '../../core/slack/views/render-hand-off-modal.js';
import { renderFreeWriteModal, renderOptionsModal } from '../../core/slack/views/render-modals.js';
import { renderNoteModal } from '../../core/slack/views/render-note-modal.js';
import type { BatchActions } from '../../queue/actions/batch-actions.js';
import type { ModalSeal } from '../access/modal-seal.js';
import { followUpModal, followUpModalForChoice } from '../presenting/follow-up-form.js';
import type { FullPreviews, OpenModal } from '../presenting/full-preview.js';
import { iterationOfMessage, readPresentation } from '../presenting/slack-presentation.js';
import type { ActionPlace } from '../presenting/tell-user.js';
import type { ActionSource } from '../transport/interaction-payload.js';

/**
 * What every control on a batch message does, one entry per decoded kind in `CONTROLS`: the
 * block actions listener (`block-actions.ts`) acknowledges, binds, checks and decodes a click,
 * then hands it here. A new control is its id (`core/slack/controls/ids.ts`), its render, its entry
 * here and its pure change (`core/batch`), and what it records, if the record has no field for
 * it yet, in `core/batch/batch-record.ts` (ARCHITECTURE.md, "Adding a control").
 */

/** What the controls need. */
export interface ControlDeps {
  actions: BatchActions;
  log: Logger;
  seal: ModalSeal;
  fullPreviews: FullPreviews;
  /** the clock deadlines are set and checked against, for a control that sets one */
  now: () => Date;
}

/** One click on an open batch, decoded, with what its handler needs. */
export interface Click {
  record: BatchRecord;
  batch: QuestionBatch | undefined;
  questions: readonly Question[];
  body: BlockAction;
  /** the message (or form) the click came from; the batch's own, as checked */
  source: ActionSource | undefined;
  place: ActionPlace;
  /** tells the person who clicked, privately */
  tell: (text: string) => Promise<void>;
  open: OpenModal;
  log: Logger;
}

/** What one control does with a click on it. */
type Handler<K extends DecodedAction['kind']> = (
  click: Click,
  action: Extract<DecodedAction, { kind: K }>,
  deps: ControlDeps,
) => Promise<void>;

/** A control's entry: its handler, and which batches it acts on. */
export interface Control<K extends DecodedAction['kind']> {
  handle(
    click: Click,
    action: Extract<DecodedAction, { kind: K }>,
    deps: ControlDeps,
  ): Promise<void>;
  /**
   * It acts on the batch's record alone (the team controls): it works while the batch's
   * questions cannot be read, and is refused while the batch is being submitted. Any other
   * control needs the questions, and goes on to the queue while the batch is being submitted
   * (which waits for that and tells the real outcome).
   */
  recordOnly?: true;
  /** It acts on a held decision alone (Undo), and is refused on an open batch as on any other. */
  whileHeld?: true;
}

/** The text forms a click opens at once. */
const openForm: Handler<'openFreeWrite' | 'showOptions'> = async (click, action) => {
  const view = toBatchView(click.record, { batch: click.batch });
  const render = action.kind === 'openFreeWrite' ? renderFreeWriteModal : renderOptionsModal;
  await click.open(render({ view, questionId: action.questionId }));
};

/** The whole preview; one too long for any form is attached to the thread as well. */
const showPreview: Handler<'showPreview'> = async (click, action, deps) => {
  const view = toBatchView(click.record, { batch: click.batch });
  const { record, open } = click;
  await deps.fullPreviews.show({ record, view, questionId: action.questionId, open });
};

/** The form for the text an envelope question's choice asks for. */
const openFollowUp: Handler<'openFollowUp'> = async (click, action) => {
  const answer = click.record.drafts[action.questionId];
  await click.open(followUpModal(click, { questionId: action.questionId, answer }));
};

/** A one-tap answer that takes a note: its form, whose submit gives the answer (3 s trigger). */
const openNote: Handler<'openNote'> = async (click, action) => {
  const view = toBatchView(click.record, { batch: click.batch });
  await click.open(renderNoteModal({ view, questionId: action.questionId, answer: action.answer }));
};

/** Cancel on an envelope batch. */
const cancel: Handler<'cancel'> = async (click, action, deps) => {
  const outcome = await deps.actions.cancel(action.key, {
    revision: action.revision,
    by: click.place.user,
  });
  if (outcome.kind === 'cancelled') click.log.info('batch cancelled');
  else await click.tell(explainCancel(outcome));
};

/** A choice: saved at once. Choices that ask for text open their form first (3 s trigger). */
const saveChoice: Handler<'draft'> = async (click, action, deps) => {
  const modal = followUpModalForChoice(click, action);
  if (modal) await click.open(modal);
  const outcome = await deps.actions.saveDraft(action.key, {
    revision: action.revision,
    questionId: action.questionId,
    answer: action.answer,
  });
  if (outcome.kind !== 'saved') await click.tell(explainRefusal(outcome));
};

/** Submit, or a one-tap answer: the saved choices are written. */
const submit: Handler<'submit' | 'oneTap'> = async (click, action, deps) => {
  const tapped =
    action.kind === 'oneTap' ? { questionId: action.questionId, answer: action.answer } : undefined;
  const unsaved = unsavedChoices(click);
  const outcome = await deps.actions.submit(action.key, {
    revision: action.revision,
    by: click.place.user,
    unsaved,
    ...(tapped ? { tapped } : {}),
  });
  switch (outcome.kind) {
    case 'answered':
      click.log.info('batch answered');
      return;
    case 'held':
      click.log.info({ until: outcome.record.held?.until }, 'batch answered, held for Undo');
      return;
    case 'incomplete':
      await click.tell(describeMissing(click.questions, outcome.missing));
      return;
    case 'needs-text': {
      const drafts = idRecord([...unsaved, ...Object.entries(click.record.drafts)]);
      await click.tell(describeMissingText(click.questions, drafts, outcome.questionIds));
      return;
    }
    default:
      await click.tell(explainSubmit(outcome));
  }
};

/** "Hand off": the form to pick the teammate in (3 s trigger). */
const openHandOff: Handler<'handOff'> = async (click, action) => {
  const title = click.batch?.questions[0]?.prompt ?? `Batch ${click.record.seq}`;
  await click.open(renderHandOffModal({ key: action.key, revision: action.revision, title }));
};

/** "I'm on it", or "Release": who is answering the batch. */
const claim: Handler<'claim'> = async (click, action, deps) => {
  const release = action.value === CLAIM_VALUES.release;
  const outcome = await deps.actions.claim(action.key, {
    revision: action.revision,
    user: click.place.user,
    release,
  });
  if (outcome.kind === 'claimed-by-other') await click.tell(explainClaimedByOther(release));
  else if (outcome.kind !== 'saved') await click.tell(explainRefusal(outcome));
  else click.log.info(release ? 'batch released' : 'batch claimed');
};

/**
 * "Snooze": the next reminder put off an hour from the press; everyone sees its line move. A
 * reminder already due later than that stays where it is. Decided on the record as stored,
 * which may have moved on since the click was checked (the last reminder sent, say).
 */
const snooze: Handler<'snooze'> = async (click, action, deps) => {
  const at = deps.now();
  let next: string | undefined;
  await deps.actions.amendOpen(action.key, (record) => {
    const later = snoozed(record, at);
    next = later?.nextReminderAt;
    return later;
  });
  if (next === undefined) return click.tell(NOTHING_TO_SNOOZE);
  click.log.info({ until: next }, 'reminders snoozed');
  await click.tell(SNOOZED);
};

/**
 * "Undo": a held decision put back before its answer file is written, by the person who made
 * it; the batch is open again, as it was before, for everyone.
 */
const undo: Handler<'undo'> = async (click, action, deps) => {
  const outcome = await deps.actions.undo(action.key, { by: click.place.user });
  if (outcome.kind === 'undone') click.log.info('held answer undone');
  else await click.tell(explainUndo(outcome));
};

/** What each kind of click does: one entry per control, as `decodeAction` names it. */
export const CONTROLS: { [K in DecodedAction['kind']]: Control<K> } = {
  draft: { handle: saveChoice },
  oneTap: { handle: submit },
  openFreeWrite: { handle: openForm },
  openFollowUp: { handle: openFollowUp },
  openNote: { handle: openNote },
  showPreview: { handle: showPreview },
  showOptions: { handle: openForm },
  submit: { handle: submit },
  cancel: { handle: cancel },
  handOff: { handle: openHandOff, recordOnly: true },
  claim: { handle: claim, recordOnly: true },
  snooze: { handle: snooze, recordOnly: true },
  undo: { handle: undo, whileHeld: true },
};

/**
 * The choices the clicked message reports that the relay may not have yet (a lost action):
 * only from the batch's blocks in the version of the message the relay sent last. An older
 * version on a screen that has not caught up may still show someone's earlier pick.
 */
function unsavedChoices({ record, body, source, questions }: Click): Map<string, Answer> {
  if (source?.kind !== 'message') return new Map();
  const iteration = iterationOfMessage(readPresentation(record.presentation), source);
  if (iteration === undefined) return new Map();
  const current = { key: record.key, revision: revisionOf(record.fingerprint), iteration };
  return draftsFromState(body.state?.values ?? {}, questions, current);
}
