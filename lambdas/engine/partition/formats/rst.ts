// reStructuredText partitioner: a line-based reader for the common constructs (section titles with
// under/overlines, bullet and enumerated lists, literal blocks and code directives, simple and grid-less
// paragraphs, inline links/emphasis) rendered to HTML, then the HTML partitioner.
import type { FormatPartitioner } from '../types';
import { decodeText, escapeHtml } from './common';
import { htmlToElements } from './html';

const ADORNMENT = /^([!-\/:-@\[-`{-~])\1{2,}\s*$/;

function inline(text: string): string {
  const parts: string[] = [];
  const re = /``(.+?)``|`([^`<]+?)\s*<([^>]+)>`__?|\*\*(.+?)\*\*|\*(.+?)\*|:[\w-]+:`(.+?)`|`(.+?)`_?/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    parts.push(escapeHtml(text.slice(last, m.index)));
    if (m[1] !== undefined) parts.push(`<code>${escapeHtml(m[1])}</code>`);
    else if (m[2] !== undefined) parts.push(`<a href="${escapeHtml(m[3]!)}">${escapeHtml(m[2])}</a>`);
    else if (m[4] !== undefined) parts.push(`<strong>${escapeHtml(m[4])}</strong>`);
    else if (m[5] !== undefined) parts.push(`<em>${escapeHtml(m[5])}</em>`);
    else parts.push(escapeHtml(m[6] ?? m[7] ?? ''));
    last = m.index + m[0].length;
  }
  parts.push(escapeHtml(text.slice(last)));
  return parts.join('');
}

const indentOf = (l: string): number => l.length - l.trimStart().length;

export function rstToHtml(src: string): string {
  const lines = src.replace(/\r\n?/g, '\n').replace(/\t/g, '        ').split('\n');
  const styles: string[] = [];
  const out: string[] = [];
  let i = 0;
  const level = (style: string): number => {
    let idx = styles.indexOf(style);
    if (idx < 0) idx = styles.push(style) - 1;
    return Math.min(6, idx + 1);
  };
  /** Indented block starting at i (after blank lines), returned dedented. */
  const indentedBlock = (minIndent: number): string[] => {
    const block: string[] = [];
    while (i < lines.length && (lines[i]!.trim() === '' || indentOf(lines[i]!) > minIndent)) block.push(lines[i++]!);
    while (block.length && block[block.length - 1]!.trim() === '') block.pop();
    while (block.length && block[0]!.trim() === '') block.shift();
    const d = Math.min(...block.filter((l) => l.trim()).map(indentOf));
    return block.map((l) => l.slice(Number.isFinite(d) ? d : 0));
  };
  let listOpen: 'ul' | 'ol' | null = null;
  const closeList = (): void => {
    if (listOpen) out.push(`</${listOpen}>`);
    listOpen = null;
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const next = lines[i + 1] ?? '';
    if (line.trim() === '') {
      i++;
      continue;
    }
    // overline + title + underline
    if (ADORNMENT.test(line) && lines[i + 2] !== undefined && ADORNMENT.test(lines[i + 2]!) && next.trim()) {
      closeList();
      const lv = level('o' + line.trim()[0]);
      out.push(`<h${lv}>${inline(next.trim())}</h${lv}>`);
      i += 3;
      continue;
    }
    if (indentOf(line) === 0 && ADORNMENT.test(next) && next.trim().length >= Math.min(line.trim().length, 3)) {
      closeList();
      const lv = level('u' + next.trim()[0]);
      out.push(`<h${lv}>${inline(line.trim())}</h${lv}>`);
      i += 2;
      continue;
    }
    if (ADORNMENT.test(line)) {
      i++;
      continue; // transition
    }
    const directive = /^\.\.\s+(code|code-block|sourcecode|highlight)::\s*(\S*)/.exec(line);
    if (directive) {
      closeList();
      i++;
      while (i < lines.length && /^\s+:\w[\w-]*:/.test(lines[i]!)) i++;
      const block = indentedBlock(indentOf(line));
      out.push(`<pre><code>${escapeHtml(block.join('\n'))}</code></pre>`);
      continue;
    }
    if (/^\.\.\s/.test(line) || line.trim() === '..') {
      // comment or other directive: skip it and its indented body
      i++;
      indentedBlock(indentOf(line));
      continue;
    }
    const bullet = /^(\s*)([-*+\u2022]|\d+[.)]|#\.|[a-zA-Z][.)])\s+(.*)$/.exec(line);
    if (bullet) {
      const kind = /^[-*+\u2022]$/.test(bullet[2]!) ? 'ul' : 'ol';
      if (listOpen !== kind) {
        closeList();
        out.push(`<${kind}>`);
        listOpen = kind;
      }
      const textIndent = line.length - bullet[3]!.length;
      const body = [bullet[3]!];
      i++;
      while (i < lines.length && lines[i]!.trim() && indentOf(lines[i]!) >= textIndent) body.push(lines[i++]!.trim());
      out.push(`<li>${inline(body.join('\n'))}</li>`);
      continue;
    }
    closeList();
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !(para.length && ADORNMENT.test(lines[i]!))) para.push(lines[i++]!.trim());
    let text = para.join('\n');
    let literal = false;
    if (text.endsWith('::')) {
      literal = true;
      text = text.endsWith(' ::') ? text.slice(0, -3) : text.slice(0, -1);
    }
    if (text.trim()) out.push(`<p>${inline(text)}</p>`);
    if (literal) {
      const block = indentedBlock(0);
      if (block.length) out.push(`<pre><code>${escapeHtml(block.join('\n'))}</code></pre>`);
    }
  }
  closeList();
  return out.join('\n');
}

export const partitionRst: FormatPartitioner = async (data, ctx) =>
  htmlToElements(rstToHtml(decodeText(data, ctx.options.encoding)));
