// Markdown partitioner: rendered to HTML with marked (GFM: tables, fenced code), then the HTML partitioner.
import { marked } from 'marked';
import type { FormatPartitioner } from '../types';
import { decodeText } from './common';
import { htmlToElements } from './html';

export function markdownToHtml(md: string): string {
  return marked.parse(md, { async: false, gfm: true }) as string;
}

export const partitionMarkdown: FormatPartitioner = async (data, ctx) =>
  htmlToElements(markdownToHtml(decodeText(data, ctx.options.encoding)), { languages: ctx.options.languages });
