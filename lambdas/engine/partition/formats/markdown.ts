// Markdown partitioner: rendered to HTML with marked (GFM: tables, fenced code), then the HTML partitioner.
// marked's work grows much faster than the input with list nesting (800 nested list levels take
// seconds, 1,600 take most of a minute) and its blockquote parsing recurses per level (a stack
// overflow at a few thousand): a document nested beyond MAX_MARKDOWN_NESTING is read as plain text,
// with a warning, as deeply nested HTML is.
import { marked } from 'marked';
import type { FormatPartitioner } from '../types';
import { MAX_MARKDOWN_NESTING } from '../limits';
import { decodeText, escapeHtml } from './common';
import { htmlToElements } from './html';
import { textToElements } from './text';

/**
 * A metadata block opening the file: YAML between "---" lines (static-site generators, docs sites and
 * note apps write it), TOML between "+++" lines; its first line a key. CommonMark knows no such block and
 * reads "---", key lines, "---" as a rule and a setext heading holding every key: a fake first heading.
 * Returns the block's lines and where the Markdown after it starts.
 */
export function frontMatter(md: string): { lines: string[]; end: number } | undefined {
  const open = /^\uFEFF?(---|\+\+\+)[ \t]*\r?\n/.exec(md);
  if (!open) return undefined;
  const fence = open[1]!;
  const key = fence === '---' ? /^[A-Za-z_][\w.-]*[ \t]*:/ : /^[A-Za-z_][\w.-]*[ \t]*=|^\[/;
  const lines: string[] = [];
  let at = open[0].length;
  while (at < md.length) {
    const nl = md.indexOf('\n', at);
    const next = nl < 0 ? md.length : nl + 1;
    const line = md.slice(at, nl < 0 ? md.length : nl).replace(/\r$/, '');
    if (!lines.length && !key.test(line)) return undefined;
    if (line.trimEnd() === fence || (fence === '---' && line.trimEnd() === '...')) return { lines: lines.map((l) => l.trim()).filter(Boolean), end: next };
    lines.push(line);
    at = next;
  }
  return undefined;
}

/** The front matter's lines as one paragraph (its text is kept: a title, a description), the rest as Markdown. */
export function markdownToHtml(md: string): string {
  const front = frontMatter(md);
  const html = marked.parse(front ? md.slice(front.end) : md, { async: false, gfm: true }) as string;
  return front?.lines.length ? `<p>${front.lines.map(escapeHtml).join('<br>')}</p>\n${html}` : html;
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
