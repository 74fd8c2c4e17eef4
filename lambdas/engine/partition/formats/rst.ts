// reStructuredText partitioner: a line-based reader for the common constructs (section titles with
// under/overlines, bullet and enumerated lists, literal blocks and code directives, simple and grid-less
// paragraphs, inline links/emphasis, footnotes and citations read out after the text as a writer sets
// them) rendered to HTML, then the HTML partitioner.
import type { FormatPartitioner } from '../types';
import { decodeText, escapeHtml } from './common';
import { htmlToElements } from './html';

const ADORNMENT = /^([!-\/:-@\[-`{-~])\1{2,}\s*$/;

/**
 * A footnote or citation reference ("[1]_", "[#]_", "[#note]_", "[*]_", "[CIT2002]_") with the
 * space before it: the note's text is read where the notes are (the document's end), not in the
 * sentence.
 */
const NOTE_REFERENCE = /\s*\[(?:\d+|#[\w-]*|\*|[A-Za-z][\w.-]*)\]_(?![\w])/g;
/** A footnote or citation: ".. [1] text", its body set in under it. */
const NOTE = /^\.\.\s+\[(?:\d+|#[\w-]*|\*|[A-Za-z][\w.-]*)\](?:\s+(.*))?$/;

function inline(text: string): string {
  const plain = (t: string): string => escapeHtml(t.replace(NOTE_REFERENCE, ''));
  const parts: string[] = [];
  const re = /``(.+?)``|`([^`<]+?)\s*<([^>]+)>`__?|\*\*(.+?)\*\*|\*(.+?)\*|:[\w-]+:`(.+?)`|`(.+?)`_?/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    parts.push(plain(text.slice(last, m.index)));
    if (m[1] !== undefined) parts.push(`<code>${escapeHtml(m[1])}</code>`);
    else if (m[2] !== undefined) parts.push(`<a href="${escapeHtml(m[3]!)}">${escapeHtml(m[2])}</a>`);
    else if (m[4] !== undefined) parts.push(`<strong>${escapeHtml(m[4])}</strong>`);
    else if (m[5] !== undefined) parts.push(`<em>${escapeHtml(m[5])}</em>`);
    else parts.push(escapeHtml(m[6] ?? m[7] ?? ''));
    last = m.index + m[0].length;
  }
  parts.push(plain(text.slice(last)));
  return parts.join('');
}

const indentOf = (l: string): number => l.length - l.trimStart().length;

const GRID_BORDER = /^\s*\+([-=]+\+)+\s*$/;
const SIMPLE_BORDER = /^\s*=+( +=+)+\s*$/;

function tableHtml(rows: string[][]): string {
  return `<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</table>`;
}

/** Grid table (+---+---+ borders): cells between the column boundaries of the first border. */
function gridTable(lines: string[]): string {
  const border = lines[0]!;
  const cuts: number[] = [];
  for (let k = 0; k < border.length; k++) if (border[k] === '+') cuts.push(k);
  const rows: string[][] = [];
  let cur: string[][] | undefined;
  for (const l of lines.slice(1)) {
    if (GRID_BORDER.test(l)) {
      if (cur) rows.push(cur.map((parts) => parts.join(' ').trim()));
      cur = undefined;
      continue;
    }
    cur ??= cuts.slice(1).map(() => []);
    for (let c = 0; c + 1 < cuts.length; c++) {
      const text = l.slice(cuts[c]! + 1, cuts[c + 1]).replace(/\|/g, ' ').trim();
      if (text) cur[c]!.push(text);
    }
  }
  if (cur) rows.push(cur.map((parts) => parts.join(' ').trim()));
  return tableHtml(rows);
}

/** Simple table (==== ==== borders): columns from the runs of '=' of the first border. */
function simpleTable(lines: string[]): string {
  const starts: number[] = [];
  const border = lines[0]!;
  for (let k = 0; k < border.length; k++) if (border[k] === '=' && (k === 0 || border[k - 1] === ' ')) starts.push(k);
  const rows: string[][] = [];
  for (const l of lines.slice(1)) {
    if (SIMPLE_BORDER.test(l) || /^\s*-+( +-+)*\s*$/.test(l) || !l.trim()) continue;
    rows.push(starts.map((st, c) => l.slice(st, c + 1 < starts.length ? starts[c + 1] : undefined).trim()));
  }
  return tableHtml(rows);
}

/** Directives whose title and body are text of the document (admonitions, tables, figures' captions, quotes). */
const CONTENT_DIRECTIVES = new Set([
  'table', 'csv-table', 'list-table', 'note', 'warning', 'tip', 'hint', 'important', 'attention', 'caution',
  'danger', 'error', 'admonition', 'topic', 'sidebar', 'rubric', 'container', 'epigraph', 'highlights',
  'pull-quote', 'compound', 'figure', 'image', 'seealso', 'versionadded', 'versionchanged', 'deprecated',
]);
/** Directives whose argument is a file, not text: only their body (a figure's caption) is read. */
const MEDIA_DIRECTIVES = new Set(['figure', 'image']);
/** Directives nested in directives read at most this deep (a note in a note...). */
const MAX_DIRECTIVE_DEPTH = 8;

/** A csv-table's body: comma-separated cells, double-quoted where they hold commas. */
function csvRows(block: string[]): string[][] {
  return block.filter((l) => l.trim()).map((l) => {
    const cells: string[] = [];
    const re = /\s*(?:"((?:[^"]|"")*)"|([^,]*))\s*(?:,|$)/gy;
    let m: RegExpExecArray | null;
    while (re.lastIndex < l.length && (m = re.exec(l)) !== null) {
      cells.push((m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2] ?? '').trim());
      if (m[0] === '') break;
    }
    return cells;
  });
}

