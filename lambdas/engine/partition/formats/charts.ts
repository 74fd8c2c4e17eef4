// DrawingML charts (a c:chartSpace part: ppt/charts/chartN.xml behind a slide's graphicFrame, or
// xl/charts/chartN.xml behind a sheet's drawing). The chart's own title becomes a NarrativeText (it
// labels the chart as a caption does, so it does not open a section of its own under the slide title)
// and its cached data a Table, category x series: a first row of an empty corner cell and the series
// names, then one row per category with each series' value. Only the caches written into the part are
// read (c:strCache / c:numCache / literals of c:tx, c:cat / c:xVal and c:val / c:yVal), for every chart
// kind of the plot area (bar, line, pie, area, scatter, radar, ...); categories cached as serial numbers
// with a date format (a date axis) read as dates. The part is streamed, and rows and
// series are capped (limits.ts) with a warning, so a chart of a million points stays bounded.
import { makeElement, type Element, type ElementMetadata } from '../../elements';
import { MAX_CHART_ROWS, MAX_CHART_SERIES } from '../limits';
import { tableText, tableToHtml, type TableRows } from '../table-html';
import { columnIndex, descendants, parseXml, scanXml, unprefixed as local, zipText } from './common';
import { partRelationships } from './ooxml-package';
import { excelDate, isDateFormatCode } from './serial-dates';

interface Series {
  name: string;
  /** Category labels by point index (c:cat, or the x values of a scatter/bubble series). */
  cats?: Map<number, string>;
  vals: Map<number, string>;
  /** The cell ranges the name, categories and values come from (c:f), where the part names them. */
  refs?: Partial<Record<'tx' | 'cat' | 'val', string>>;
}

export interface ChartData {
  title: string;
  series: Series[];
  /** Points, categories or series beyond the caps were dropped. */
  truncated: boolean;
}


/** Streams a chartSpace part into its title and series caches. */
export function readChart(xml: string): ChartData {
  const out: ChartData = { title: '', series: [], truncated: false };
  const stack: string[] = [];
  let ser: Series | undefined;
  /** Which cache of the current series the points go to. */
  let target: 'tx' | 'cat' | 'val' | undefined;
  let ptIdx = -1;
  let inV = false;
  /** c:lvl elements seen in the current category cache (a multi-level axis: the first is the innermost labels). */
  let lvls = 0;
  let v = '';
  /** The format code of the current number cache, and whether serials count from 1904. */
  let formatCode = '';
  let date1904 = false;
  let titlePara = '';
  const titleParas: string[] = [];
  const under = (name: string): boolean => stack.includes(name);
  scanXml(xml, {
    open(qname, attribs, selfClosing) {
      const n = local(qname);
      const parent = stack[stack.length - 1];
      if (n === 'ser' && parent && stack[stack.length - 2] === 'plotArea') {
        if (out.series.length >= MAX_CHART_SERIES) out.truncated = true;
        else out.series.push((ser = { name: '', vals: new Map() }));
      } else if (ser && parent === 'ser' && (n === 'tx' || n === 'cat' || n === 'xVal' || n === 'val' || n === 'yVal')) {
        target = n === 'tx' ? 'tx' : n === 'cat' || n === 'xVal' ? 'cat' : 'val';
        if (target === 'cat') ser.cats ??= new Map();
      } else if (n === 'numCache' || n === 'numLit') {
        formatCode = '';
      } else if (n === 'date1904' && parent === 'chartSpace') {
        date1904 = attribs['val'] !== '0' && attribs['val'] !== 'false';
      } else if (n === 'lvl' && target === 'cat') {
        lvls++;
      } else if (n === 'pt') {
        ptIdx = Number(attribs['idx']);
      } else if (n === 'v') {
        inV = true;
        v = '';
      }
      if (!selfClosing) stack.push(n);
    },
    close(qname) {
      const n = local(qname);
      // close the nearest open element of that name (tolerates unbalanced markup)
      const at = stack.lastIndexOf(n);
      if (at < 0) return;
      stack.length = at;
      if (n === 'v' && inV) {
        inV = false;
        const isDate = target === 'cat' && (under('numCache') || under('numLit')) && isDateFormatCode(formatCode);
        if (ser && target && (target !== 'cat' || lvls <= 1)) storePoint(out, ser, target, ptIdx, isDate ? dateLabel(v.trim(), date1904) : v.trim());
        else if (!ser && isChartTitle(stack) && v.trim()) titleParas.push(v.trim()); // a title taken from a cell
      } else if ((n === 'tx' || n === 'cat' || n === 'xVal' || n === 'val' || n === 'yVal') && stack[stack.length - 1] === 'ser') {
        target = undefined;
        lvls = 0;
      } else if (n === 'ser') {
        ser = undefined;
        target = undefined;
      } else if (n === 'p' && isChartTitle(stack)) {
        if (titlePara.trim()) titleParas.push(titlePara.trim());
        titlePara = '';
      }
    },
    text(data) {
      if (inV) v += data;
      else if (ser && target && stack[stack.length - 1] === 'formatCode') formatCode += data;
      else if (ser && target && stack[stack.length - 1] === 'f') (ser.refs ??= {})[target] = ((ser.refs?.[target] ?? '') + data).trim();
      else if (stack[stack.length - 1] === 't' && under('rich') && isChartTitle(stack)) titlePara += data;
    },
  });
  out.title = titleParas.join(' ').replace(/\s+/g, ' ').trim();
  return out;
}

