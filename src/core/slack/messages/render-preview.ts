import type { KnownBlock, RichTextBlock } from '@slack/types';
import type { Preview } from '../../protocol/questions/question.js';
import {
  ACTION_KINDS,
  actionId,
  BLOCK_ROLES,
  type QuestionPlace,
  questionBlockId,
} from '../controls/ids.js';
import { actionsBlock, button, plainContext } from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { asCodeBlock, codeFenceFor } from '../text/code-block.js';
import { type DefusedMarkdown, defusedMarkdown } from '../text/defuse-markdown-links.js';
import { defuseMentions } from '../text/escape-mrkdwn.js';
import type { Cut } from '../text/markdown-cuts.js';
import { showControls } from '../text/show-controls.js';
import { softBreak } from '../text/text-cut.js';

/** A preview worth showing: one with some visible content. */
export const hasPreview = (preview: Preview | undefined): preview is Preview =>
  preview !== undefined && typeof preview.content === 'string' && preview.content.trim() !== '';

/**
 * ASCII art keeps its spacing in a preformatted rich-text element, which mobile shows whole;
 * its text is literal, so only control characters are written out.
 */
export function preformatted(text: string): RichTextBlock {
  return {
    type: 'rich_text',
    elements: [
      { type: 'rich_text_preformatted', elements: [{ type: 'text', text: showControls(text) }] },
    ],
  };
}

/**
 * A question's preview in at most `room` characters of content. A `markdown` preview goes in
 * Slack's standard-Markdown block, which does not read mrkdwn, so `<!channel>` in it stays
 * text, its links are rewritten to show where they go and its plain `@here`/`@name` defused
 * (code included: an invisible joiner is cheaper than a ping); an `ascii` one goes in a
 * preformatted rich-text element, whose text is always literal. A longer preview is shown up to the room,
 * then says where it was cut and offers the whole of it in a modal. Control characters are
 * written out first, so the room is measured on what is sent.
 */
export function renderPreview(place: QuestionPlace, preview: Preview, room: number): KnownBlock[] {
  if (!hasPreview(preview)) return [];
  const content = showControls(preview.content);
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
 * done at most twice. Rewriting makes the text longer; one that outgrows the limit is cut where
 * one of its blocks ends (what comes before reads as it did, so it needs no new parse), or, if
 * that would drop too much, cut shorter by what rewriting added and defused again. One that
 * outgrows the limit even then (its cut made new links) is shown as a code block, which holds
 * no link.
 */
export function fitMarkdown(
  content: string,
  limit: number,
  defuse: (markdown: string) => DefusedMarkdown = defusedMarkdown,
): Fitted {
  const first = content.length <= limit ? content.length : softBreak(content, Math.max(1, limit));
  const whole = defuse(content.slice(0, first));
  const wholeShown = defuseMentions(whole.markdown);
  if (wholeShown.length <= limit) return { shown: wholeShown, end: first };
  const between = longestBetweenBlocks(whole, limit);
  if (between !== undefined && between.shown.length >= CUT_KEEPS * limit) return between;
  // shorter by what rewriting added; when that leaves nothing (references wrote out long
  // destinations), shorter in proportion
  const grown = wholeShown.length - first;
  const fit = grown < limit ? limit - grown : Math.floor((first * limit) / wholeShown.length);
  const second = Math.min(first - 1, softBreak(content, fit));
  const secondShown = defuseMentions(defuse(content.slice(0, second)).markdown);
  if (secondShown.length <= limit) return { shown: secondShown, end: second };
  return codeBlockStart(content, limit);
}

/** A cut between blocks is taken if it keeps this much of the room, as `softBreak` does. */
const CUT_KEEPS = 0.6;

/** The longest start of defused Markdown that ends between blocks and fits `limit`. */
function longestBetweenBlocks({ markdown, cuts }: DefusedMarkdown, limit: number) {
  const shownAt = (cut: Cut) => defuseMentions(markdown.slice(0, cut.defused).trimEnd());
  // mentions only add to the text, so what is shown grows with the cut: halve the cuts
  let low = 0;
  let high = cuts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (shownAt(cuts[middle] as Cut).length <= limit) low = middle + 1;
    else high = middle;
  }
  const cut = cuts[low - 1];
  return cut === undefined ? undefined : { shown: shownAt(cut), end: cut.written };
}

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
