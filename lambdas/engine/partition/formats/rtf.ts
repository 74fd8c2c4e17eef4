// RTF partitioner: a small RTF reader (groups, control words, \'hh and \uN escapes with the document
// code page, ignorable destinations skipped) producing HTML — paragraphs, \outlinelevel headings,
// bold/italic runs, \intbl/\cell/\row tables — then the HTML partitioner.
import iconv from 'iconv-lite';
import type { FormatPartitioner } from '../types';
import { UnprocessableDocument } from '../../../errors';
import { escapeHtml } from './common';
import { htmlToElements } from './html';
import { rowsFromGrid, spansFromEdges, type EdgeCell, type TableCell } from '../table-html';

const SKIP_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'info', 'pict', 'object', 'themedata', 'colorschememapping', 'datastore',
  'xmlnstbl', 'listtable', 'listoverridetable', 'rsidtbl', 'generator', 'latentstyles', 'pgdsctbl', 'fldinst',
  'header', 'headerl', 'headerr', 'headerf', 'footer', 'footerl', 'footerr', 'footerf', 'footnote', 'annotation',
  'bkmkstart', 'bkmkend', 'filetbl', 'revtbl', 'listtext', 'pntext', 'pntxta', 'pntxtb', 'shppict', 'nonshppict',
  'template', 'userprops', 'docvar', 'wgrffmtfilter', 'mmathPr', 'xe', 'tc', 'falt', 'panose',
]);

/** A list item's label set in a paragraph's text before a tab: "1.", "b)", "(iv)", a bullet or dash. */
const LIST_LABEL = /^(?:<[bi]>)*\s*(?:\d{1,3}[.)]|[a-zA-Z][.)]|\(\w{1,4}\)|[\u2022\u2013\u2014\u25e6\u25aa\u25cf\u00b7o*-])\t/;

const SYMBOLS: Record<string, string> = {
  emdash: '\u2014', endash: '\u2013', lquote: '\u2018', rquote: '\u2019', ldblquote: '\u201c', rdblquote: '\u201d',
  bullet: '\u2022', emspace: '\u2003', enspace: '\u2002', qmspace: '\u2005', tab: '\t', line: '\n',
};

interface State {
  skip: boolean;
  /** inside {\*\htmltag ...} of RTF-encapsulated HTML: raw HTML markup */
  htmltag: boolean;
  /** inside \htmlrtf ... \htmlrtf0: RTF-only rendering of encapsulated HTML, not part of it */
  htmlrtf: boolean;
  bold: boolean;
  italic: boolean;
  uc: number;
}

/** A style's name that makes its paragraphs headings: "Heading 2" (level 2), "heading", "Title". */
const HEADING_STYLE = /^(?:heading|title)\s*(\d)?$/i;
/** Characters of the stylesheet read at most (a stylesheet is a few kilobytes; Word's run to ~100 KB). */
const MAX_STYLESHEET = 1_000_000;

/**
 * Outline levels (0-based) of the stylesheet's heading styles, by style number: a style's own
 * \outlinelevel, or its name ("Heading 2" is level 1). Word writes \outlinelevel into each heading
 * paragraph; LibreOffice only names the style (\s2 ... Heading 2;) and refers to it.
 */
function headingStyles(rtf: string): Map<number, number> {
  const out = new Map<number, number>();
  const at = rtf.indexOf('{\\stylesheet');
  if (at < 0) return out;
  let depth = 0, start = -1;
  const end = Math.min(rtf.length, at + MAX_STYLESHEET);
  for (let i = at; i < end; i++) {
    const ch = rtf[i];
    if (ch === '\\') { i++; continue; }
    if (ch === '{') { depth++; if (depth === 2) start = i; }
    else if (ch === '}') {
      if (depth === 2 && start >= 0) {
        const def = rtf.slice(start + 1, i);
        const num = /^\s*\\s(\d+)\b/.exec(def);
        const level = /\\outlinelevel(\d)/.exec(def);
        const name = /([^\\;{}]*?)\s*;\s*$/.exec(def.replace(/\\[a-z]+-?\d* ?/gi, ''));
        const named = name ? HEADING_STYLE.exec(name[1]!.trim()) : null;
        // character, table and unnumbered styles are no paragraph's style
        if (num && level) out.set(Number(num[1]), Number(level[1]));
        else if (num && named) out.set(Number(num[1]), named[1] ? Math.max(0, Number(named[1]) - 1) : 0);
      }
      if (--depth === 0) break;
    }
  }
  return out;
}

