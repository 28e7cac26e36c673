import type { webApi } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { Logger } from 'pino';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import type { BatchView } from '../../core/slack/layout/batch-view.js';
import { showControls } from '../../core/slack/text/show-controls.js';
import { type FullPreviewAt, renderPreviewModal } from '../../core/slack/views/render-modals.js';
import type { ModalSeal } from '../access/modal-seal.js';
import { describeSlackError } from './slack-errors.js';
import { readPresentation } from './slack-presentation.js';

type WebClient = webApi.WebClient;

/** Opens a modal with the interaction's trigger; resolves to the view's id and hash, if opened. */
export type OpenModal = (modal: ModalView) => Promise<{ id: string; hash: string } | undefined>;

/**
 * The "Show full preview" modal. A preview too long for any modal (100 blocks, 250 kB) is
 * attached whole to the batch's thread as a file (`files.uploadV2`), once per version of the
 * batch, and the modal, opened at once with what fits, is updated with a link to it.
 */
export function createFullPreviews(deps: { client: WebClient; seal: ModalSeal; log: Logger }) {
  const { client, seal, log } = deps;
  /** links to attached previews, and attachments under way, by batch version and question */
  const attached = new Map<string, Promise<FullPreviewAt>>();

  async function attach(record: BatchRecord, view: BatchView, questionId: string) {
    const shown = readPresentation(record.presentation);
    const index = view.questions.findIndex((q) => q.id === questionId);
    const preview = view.questions[index]?.preview;
    if (!shown?.ts || !preview)
      return { kind: 'failed', reason: 'the batch has no message yet' } as const;
    try {
      await client.filesUploadV2({
        channel_id: shown.channel,
        thread_ts: shown.ts,
        // shown in Slack's file viewer: the same rule as every other text the relay sends
        content: showControls(preview.content),
        filename: `batch-${view.seq}-question-${index + 1}-preview.${preview.type === 'markdown' ? 'md' : 'txt'}`,
        title: `Preview of question ${index + 1}`,
        initial_comment: `The whole preview of question ${index + 1}, too long for a form.`,
      });
      const permalink = await client.chat.getPermalink({
        channel: shown.channel,
        message_ts: shown.ts,
      });
      if (!permalink.permalink) throw new Error('chat.getPermalink returned no link');
      return { kind: 'attached', link: permalink.permalink } as const;
    } catch (err) {
      log.warn(
        { err, key: record.key, questionId },
        'could not attach the whole preview to the thread',
      );
      return { kind: 'failed', reason: describeSlackError(err) } as const;
    }
  }

  return {
    /** Opens the preview modal for a question; attaches and links the whole preview when cut. */
    async show(input: {
      record: BatchRecord;
      view: BatchView;
      questionId: string;
      open: OpenModal;
    }): Promise<void> {
      const { record, view, questionId } = input;
      const request = { view, questionId };
      const id = `${record.key}|${view.revision}|${questionId}`;
      const known = attached.get(id);
      const first = renderPreviewModal(request, known ? await known : { kind: 'attaching' });
      const opened = await input.open(first.modal);
      if (!first.cut || known) return;
      const attaching = attach(record, view, questionId);
      attached.set(id, attaching);
      const fullAt = await attaching;
      if (fullAt.kind === 'failed') attached.delete(id); // the next click tries again
      if (!opened) return;
      try {
        await client.views.update({
          view_id: opened.id,
          hash: opened.hash,
          view: seal.seal(renderPreviewModal(request, fullAt).modal) as never,
        });
      } catch (err) {
        // closed or changed meanwhile: the next click shows the link
        log.debug({ err, key: record.key, questionId }, 'could not update the preview modal');
      }
    },
  };
}

export type FullPreviews = ReturnType<typeof createFullPreviews>;
