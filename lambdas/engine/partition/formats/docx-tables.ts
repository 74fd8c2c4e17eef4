// WordprocessingML tables: the grid of anchored cells (w:gridSpan, w:vMerge, w:hMerge, w:gridBefore/After), the
// one-cell tables that frame content, and page breaks rendered inside a table. Rows deleted as a
// tracked change are left out, as Word shows the document with its changes accepted.
import { appendAll } from '../../elements';
import { attr, firstChild, isTag, localName, type DomElement, type DomNode } from './common';
import { clampSpan, type TableCell, type TableRows } from '../table-html';
import { wordChildren } from './docx-content';

/**
 * The table's anchored cells: w:gridSpan gives colspan, a w:vMerge="restart" cell grows a rowspan
 * over the w:vMerge (continue) cells below it in the same grid column, w:gridBefore/w:gridAfter
 * leave empty grid columns. A table nested in a cell is read into that cell's text, row by row.
 */
export function readTableRows(tbl: DomElement, cellText: (tc: DomElement) => string): TableRows {
  const rows: TableRows = [];
  // the anchor cell covering each grid column in the row above (for vertical merges)
  let above = new Map<number, TableCell>();
  for (const tr of rowsOf(tbl)) {
    const row: TableCell[] = [];
    const here = new Map<number, TableCell>();
    const trPr = firstChild(tr, 'trPr');
    const gridVal = (name: string): number => {
      const el = trPr ? firstChild(trPr, name) : undefined;
      return el ? clampSpan(attr(el, 'val')) : 0;
    };
    let col = gridVal('gridBefore');
    if (col > 0) row.push({ text: '', colspan: col, rowspan: 1 });
    for (const tc of cellsOf(tr)) {
      const tcPr = firstChild(tc, 'tcPr');
      const spanEl = tcPr ? firstChild(tcPr, 'gridSpan') : undefined;
      const colspan = spanEl ? clampSpan(attr(spanEl, 'val')) : 1;
      const vMerge = tcPr ? firstChild(tcPr, 'vMerge') : undefined;
      const continued = vMerge !== undefined && (attr(vMerge, 'val') ?? 'continue') === 'continue';
      const anchor = continued ? above.get(col) : undefined;
      // the legacy horizontal merge (w:hMerge, written by converters for old documents): a
      // continuing cell widens the cell before it
      const hMerge = tcPr ? firstChild(tcPr, 'hMerge') : undefined;
      const widened = hMerge && (attr(hMerge, 'val') ?? 'continue') === 'continue' ? row[row.length - 1] : undefined;
      if (widened && !anchor) {
        widened.colspan = (widened.colspan ?? 1) + colspan;
        for (let k = 0; k < colspan; k++) here.set(col + k, widened);
      } else if (anchor) {
        anchor.rowspan = (anchor.rowspan ?? 1) + 1;
        for (let k = 0; k < colspan; k++) here.set(col + k, anchor);
      } else {
        const cell: TableCell = { text: cellText(tc), colspan, rowspan: 1 };
        row.push(cell);
        for (let k = 0; k < colspan; k++) here.set(col + k, cell);
      }
      col += colspan;
    }
    const after = gridVal('gridAfter');
    if (after > 0) row.push({ text: '', colspan: after, rowspan: 1 });
    rows.push(row);
    above = here;
  }
  return rows;
}

/** The only cell of a one-row, one-column table (no spans), else undefined. */
export function singleCell(tbl: DomElement): DomElement | undefined {
  const rows = rowsOf(tbl);
  if (rows.length !== 1) return undefined;
  const cells = cellsOf(rows[0]!);
  if (cells.length !== 1) return undefined;
  const tcPr = firstChild(cells[0]!, 'tcPr');
  const span = tcPr ? firstChild(tcPr, 'gridSpan') : undefined;
  const trPr = firstChild(rows[0]!, 'trPr');
  if ((span && clampSpan(attr(span, 'val')) > 1) || (trPr && (firstChild(trPr, 'gridBefore') || firstChild(trPr, 'gridAfter')))) return undefined;
  return cells[0];
}

const cellsOf = (tr: DomElement): DomElement[] => wordChildren(tr, 'tc');

/** The table's rows as Word shows them with tracked changes accepted: a deleted row (w:trPr/w:del) is gone. */
function rowsOf(tbl: DomElement): DomElement[] {
  return wordChildren(tbl, 'tr').filter((tr) => {
    const trPr = firstChild(tr, 'trPr');
    return !(trPr && firstChild(trPr, 'del'));
  });
}

export function countBreaks(el: DomElement): number {
  let n = 0;
  const stack: DomNode[] = [...el.children];
  while (stack.length) {
    const c = stack.pop()!;
    if (!isTag(c)) continue;
    const name = localName(c);
    if (name === 'lastRenderedPageBreak' || (name === 'br' && attr(c, 'type') === 'page')) n++;
    appendAll(stack, c.children);
  }
  return n;
}