export function rtfToHtml(rtf: string): string {
  if (!/^\s*\{\\rtf/.test(rtf)) throw new UnprocessableDocument('rtf: the document does not start with {\\rtf');
  const styleLevels = headingStyles(rtf);
  let codepage = 'windows-1252';
  const stack: State[] = [];
  let st: State = { skip: false, htmltag: false, htmlrtf: false, bold: false, italic: false, uc: 1 };
  let fromHtml = false;
  let htmlOut = '';
  let html = '';
  let para = ''; // current paragraph HTML
  let paraHasText = false;
  let outline = -1;
  let listPara = false;
  // a paragraph's left indent (twips) and list level (\ilvl), and the indents of the list being read
  let leftIndent = 0, listLevel = -1;
  let listIndents: number[] = [];
  let inTable = false;
  let cell = '';
  let row: string[] = [];
  let rows: string[][] = [];
  // each row's cell definitions (\cellx right edges, merge flags), for spans across the rows' columns
  let rowDef: EdgeCell[] = [];
  let rowDefs: EdgeCell[][] = [];
  let cellFlags: Omit<EdgeCell, 'x'> = {};
  let runBold = false;
  let runItalic = false;
  let pendingBytes: number[] = [];
  let skipChars = 0;

  const flushBytes = (): void => {
    if (!pendingBytes.length) return;
    const s = iconv.decode(Buffer.from(pendingBytes), codepage);
    pendingBytes = [];
    emitText(s);
  };
  const openRun = (): void => {
    if (st.bold !== runBold || st.italic !== runItalic) {
      if (runItalic) para += '</i>';
      if (runBold) para += '</b>';
      if (st.bold) para += '<b>';
      if (st.italic) para += '<i>';
      runBold = st.bold;
      runItalic = st.italic;
    }
  };
  const closeRun = (): void => {
    if (runItalic) para += '</i>';
    if (runBold) para += '</b>';
    runBold = runItalic = false;
  };
  function emitText(s: string): void {
    if (fromHtml) {
      if (st.htmltag) htmlOut += s;
      else if (!st.skip && !st.htmlrtf) htmlOut += escapeHtml(s);
      return;
    }
    if (st.skip || !s) return;
    openRun();
    para += escapeHtml(s);
    if (/\S/.test(s)) paraHasText = true;
  }
  const endParagraph = (): void => {
    flushBytes();
    closeRun();
    if (inTable) {
      cell += (cell ? ' ' : '') + para;
    } else if (paraHasText) {
      if (rows.length) {
        flushTable();
      }
      const body = para.replace(/\n/g, '<br/>');
      // a list's paragraph: Word marks it with a list (\ls, its label in a skipped \listtext group);
      // other writers set the label in the text, a tab after it
      if (outline < 0 && (listPara || LIST_LABEL.test(para))) {
        // its level: Word's \ilvl, else its indent among the list's items (set further in: a level deeper)
        while (listIndents.length && listIndents[listIndents.length - 1]! > leftIndent) listIndents.pop();
        if (!listIndents.length || leftIndent > listIndents[listIndents.length - 1]!) listIndents.push(leftIndent);
        const depth = Math.min(8, listLevel >= 0 ? listLevel : listIndents.length - 1);
        html += `${'<ul>'.repeat(depth + 1)}<li>${body}</li>${'</ul>'.repeat(depth + 1)}\n`;
      } else {
        listIndents = [];
        const tag = outline >= 0 ? `h${Math.min(6, outline + 1)}` : 'p';
        html += `<${tag}>${body}</${tag}>\n`;
      }
    }
    para = '';
    paraHasText = false;
  };
  const flushTable = (): void => {
    if (rows.length) html += tableHtml(rows, rowDefs);
    rows = [];
    rowDefs = [];
  };

  const n = rtf.length;
  let i = 0;
  while (i < n) {
    const ch = rtf[i]!;
    if (skipChars > 0 && ch !== '{' && ch !== '}') {
      // characters replaced by a preceding \uN (an escape counts as one)
      if (ch === '\\' && rtf[i + 1] === "'") i += 4;
      else if (ch === '\\') {
        const m = /^\\[a-z]+-?\d* ?/i.exec(rtf.slice(i, i + 40));
        i += m ? m[0].length : 2;
      } else i++;
      skipChars--;
      continue;
    }
    if (ch === '{') {
      flushBytes();
      stack.push(st);
      st = { ...st };
      i++;
      if (rtf.startsWith('\\*', i)) st.skip = true;
      continue;
    }
    if (ch === '}') {
      flushBytes();
      st = stack.pop() ?? st;
      i++;
      continue;
    }
    if (ch === '\\') {
      const next = rtf[i + 1];
      if (next === "'") {
        const hex = rtf.slice(i + 2, i + 4);
        const b = parseInt(hex, 16);
        if (!st.skip && !Number.isNaN(b)) pendingBytes.push(b);
        i += 4;
        continue;
      }
      flushBytes();
      if (next === '\\' || next === '{' || next === '}') {
        emitText(next);
        i += 2;
        continue;
      }
      if (next === '~') {
        emitText('\u00a0');
        i += 2;
        continue;
      }
      if (next === '_') {
        emitText('-');
        i += 2;
        continue;
      }
      if (next === '\n' || next === '\r') {
        endParagraph();
        i += 2;
        continue;
      }
      const m = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(rtf.slice(i + 1, i + 46));
      if (!m) {
        i += 2;
        continue;
      }
      i += 1 + m[0].length;
      const word = m[1]!;
      const param = m[2] !== undefined ? Number(m[2]) : undefined;
      if (SKIP_DESTINATIONS.has(word)) {
        st.skip = true;
        continue;
      }
      if (fromHtml) {
        // RTF-encapsulated HTML (Outlook bodies): keep the HTML, drop the RTF-only renderings
        if (word === 'htmltag') {
          st.skip = false;
          st.htmltag = true;
        } else if (word === 'htmlrtf') st.htmlrtf = param !== 0;
        else if (word === 'par' || word === 'line') emitText('\n');
        else if (word === 'tab') emitText('\t');
        else if (word === 'u' && param !== undefined) {
          emitText(String.fromCharCode(param < 0 ? param + 65536 : param));
          skipChars = st.uc;
        } else if (word === 'uc') st.uc = param ?? 1;
        else if (word === 'ansicpg' && param && iconv.encodingExists(`cp${param}`)) codepage = `cp${param}`;
        else if (SYMBOLS[word] !== undefined && word !== 'line' && word !== 'tab') emitText(SYMBOLS[word]!);
        continue;
      }
      switch (word) {
        case 'fromhtml':
          fromHtml = param !== 0;
          break;
        case 'ansicpg':
          if (param && iconv.encodingExists(`cp${param}`)) codepage = `cp${param}`;
          break;
        case 'mac':
          codepage = 'macintosh';
          break;
        case 'u': {
          if (param !== undefined) emitText(String.fromCharCode(param < 0 ? param + 65536 : param));
          skipChars = st.uc;
          break;
        }
        case 'uc':
          st.uc = param ?? 1;
          break;
        case 'par':
        case 'sect':
        case 'page':
          endParagraph();
          break;
        case 'pard':
          outline = -1;
          inTable = false;
          listPara = false;
          leftIndent = 0;
          listLevel = -1;
          break;
        case 'ls':
          listPara = true;
          break;
        case 'ilvl':
          if (!st.skip) listLevel = param ?? 0;
          break;
        case 'li':
          if (!st.skip) leftIndent = param ?? 0;
          break;
        case 'outlinelevel':
          if (!st.skip) outline = param ?? 0;
          break;
        case 's':
          // a paragraph's style: a heading style gives its level (an explicit \outlinelevel after it wins)
          if (!st.skip && outline < 0 && styleLevels.has(param ?? 0)) outline = styleLevels.get(param ?? 0)!;
          break;
        case 'b':
          st.bold = param !== 0;
          break;
        case 'i':
          st.italic = param !== 0;
          break;
        case 'plain':
          st.bold = st.italic = false;
          break;
        case 'intbl':
          inTable = true;
          break;
        case 'trowd':
          rowDef = [];
          cellFlags = {};
          break;
        case 'clvmgf':
          cellFlags.vStart = true;
          break;
        case 'clvmrg':
          cellFlags.vCont = true;
          break;
        case 'clmrg':
          cellFlags.hCont = true;
          break;
        case 'cellx':
          if (rowDef.length < MAX_ROW_CELLS) rowDef.push({ x: param ?? 0, ...cellFlags });
          cellFlags = {};
          break;
        case 'cell':
        case 'nestcell':
          endParagraph();
          row.push(cell);
          cell = '';
          break;
        case 'row':
        case 'nestrow':
          endParagraph();
          if (row.length) { rows.push(row); rowDefs.push(word === 'row' ? rowDef : []); }
          row = [];
          inTable = false;
          break;
        default: {
          const sym = SYMBOLS[word];
          if (sym !== undefined) emitText(sym);
        }
      }
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      i++;
      continue;
    }
    // plain text run
    let j = i;
    while (j < n && rtf[j] !== '\\' && rtf[j] !== '{' && rtf[j] !== '}' && rtf[j] !== '\r' && rtf[j] !== '\n') j++;
    flushBytes();
    emitText(rtf.slice(i, j));
    i = j;
  }
  if (fromHtml) {
    flushBytes();
    return htmlOut;
  }
  endParagraph();
  if (row.length) { rows.push(row); rowDefs.push([]); }
  flushTable();
  return html;
}

/** Cell definitions read per row at most. */
const MAX_ROW_CELLS = 1000;

/**
 * A table's HTML (its cells' text is HTML already): spans from the rows' cell edges where every row
 * defines its cells (\cellx; spansFromEdges), otherwise cells as they come.
 */
function tableHtml(rows: string[][], defs: EdgeCell[][]): string {
  const table = spansFromEdges(rows, defs) ?? rowsFromGrid(rows);
  const span = (c: TableCell) => `${(c.colspan ?? 1) > 1 ? ` colspan="${c.colspan}"` : ''}${(c.rowspan ?? 1) > 1 ? ` rowspan="${c.rowspan}"` : ''}`;
  return `<table>${table.map((r) => `<tr>${r.map((c) => `<td${span(c)}>${c.text}</td>`).join('')}</tr>`).join('')}</table>\n`;
}

export const partitionRtf: FormatPartitioner = async (data, ctx) => {
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  return htmlToElements(rtfToHtml(text), { shortText: 'title', languages: ctx.options.languages });
};
