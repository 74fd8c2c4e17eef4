// Markdown partitioner: rendered to HTML with marked (GFM: tables, fenced code), then the HTML partitioner.
// marked's work grows much faster than the input with list nesting (800 nested list levels take
// seconds, 1,600 take most of a minute) and its blockquote parsing recurses per level (a stack
// overflow at a few thousand): a document nested beyond MAX_MARKDOWN_NESTING is read as plain text,
// with a warning, as deeply nested HTML is.
import { marked } from 'marked';
import type { FormatPartitioner } from '../types';
import { MAX_MARKDOWN_NESTING } from '../limits';
import { decodeText } from './common';
import { htmlToElements } from './html';
import { textToElements } from './text';

export function markdownToHtml(md: string): string {
  return marked.parse(md, { async: false, gfm: true }) as string;
}

/**
 * An upper bound on a line's nesting: its blockquote markers plus its indentation in list levels
 * (two columns each, the narrowest list indent marked accepts). One pass, no allocation per line.
 */
export function markdownNestingDepth(md: string, stopAbove: number): number {
  let max = 0;
  let i = 0;
  while (i < md.length) {
    let quotes = 0;
    let columns = 0;
    for (; i < md.length; i++) {
      const c = md.charCodeAt(i);
      if (c === 0x3e /* > */) quotes++;
      else if (c === 0x20) columns++;
      else if (c === 0x09) columns += 4;
      else break;
    }
    const depth = quotes + Math.floor(columns / 2);
    if (depth > max) {
      max = depth;
      if (max > stopAbove) return max;
    }
    const nl = md.indexOf('\n', i);
    i = nl < 0 ? md.length : nl + 1;
  }
  return max;
}

export const partitionMarkdown: FormatPartitioner = async (data, ctx) => {
  const md = decodeText(data, ctx.options.encoding);
  if (markdownNestingDepth(md, MAX_MARKDOWN_NESTING) > MAX_MARKDOWN_NESTING) {
    ctx.warn(`Markdown nested deeper than ${MAX_MARKDOWN_NESTING} levels (lists, blockquotes, indentation): read as plain text`);
    return textToElements(md, ctx.options.languages);
  }
  return htmlToElements(markdownToHtml(md), { warn: (m) => ctx.warn(m), languages: ctx.options.languages });
};
