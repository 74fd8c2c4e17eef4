// Org-mode partitioner: headlines, plain lists, #+BEGIN_SRC/EXAMPLE blocks, tables and paragraphs read
// line by line and rendered to HTML, then the HTML partitioner.
import type { FormatPartitioner } from '../types';
import { decodeText, escapeHtml } from './common';
import { htmlToElements } from './html';

function inline(text: string): string {
  const parts: string[] = [];
  const re = /\[\[([^\]]+)\](?:\[([^\]]+)\])?\]|~([^~\n]+)~|=([^=\n]+)=|(?<![\w*])\*([^*\n]+)\*(?![\w*])|(?<![\w/])\/([^/\n]+)\/(?![\w/])/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    parts.push(escapeHtml(text.slice(last, m.index)));
    if (m[1] !== undefined) parts.push(`<a href="${escapeHtml(m[1])}">${escapeHtml(m[2] ?? m[1])}</a>`);
    else if (m[3] !== undefined || m[4] !== undefined) parts.push(`<code>${escapeHtml(m[3] ?? m[4]!)}</code>`);
    else if (m[5] !== undefined) parts.push(`<b>${escapeHtml(m[5])}</b>`);
    else parts.push(`<i>${escapeHtml(m[6]!)}</i>`);
    last = m.index + m[0].length;
  }
  parts.push(escapeHtml(text.slice(last)));
  return parts.join('');
}

const indentOf = (l: string): number => l.length - l.trimStart().length;

/** A plain list's item: "- text", "+ text", "1. text", "2) text" (indented: nested). */
const ITEM = /^(\s*)([-+]|\d+[.)])\s+(.*)$/;
/** A drawer closes within this many lines, or its opening line is read as text. */
const MAX_DRAWER_LINES = 1000;

export function orgToHtml(src: string): string {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  // the lists open, outermost first: an item set in further than its list's items opens a list inside
  // the item before it (Org nests lists by indentation), one set in less closes the lists inside
  const lists: { indent: number; kind: 'ul' | 'ol' }[] = [];
  const closeInner = (): void => { out.push(`</li></${lists.pop()!.kind}>`); };
  const closeList = (): void => { while (lists.length) closeInner(); };
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const head = /^(\*+)\s+(.*)$/.exec(line);
    if (head) {
      closeList();
      const lv = Math.min(6, head[1]!.length);
      const title = head[2]!.replace(/\s+:[\w@#%:]+:\s*$/, '').replace(/^(TODO|DONE)\s+/, '');
      out.push(`<h${lv}>${inline(title)}</h${lv}>`);
      i++;
      continue;
    }
    // a drawer (:PROPERTIES: ... :END:, :LOGBOOK: ...) and a headline's planning line are metadata, not text
    if (/^\s*:[\w-]+:\s*$/.test(line) && !/^\s*:END:\s*$/i.test(line)) {
      let j = i + 1;
      while (j < lines.length && j - i <= MAX_DRAWER_LINES && !/^\s*:END:\s*$/i.test(lines[j]!)) j++;
      if (j < lines.length && /^\s*:END:\s*$/i.test(lines[j]!)) { i = j + 1; continue; }
    }
    if (/^\s*(?:(?:SCHEDULED|DEADLINE|CLOSED):\s*[<[][^>\]]*[>\]]\s*)+$/.test(line)) { i++; continue; }
    const block = /^\s*#\+begin_(\w+)/i.exec(line);
    if (block) {
      closeList();
      const kind = block[1]!.toLowerCase();
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^\s*#\+end_/i.test(lines[i]!)) body.push(lines[i++]!);
      i++;
      while (body.length && !body[0]!.trim()) body.shift();
      const d = body.reduce((m, l) => (l.trim() ? Math.min(m, indentOf(l)) : m), Infinity);
      const text = body.map((l) => l.slice(Number.isFinite(d) ? d : 0)).join('\n');
      if (kind === 'src' || kind === 'example') out.push(`<pre><code>${escapeHtml(text)}</code></pre>`);
      else if (kind === 'quote') out.push(`<blockquote><p>${inline(text)}</p></blockquote>`);
      else out.push(`<p>${inline(text)}</p>`);
      continue;
    }
    const kw = /^\s*#\+(\w+):\s*(.*)$/.exec(line);
    if (kw) {
      closeList();
      if (kw[1]!.toLowerCase() === 'title' && kw[2]) out.push(`<h1>${inline(kw[2])}</h1>`);
      else if (kw[1]!.toLowerCase() === 'caption' && kw[2]) out.push(`<p>${inline(kw[2])}</p>`);
      i++;
      continue;
    }
    if (/^\s*#(\s|$)/.test(line)) {
      i++;
      continue; // comment
    }
    if (/^\s*\|/.test(line)) {
      closeList();
      const rows: string[] = [];
      while (i < lines.length && /^\s*\|/.test(lines[i]!)) {
        const l = lines[i++]!.trim();
        if (/^\|[-+]+\|?$/.test(l)) continue;
        const cells = l.replace(/^\|/, '').replace(/\|$/, '').split('|');
        rows.push(`<tr>${cells.map((c) => `<td>${inline(c.trim())}</td>`).join('')}</tr>`);
      }
      out.push(`<table>${rows.join('')}</table>`);
      continue;
    }
    const item = ITEM.exec(line);
    if (item && !(item[1] === '' && item[2] === '*')) {
      const kind = /^[-+]$/.test(item[2]!) ? 'ul' : 'ol';
      const indent = item[1]!.length;
      while (lists.length && lists.at(-1)!.indent > indent) closeInner();
      if (lists.length && lists.at(-1)!.indent === indent && lists.at(-1)!.kind !== kind) closeInner();
      if (lists.length && lists.at(-1)!.indent === indent) out.push('</li>');
      else {
        out.push(`<${kind}>`);
        lists.push({ indent, kind });
      }
      const textIndent = line.length - item[3]!.length;
      const body = [item[3]!.replace(/^\[[ X-]\]\s*/, '')];
      i++;
      // the item's text runs on over lines set in under it, up to a nested item (an item of its own)
      while (i < lines.length && lines[i]!.trim() && indentOf(lines[i]!) >= textIndent && !ITEM.test(lines[i]!)) body.push(lines[i++]!.trim());
      out.push(`<li>${inline(body.join('\n'))}`);
      continue;
    }
    closeList();
    const para: string[] = [];
    while (
      i < lines.length && lines[i]!.trim() && !/^(\*+\s|\s*#\+|\s*\||\s*([-+]|\d+[.)])\s)/.test(lines[i]!)
    ) {
      para.push(lines[i++]!.trim());
    }
    if (!para.length) para.push(lines[i++]!.trim());
    out.push(`<p>${inline(para.join('\n'))}</p>`);
  }
  closeList();
  return out.join('\n');
}

export const partitionOrg: FormatPartitioner = async (data, ctx) =>
  htmlToElements(orgToHtml(decodeText(data, ctx.options.encoding)), { languages: ctx.options.languages });
