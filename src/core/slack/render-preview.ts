import type { KnownBlock, RichTextBlock } from '@slack/types';
import type { Preview } from '../protocol/question.js';
import { actionsBlock, button, plainContext } from './block-builders.js';
import { BLOCK_KIT_LIMITS } from './block-kit-limits.js';
import { asCodeBlock, codeFenceFor, defuseMarkdownLinks } from './defuse-markdown-links.js';
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
 * so turn the text it held into a live link. Defusing is the costly step of rendering, so it is
 * done at most twice: the first cut leaves room for what rewriting its inline links adds, and a
 * start that still grows past the limit (references write out their destinations) is cut
 * shorter by what rewriting added. One that grows past it even then (its cut made new links) is
 * shown as a code block, which holds no link.
 */
export function fitMarkdown(
  content: string,
  limit: number,
  defuse: (markdown: string) => string = defuseMarkdownLinks,
): Fitted {
  const shownOf = (end: number) => defuseMentions(defuse(content.slice(0, end)));
  const room = limit - likelyGrowth(content.slice(0, limit));
  const first = content.length <= room ? content.length : softBreak(content, Math.max(1, room));
  const firstShown = shownOf(first);
  if (firstShown.length <= limit) return { shown: firstShown, end: first };
  // shorter by what rewriting added; when that leaves nothing (references wrote out long
  // destinations), shorter in proportion
  const grown = firstShown.length - first;
  const fit = grown < limit ? limit - grown : Math.floor((first * limit) / firstShown.length);
  const second = Math.min(first - 1, softBreak(content, fit));
  const secondShown = shownOf(second);
  if (secondShown.length <= limit) return { shown: secondShown, end: second };
  return codeBlockStart(content, limit);
}

/**
 * What defusing is likely to add: `\[`, `\]` and a space to each inline link or image (less
 * its title, if any), and a joiner after each `@`.
 */
const likelyGrowth = (markdown: string): number =>
  3 * (markdown.split('](').length - 1) + (markdown.split('@').length - 1);

/** The longest start of `content` that fits `limit` as a fenced code block (mentions defused). */
function codeBlockStart(content: string, limit: number): Fitted {
  // the fence is longer than any run of backticks, each fence on its own line; every `@` may
  // gain a joiner
  const fences = 2 * (codeFenceFor(content.slice(0, limit)).length + 1);
  const room = Math.max(0, limit - fences);
  const ats = content.slice(0, room).split('@').length - 1;
  const end = softBreak(content, Math.max(0, room - ats));
  if (end === 0) return { shown: '', end };
  return { shown: defuseMentions(asCodeBlock(content.slice(0, end))), end };
}