/** A date category's serial as a date (its time only when it has one); other text unchanged. */
function dateLabel(serial: string, date1904: boolean): string {
  if (!/^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(serial)) return serial;
  return excelDate(Number(serial), date1904).replace(/ 00:00:00$/, '');
}

/** A workbook's cell by sheet name and 0-based row and column; undefined when empty. */
export type CellLookup = (sheet: string, r: number, c: number) => string | undefined;

/**
 * A chart's series read from the workbook's cells where the part keeps no cache of them (a workbook
 * written by a program, not by a spreadsheet application: openpyxl and others write the c:f ranges
 * only). Ranges of one row or one column on a named sheet ('Data'!$B$2:$B$5), at most MAX_CHART_ROWS
 * points.
 */
export function fillFromCells(chart: ChartData, cell: CellLookup): ChartData {
  for (const ser of chart.series) {
    const refs = ser.refs;
    if (!refs) continue;
    if (!ser.name && refs.tx) ser.name = rangeValues(refs.tx, cell, chart).filter(Boolean).join(' ');
    if (!ser.cats?.size && refs.cat) ser.cats = new Map(rangeValues(refs.cat, cell, chart).map((v, i) => [i, v] as [number, string]).filter(([, v]) => v));
    if (!ser.vals.size && refs.val) ser.vals = new Map(rangeValues(refs.val, cell, chart).map((v, i) => [i, v] as [number, string]).filter(([, v]) => v));
  }
  return chart;
}

/** The values of a range of one row or column ("'Sheet 1'!$A$2:$A$9", "Data!B1"), in order; [] when it is none. */
function rangeValues(ref: string, cell: CellLookup, chart: ChartData): string[] {
  const m = /^(?:'((?:[^']|'')+)'|([^!'(),]+))!\$?([A-Z]{1,3})\$?(\d{1,7})(?::\$?([A-Z]{1,3})\$?(\d{1,7}))?$/.exec(ref.trim());
  if (!m) return [];
  const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]!;
  const r0 = Number(m[4]) - 1, c0 = columnIndex(m[3]!);
  const r1 = m[6] ? Number(m[6]) - 1 : r0, c1 = m[5] ? columnIndex(m[5]) : c0;
  if (r0 !== r1 && c0 !== c1) return [];
  const n = Math.max(r1 - r0, c1 - c0) + 1;
  if (n > MAX_CHART_ROWS) chart.truncated = true;
  const out: string[] = [];
  for (let i = 0; i < Math.min(n, MAX_CHART_ROWS); i++) out.push(cell(sheet, r0 === r1 ? r0 : r0 + i, c0 === c1 ? c0 : c0 + i) ?? '');
  return out;
}

/** Inside the chart's own title (c:chart/c:title), not an axis title. */
function isChartTitle(stack: string[]): boolean {
  const t = stack.indexOf('title');
  return t > 0 && stack[t - 1] === 'chart';
}

function storePoint(out: ChartData, ser: Series, target: 'tx' | 'cat' | 'val', idx: number, value: string): void {
  if (target === 'tx') {
    ser.name = ser.name ? `${ser.name} ${value}` : value;
    return;
  }
  const map = target === 'cat' ? ser.cats! : ser.vals;
  // c:tx/c:v literal text and points without an index take the next position
  const i = Number.isInteger(idx) && idx >= 0 ? idx : map.size;
  if (map.size >= MAX_CHART_ROWS && !map.has(i)) {
    out.truncated = true;
    return;
  }
  map.set(i, value);
}

