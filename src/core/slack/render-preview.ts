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
 * text, its links are rewritten to show where they go and its plain `@here`/`@name` defused
 * (code included: an invisible joiner is cheaper than a ping); an `ascii` one goes in a
 * preformatted rich-text element, whose text is always literal. A longer preview is shown up to the room,
 * then says where it was cut and offers the whole of it in a modal.
 */
export function renderPreview(place: QuestionPlace, preview: Preview, room: number): KnownBlock[] {
  if (!hasPreview(preview)) return [];
  const { content } = preview;
  const { shown, end } =
    preview.type === 'markdown'
      ? fitMarkdown(content, Math.min(room, BLOCK_KIT_LIMITS.markdownText))
      : fitAscii(content, room);
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

/** What is shown of a preview, and where in its content that ends. */
interface Fitted {
  shown: string;
  end: number;
}

function fitAscii(content: string, limit: number): Fitted {
  const end = content.length <= limit ? content.length : softBreak(content, Math.max(1, limit));
  return { shown: content.slice(0, end), end };
}

/**
 * The start of a markdown preview that fits `limit` once its links are defused. The part shown
 * is defused on its own: Slack renders only that part, and a cut can end a code span early and
 * so turn the text it held into a live link. Rewriting changes the length, so a start that
 * grows past the limit is cut shorter.
 */
function fitMarkdown(content: string, limit: number): Fitted {
  let end = content.length <= limit ? content.length : softBreak(content, Math.max(1, limit));
  for (;;) {
    const shown = defuseMentions(defuseMarkdownLinks(content.slice(0, end)));
    if (shown.length <= limit || end === 0) return { shown, end };
    // strictly shorter each time, so this ends
    end = Math.min(end - 1, softBreak(content, Math.max(0, end - (shown.length - limit))));
  }
}
