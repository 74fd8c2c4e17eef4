// OpenDocument charts (an embedded object, "Object 1/content.xml", behind a sheet's draw:object). An
// ODF chart keeps its data in a table of its own (the chart's "local-table"): the title is in
// chart:title, each chart:series names the cells of its values (chart:values-cell-range-address) and of
// its name (chart:label-cell-address), the categories are the range of chart:categories. Read into the
// same ChartData as DrawingML charts (charts.ts), so both give a title and a category x series Table.
// Without series ranges (a hand-written object) the table's first row names the series and its first
// column the categories. The part is streamed; rows and columns of the local table are capped.
import { MAX_CHART_ROWS, MAX_CHART_SERIES } from '../limits';
import type { ChartData } from './charts';
import { columnIndex, scanXml, unprefixed as local } from './common';

/** The part of an embedded object (a draw:object's xlink:href, "./Object 1") holding its content. */
export const objectPart = (href: string): string => `${href.replace(/^\.\//, '').replace(/\/$/, '')}/content.xml`;
/** Whether an embedded object's content is a chart (an object may also be a formula or a document). */
export const isOdfChart = (xml: string): boolean => /<office:chart[\s>]/.test(xml);

const repeat = (v: string | undefined, cap: number): number => Math.max(1, Math.min(Number(v ?? 1) || 1, cap));
/** Rows and columns of the local table read at most (headers and labels beyond the chart caps). */
const MAX_ROWS = MAX_CHART_ROWS + 2;
const MAX_COLS = MAX_CHART_SERIES + 2;

interface Range { c0: number; r0: number; c1: number; r1: number }

/**
 * "local-table.$B$2:.$B$5" (or "$B$2", "B2:B5") as zero-based cell bounds; undefined when not a cell
 * range. Of a list of ranges (separated by spaces) the first; each endpoint's cell is what follows its
 * table name (up to the last '.'), so a table named like a cell ("Q1.$B$2") is not read as one.
 */
export function cellRange(address: string | undefined): Range | undefined {
  const first = address && /^(?:'(?:[^']|'')*'|[^\s'])+/.exec(address.trim())?.[0];
  if (!first) return undefined;
  const cells: { c: number; r: number }[] = [];
  for (const end of first.split(':').slice(0, 2)) {
    const m = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/.exec(end.slice(end.lastIndexOf('.') + 1));
    if (!m) return undefined;
    cells.push({ c: columnIndex(m[1]!), r: Number(m[2]) - 1 });
  }
  const a = cells[0]!, b = cells[cells.length - 1]!;
  return { c0: Math.min(a.c, b.c), r0: Math.min(a.r, b.r), c1: Math.max(a.c, b.c), r1: Math.max(a.r, b.r) };
}

/** The cells of a range, along its row or its column. */
function cellsOf(grid: string[][], r: Range): string[] {
  const out: string[] = [];
  if (r.r0 === r.r1) for (let c = r.c0; c <= r.c1 && out.length < MAX_CHART_ROWS + 1; c++) out.push(grid[r.r0]?.[c] ?? '');
  else for (let row = r.r0; row <= r.r1 && out.length < MAX_CHART_ROWS + 1; row++) out.push(grid[row]?.[r.c0] ?? '');
  return out;
}

export function readOdfChart(xml: string): ChartData {
  const out: ChartData = { title: '', series: [], truncated: false };
  const grid: string[][] = [];
  const series: { values?: Range; label?: Range }[] = [];
  let categories: Range | undefined;
  const stack: string[] = [];
  let title: string[] | undefined;
  let row: string[] | undefined;
  let cell: { value?: string; text: string; times: number } | undefined;
  let inTable = false;
  scanXml(xml, {
    open(qname, a, selfClosing) {
      const n = local(qname);
      if (n === 'title' && qname.startsWith('chart:') && stack[stack.length - 1] === 'chart') title = [];
      else if (n === 'p' && title) title.push('');
      else if (n === 'series' && qname.startsWith('chart:')) {
        if (series.length >= MAX_CHART_SERIES) out.truncated = true;
        else series.push({ values: cellRange(a['chart:values-cell-range-address']), label: cellRange(a['chart:label-cell-address']) });
      } else if (n === 'categories') categories = cellRange(a['table:cell-range-address']);
      else if (n === 'table' && qname.startsWith('table:')) inTable = true;
      else if (inTable && n === 'table-row') {
        if (grid.length >= MAX_ROWS) out.truncated = true;
        else {
          row = [];
          if (selfClosing) grid.push(row);
        }
      } else if (row && (n === 'table-cell' || n === 'covered-table-cell')) {
        const times = repeat(a['table:number-columns-repeated'], MAX_COLS);
        const value = a['office:value-type'] === 'float' || a['office:value-type'] === 'percentage' || a['office:value-type'] === 'currency' ? a['office:value'] : undefined;
        cell = { value, text: '', times };
        if (selfClosing) closeCell();
      } else if (cell && n === 'p' && cell.text) cell.text += ' ';
      if (!selfClosing) stack.push(n);
    },
    close(qname) {
      const n = local(qname);
      const at = stack.lastIndexOf(n);
      if (at >= 0) stack.length = at;
      if (n === 'title' && title) {
        out.title = title.map((p) => p.trim()).filter(Boolean).join(' ');
        title = undefined;
      } else if ((n === 'table-cell' || n === 'covered-table-cell') && cell) closeCell();
      else if (n === 'table-row' && row) {
        grid.push(row);
        row = undefined;
      } else if (n === 'table' && qname.startsWith('table:')) inTable = false;
    },
    text(data) {
      if (cell) cell.text += data;
      else if (title && title.length) title[title.length - 1] += data;
    },
  });
  function closeCell(): void {
    const v = (cell!.value ?? cell!.text).replace(/\s+/g, ' ').trim();
    for (let k = 0; k < cell!.times && row!.length < MAX_COLS; k++) row!.push(v);
    cell = undefined;
  }
  if (!grid.length) return out;
  const named = series.filter((s) => s.values);
  const specs = named.length ? named : defaultSeries(grid);
  const cats = categories ? cellsOf(grid, categories) : undefined;
  for (const s of specs) {
    const vals = cellsOf(grid, s.values!);
    const name = s.label ? (cellsOf(grid, s.label)[0] ?? '') : '';
    const entry = { name, vals: new Map(vals.map((v, i) => [i, v] as [number, string]).filter(([, v]) => v !== '')), ...(cats ? { cats: new Map(cats.map((c, i) => [i, c] as [number, string])) } : {}) };
    out.series.push(entry);
  }
  if (!categories && !named.length) {
    // the first column labels the rows of the default layout
    const labels = grid.slice(1).map((r) => r[0] ?? '');
    for (const s of out.series) s.cats = new Map(labels.map((l, i) => [i, l] as [number, string]));
  }
  return out;
}

/** Series of a table without ranges: one a column after the first, named by the first row. */
function defaultSeries(grid: string[][]): { values: Range; label: Range }[] {
  const width = Math.max(...grid.map((r) => r.length));
  const last = grid.length - 1;
  const out: { values: Range; label: Range }[] = [];
  for (let c = 1; c < width && out.length < MAX_CHART_SERIES; c++) out.push({ label: { c0: c, r0: 0, c1: c, r1: 0 }, values: { c0: c, r0: 1, c1: c, r1: Math.max(1, last) } });
  return out;
}