/** The category x series grid: row keys from the first series' categories, others aligned by index or label. */
export function chartRows(chart: ChartData): { rows: TableRows; truncated: boolean } {
  let truncated = chart.truncated;
  const series = chart.series.filter((s) => s.vals.size || s.cats?.size);
  if (!series.length) return { rows: [], truncated };
  const primary = series.find((s) => s.cats?.size)?.cats;
  const byIndex = new Map<number, number>();
  /** Rows by label, each label's rows in order (a label may repeat). */
  const byLabel = new Map<string, number[]>();
  const labels: string[] = [];
  const cells: string[][] = [];
  const newRow = (label: string): number | undefined => {
    if (labels.length >= MAX_CHART_ROWS) {
      truncated = true;
      return undefined;
    }
    labels.push(label);
    cells.push([]);
    const r = labels.length - 1;
    const same = byLabel.get(label);
    if (same) same.push(r);
    else byLabel.set(label, [r]);
    return r;
  };
  const indexRow = (i: number, label: string): number | undefined => {
    let r = byIndex.get(i);
    if (r === undefined && (r = newRow(label)) !== undefined) byIndex.set(i, r);
    return r;
  };
  const sorted = (m: Map<number, string>): [number, string][] => [...m.entries()].sort((a, b) => a[0] - b[0]);
  if (primary) for (const [i, label] of sorted(primary)) indexRow(i, label);
  series.forEach((s, col) => {
    // a series over the same categories goes by point index; one with its own (scatter x values) by label
    const aligned = !s.cats?.size || sameLabels(s.cats, primary);
    const used = new Set<number>();
    for (const [i, value] of sorted(s.vals)) {
      let r: number | undefined;
      if (aligned) r = indexRow(i, primary?.get(i) ?? String(i + 1));
      else {
        const label = s.cats!.get(i) ?? String(i + 1);
        r = (byLabel.get(label) ?? []).find((k) => !used.has(k)) ?? newRow(label);
      }
      if (r === undefined) continue;
      used.add(r);
      cells[r]![col] = value;
    }
  });
  const header = [{ text: '' }, ...series.map((s, k) => ({ text: s.name || `Series ${k + 1}` }))];
  const rows: TableRows = [header];
  labels.forEach((label, r) => rows.push([{ text: label }, ...series.map((_, c) => ({ text: cells[r]![c] ?? '' }))]));
  return { rows, truncated };
}

function sameLabels(a: Map<number, string>, b: Map<number, string> | undefined): boolean {
  if (!b || a.size !== b.size) return false;
  for (const [i, l] of a) if (b.get(i) !== l) return false;
  return true;
}

/**
 * The elements of one chart part: its title (NarrativeText) and its data (Table). A part that cannot
 * be read (over the XML caps) is skipped with a warning; the rest of the document stands.
 */
export function chartElements(xml: string, md: ElementMetadata, warn: (message: string) => void, where: string, read: (xml: string) => ChartData = readChart): Element[] {
  let chart: ChartData;
  try {
    chart = read(xml);
  } catch (err) {
    warn(`${where}: the chart could not be read (${(err as Error).message}); it is left out`);
    return [];
  }
  const out: Element[] = [];
  if (chart.title) out.push(makeElement('NarrativeText', chart.title, { ...md }));
  const { rows, truncated } = chartRows(chart);
  if (truncated) warn(`${where}: the chart's data was cut to ${MAX_CHART_ROWS} categories and ${MAX_CHART_SERIES} series`);
  const text = tableText(rows);
  if (text) out.push(makeElement('Table', text, { ...md, text_as_html: tableToHtml(rows) }));
  return out;
}

/** The relationships of a package part (Id -> part path; external targets left out). */
function partRels(files: Map<string, Uint8Array>, partPath: string): Map<string, string> {
  return new Map(partRelationships(files, partPath).filter((r) => !r.external).map((r) => [r.id, r.target]));
}

/**
 * The chart parts drawn on a worksheet or chartsheet: its drawing part(s), then each chart frame's
 * c:chart reference in the drawing, in drawing order. Returns the chart parts' XML.
 */
/**
 * A chart drawn on a sheet: its part's XML, DrawingML (xlsx) or an OpenDocument chart object (ods),
 * or the data of a legacy workbook's chart, already read from its records (xls-charts.ts).
 */
export type ChartPart = { xml: string; format: 'drawingml' | 'odf' } | { data: ChartData; format: 'biff' };

export function sheetChartParts(files: Map<string, Uint8Array>, sheetPath: string): ChartPart[] {
  const out: ChartPart[] = [];
  const rels = partRels(files, sheetPath);
  for (const target of rels.values()) {
    if (!/\/drawings\/[^/]+\.xml$/.test(target)) continue;
    const xml = zipText(files, target);
    if (!xml) continue;
    const drawingRels = partRels(files, target);
    for (const ref of descendants(parseXml(xml), 'chart')) {
      const rid = Object.entries(ref.attribs).find(([k]) => k === 'r:id' || k.endsWith(':id'))?.[1];
      const part = rid ? drawingRels.get(rid) : undefined;
      const chart = part ? zipText(files, part) : undefined;
      if (chart) out.push({ xml: chart, format: 'drawingml' });
    }
  }
  return out;
}
