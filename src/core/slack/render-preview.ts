import type { KnownBlock, RichTextBlock } from '@slack/types';
import type { Preview } from '../protocol/question.js';
import { actionsBlock, button, plainContext } from './block-builders.js';
import { BLOCK_KIT_LIMITS } from './block-kit-limits.js';
import { defuseMarkdownLinks } from './defuse-markdown-links.js';
import { defuseMentions } from './escape-mrkdwn.js';
import { ACTION_KINDS, actionId, BLOCK_ROLES, type QuestionPlace, questionBlockId } from './ids.js';
import { softBreak } from './text-cut.js';

/** A preview worth showing: one with some visible content. */
export const hasPreview = (preview: Preview | undefined): preview is Preview =>
  preview !== undefined && typeof preview.content === 'string' && preview.content.trim() !== '';

/** ASCII art keeps its spacing in a preformatted rich-text element, which mobile shows whole. */
export function preformatted(text: string): RichTextBlock {
  return {
    type: 'rich_text',
    elements: [{ type: 'rich_text_preformatted', elements: [{ type: 'text', text }] }],
  };
}

/**
 * A question's preview in at most `room` characters of content. A `markdown` preview goes in
 * Slack's standard-Markdown block, which does not read mrkdwn, so `<!channel>` in it stays
 * text; its links are rewritten to `text (url)` and its plain `@here`/`@name` defused (code
 * included: an invisible joiner is cheaper than a ping); an `ascii` one goes in a
 * preformatted rich-text element, whose text is always literal. A longer preview is shown up to the room,
 * then says where it was cut and offers the whole of it in a modal.
 */
export function renderPreview(place: QuestionPlace, preview: Preview, room: number): KnownBlock[] {
  if (!hasPreview(preview)) return [];
  // links show where they go, so agent-chosen link text cannot pass for something else
  const content =
    preview.type === 'markdown'
      ? defuseMentions(defuseMarkdownLinks(preview.content))
      : preview.content;
  const limit = preview.type === 'markdown' ? Math.min(room, BLOCK_KIT_LIMITS.markdownText) : room;
  const end = content.length <= limit ? content.length : softBreak(content, Math.max(1, limit));
  const shown = content.slice(0, end);
  const blocks: KnownBlock[] = [
    preview.type === 'markdown' ? { type: 'markdown', text: shown } : preformatted(shown),
  ];
  if (end < content.length) {
    blocks.push(
      plainContext(`Preview cut at ${end} of ${content.length} characters.`),
      actionsBlock(
        questionBlockId(place.key, place.revision, place.questionIndex, BLOCK_ROLES.preview),
        [button('Show full preview', actionId(ACTION_KINDS.showPreview, place.questionIndex))],
      ),
    );
  }
  return blocks;
}