/** A list-table's body: a bullet list of rows, each a bullet list of cells. */
function listTableRows(block: string[]): string[][] {
  const rows: string[][] = [];
  for (const l of block) {
    const m = /^(\s*)[-*+]\s+(?:[-*+]\s+)?(.*)$/.exec(l);
    if (m && m[1]!.length === 0) rows.push(/^\s*[-*+]\s+[-*+]\s+/.test(l) ? [m[2]!.trim()] : []);
    else if (m && rows.length) rows[rows.length - 1]!.push(m[2]!.trim());
    else if (l.trim() && rows.length) {
      const row = rows[rows.length - 1]!;
      if (row.length) row[row.length - 1] = `${row[row.length - 1]} ${l.trim()}`;
    }
  }
  return rows;
}

export function rstToHtml(src: string, depth = 0): string {
  const lines = src.replace(/\r\n?/g, '\n').replace(/\t/g, '        ').split('\n');
  const styles: string[] = [];
  const out: string[] = [];
  /** Footnotes and citations, read out after the text. */
  const notes: string[] = [];
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
    const d = block.reduce((m, l) => (l.trim() ? Math.min(m, indentOf(l)) : m), Infinity);
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
    if (GRID_BORDER.test(line) || SIMPLE_BORDER.test(line)) {
      closeList();
      const grid = GRID_BORDER.test(line);
      const block: string[] = [];
      let borders = 0;
      while (i < lines.length && lines[i]!.trim()) {
        if (!grid && SIMPLE_BORDER.test(lines[i]!) && ++borders === 3) {
          block.push(lines[i++]!);
          break;
        }
        block.push(lines[i++]!);
      }
      out.push(grid ? gridTable(block) : simpleTable(block));
      continue;
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
    const other = /^\.\.\s+([\w-]+)::\s*(.*)$/.exec(line);
    if (other && CONTENT_DIRECTIVES.has(other[1]!.toLowerCase())) {
      // a directive whose body is the document's text (a table with its caption, a note, a figure's
      // caption): its options skipped, its title and body read as any other text
      closeList();
      const name = other[1]!.toLowerCase();
      i++;
      while (i < lines.length && /^\s+:\w[\w-]*:/.test(lines[i]!)) i++;
      const block = indentedBlock(indentOf(line));
      const title = other[2]!.trim();
      if (name === 'csv-table' || name === 'list-table') {
        if (title) out.push(`<p>${inline(title)}</p>`);
        out.push(tableHtml(name === 'csv-table' ? csvRows(block) : listTableRows(block)));
      } else {
        if (title && !MEDIA_DIRECTIVES.has(name)) out.push(`<p>${inline(title)}</p>`);
        if (block.length && depth < MAX_DIRECTIVE_DEPTH) out.push(rstToHtml(block.join('\n'), depth + 1));
      }
      continue;
    }
    const note = NOTE.exec(line);
    if (note) {
      // a footnote or citation: its text goes to the notes at the document's end (as a writer sets them)
      i++;
      const block = indentedBlock(indentOf(line));
      const body = [note[1] ?? '', ...block].filter((l) => l.trim()).join('\n');
      if (body.trim()) notes.push(depth < MAX_DIRECTIVE_DEPTH ? rstToHtml(body, depth + 1) : `<p>${escapeHtml(body)}</p>`);
      continue;
    }
    // an empty comment ("..", a blank line after it) ends what comes before it and takes nothing
    // after: text set in under it past the blank line is a block quote
    if (line.trim() === '..' && !next.trim()) {
      i++;
      continue;
    }
    if (/^\.\.\s/.test(line) || line.trim() === '..') {
      // a comment, or a directive without text of the document (contents, meta, raw, include...): skipped with its indented body
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
      // what is set in under the item's text after a blank line (a nested list, a second paragraph) is the item's
      let k = i;
      while (k < lines.length && !lines[k]!.trim()) k++;
      let nested = '';
      if (k > i && k < lines.length && indentOf(lines[k]!) >= textIndent) {
        i = k;
        const block = indentedBlock(textIndent - 1).join('\n');
        nested = depth < MAX_DIRECTIVE_DEPTH ? rstToHtml(block, depth + 1) : `<p>${escapeHtml(block)}</p>`;
      }
      out.push(`<li>${inline(body.join('\n'))}${nested}</li>`);
      continue;
    }
    closeList();
    // a definition list: a term, its definition set in under it on the next line
    if (next.trim() && indentOf(next) > indentOf(line) && !/::\s*$/.test(line)) {
      const items: string[] = [];
      while (i < lines.length && lines[i]!.trim() && indentOf(lines[i + 1] ?? '') > indentOf(lines[i]!) && lines[i + 1]!.trim()) {
        const term = lines[i++]!.trim();
        const def = indentedBlock(indentOf(lines[i - 1]!));
        items.push(`<dt>${inline(term)}</dt><dd>${depth < MAX_DIRECTIVE_DEPTH ? rstToHtml(def.join('\n'), depth + 1) : escapeHtml(def.join(' '))}</dd>`);
        while (i < lines.length && !lines[i]!.trim()) i++;
      }
      out.push(`<dl>${items.join('')}</dl>`);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !(para.length && ADORNMENT.test(lines[i]!))) para.push(lines[i++]!.trim());
    let text = para.join('\n');
    let literal = false;
    if (text.endsWith('::')) {
      literal = true;
      // "::" alone introduces the block and leaves no text; "text ::" leaves "text"; "text::" leaves "text:"
      text = text.trim() === '::' ? '' : text.endsWith(' ::') ? text.slice(0, -3) : text.slice(0, -1);
    }
    if (text.trim()) out.push(`<p>${inline(text)}</p>`);
    if (literal) {
      const block = indentedBlock(0);
      if (block.length) out.push(`<pre><code>${escapeHtml(block.join('\n'))}</code></pre>`);
    }
  }
  closeList();
  if (notes.length) out.push(`<ol>${notes.map((n) => `<li>${n}</li>`).join('')}</ol>`);
  return out.join('\n');
}

export const partitionRst: FormatPartitioner = async (data, ctx) =>
  htmlToElements(rstToHtml(decodeText(data, ctx.options.encoding)), { languages: ctx.options.languages });
