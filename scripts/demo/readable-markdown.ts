import markdownit, { type Token } from 'markdown-it';

// Slack's markdown block reads GitHub's Markdown: strikethrough and tables too
const reader = markdownit('default', { html: false, linkify: false });

/** Inline Markdown as the words it shows: emphasis marks dropped, code kept in backticks. */
function inlineText(tokens: readonly Token[]): string {
  let text = '';
  const links: string[] = [];
  let linkStart = 0;
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'html_inline':
        text += token.content;
        break;
      case 'code_inline':
        text += `\`${token.content}\``;
        break;
      case 'softbreak':
      case 'hardbreak':
        text += '\n';
        break;
      case 'image':
        text += `[image: ${token.content}]`;
        break;
      case 'link_open':
        links.push(token.attrGet('href') ?? '');
        linkStart = text.length;
        break;
      case 'link_close': {
        const href = links.pop() ?? '';
        if (text.slice(linkStart) !== href) text += ` (${href})`;
        break;
      }
      // strong, em, s: the marks go, the words stay
    }
  }
  return text;
}

/**
 * A markdown block's text as a person reads it in Slack, as plain lines: headings, emphasis,
 * strikethrough and links without their marks (a link followed by where it goes), lists with
 * bullets or numbers, quotes with a bar, code fenced so its spacing shows, tables with their
 * cells between bars. A blank line between blocks.
 */
export function readableMarkdown(source: string): string[] {
  const lines: string[] = [];
  const lists: { ordered: boolean; next: number }[] = [];
  let quote = 0;
  let itemMark: string | undefined;
  let row: string[] | undefined;
  const indent = () => '   '.repeat(Math.max(0, lists.length - 1));
  const emit = (text: string, tight = false) => {
    const bar = '│ '.repeat(quote);
    if (!tight && lines.length > 0 && lists.length === 0 && row === undefined) lines.push('');
    text.split('\n').forEach((line, i) => {
      const lead = itemMark !== undefined && i === 0 ? itemMark : ' '.repeat(itemMark?.length ?? 0);
      lines.push(`${bar}${lists.length > 0 ? indent() : ''}${lead}${line}`.trimEnd());
    });
    itemMark = undefined;
  };
  for (const token of reader.parse(source, {})) {
    switch (token.type) {
      case 'bullet_list_open':
      case 'ordered_list_open':
        if (lists.length === 0 && lines.length > 0) lines.push('');
        lists.push({
          ordered: token.type === 'ordered_list_open',
          next: Number(token.attrGet('start') ?? 1),
        });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open': {
        const list = lists.at(-1);
        itemMark = list?.ordered ? `${list.next++}. ` : '• ';
        break;
      }
      case 'blockquote_open':
        quote += 1;
        break;
      case 'blockquote_close':
        quote -= 1;
        break;
      case 'table_open':
        if (lines.length > 0) lines.push('');
        break;
      case 'tr_open':
        row = [];
        break;
      case 'tr_close':
        emit(`| ${(row ?? []).join(' | ')} |`, true);
        row = undefined;
        break;
      case 'inline':
        if (row) row.push(inlineText(token.children ?? []));
        else emit(inlineText(token.children ?? []), lists.length > 0);
        break;
      case 'fence':
      case 'code_block':
        emit(['```', ...token.content.replace(/\n$/, '').split('\n'), '```'].join('\n'));
        break;
      case 'hr':
        emit('───');
        break;
    }
  }
  return lines;
}
