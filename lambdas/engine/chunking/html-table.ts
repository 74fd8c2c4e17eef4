// A small, tolerant reader for `metadata.text_as_html` tables, producing the library's compact form:
// no attributes, no <thead>/<tbody>/<tfoot>, <th> rewritten to <td>, whitespace collapsed, empty
// cells as <td/>. Only what chunking needs: rows, cells, their text and compact HTML.
import { normalizeWhitespace } from './text';

export interface HtmlCell {
  text: string;
  html: string;
}
export interface HtmlRow {
  cells: HtmlCell[];
  /** In <thead>, or made only of <th> cells: repeated on continuation TableChunks. */
  isHeader: boolean;
  html: string;
  /** Non-empty cell texts joined by one space. */
  text: string;
}
export interface HtmlTable {
  rows: HtmlRow[];
  html: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, body: string) => {
    if (body[0] === '#') {
      const cp = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(cp) && cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[body.toLowerCase()] ?? m;
  });
}

const NEEDS_HTML_ESCAPE = /[&<>]/;

export function escapeHtmlText(s: string): string {
  if (!NEEDS_HTML_ESCAPE.test(s)) return s;
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function makeCell(rawText: string): HtmlCell {
  const text = normalizeWhitespace(decodeEntities(rawText));
  return { text, html: text ? `<td>${escapeHtmlText(text)}</td>` : '<td/>' };
}

function makeRow(cells: HtmlCell[], isHeader: boolean): HtmlRow {
  return {
    cells,
    isHeader,
    html: `<tr>${cells.map((c) => c.html).join('')}</tr>`,
    text: cells.filter((c) => c.text).map((c) => c.text).join(' '),
  };
}

/** Parses the first <table> in `html`; undefined when there is none. Nested tables are flattened. */
export function parseHtmlTable(html: string): HtmlTable | undefined {
  const start = html.search(/<table[\s>/]/i);
  if (start < 0) return undefined;
  const tagRe = /<\/?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>|<!--[\s\S]*?-->/g;
  tagRe.lastIndex = start;
  const rows: HtmlRow[] = [];
  let cells: HtmlCell[] | undefined;
  let allTh = true;
  let inThead = false;
  let rowInThead = false;
  let cellText: string | undefined;
  let cellIsTh = false;
  let depth = 0;
  let last = start;
  const closeCell = () => {
    if (cellText !== undefined) {
      (cells ??= []).push(makeCell(cellText));
      if (!cellIsTh) allTh = false;
      cellText = undefined;
    }
  };
  const closeRow = () => {
    closeCell();
    if (cells !== undefined) {
      if (cells.length) rows.push(makeRow(cells, rowInThead || allTh));
      cells = undefined;
    }
  };
  let m: RegExpExecArray | null;
  while ((m = tagRe.exec(html)) !== null) {
    if (cellText !== undefined) cellText += html.slice(last, m.index);
    last = tagRe.lastIndex;
    const name = m[1]?.toLowerCase();
    if (!name) continue;
    const closing = m[0][1] === '/';
    const selfClosing = m[0].endsWith('/>');
    if (name === 'table') {
      if (!closing) depth += 1;
      else if (--depth <= 0) break;
    } else if (name === 'thead') {
      inThead = !closing;
    } else if (name === 'tr') {
      closeRow();
      if (!closing) {
        cells = [];
        allTh = true;
        rowInThead = inThead;
      }
    } else if (name === 'td' || name === 'th') {
      closeCell();
      if (!closing) {
        if (cells === undefined) {
          cells = [];
          allTh = true;
          rowInThead = inThead;
        }
        if (selfClosing) {
          cells.push(makeCell(''));
          if (name !== 'th') allTh = false;
        } else {
          cellText = '';
          cellIsTh = name === 'th';
        }
      }
    } else if (name === 'br' && cellText !== undefined) {
      cellText += ' ';
    }
  }
  closeRow();
  return { rows, html: `<table>${rows.map((r) => r.html).join('')}</table>` };
}

/** Header row HTML for repetition on continuation chunks (cells as <th>). */
export function headerRowHtml(row: HtmlRow): string {
  return `<tr>${row.cells.map((c) => (c.text ? `<th>${escapeHtmlText(c.text)}</th>` : '<th/>')).join('')}</tr>`;
}
