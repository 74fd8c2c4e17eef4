// Charts of legacy Excel workbooks (.xls, BIFF8 [MS-XLS] 2.4 chart records): a chart drawn on a
// worksheet (a chart substream nested in the worksheet's) or a chart sheet (a substream of its own).
// xls-reader.ts feeds the records of each chart substream to a `BiffChartReader`, which keeps:
// - the series (SERIES, each followed by its BEGIN ... END block): its name as literal text
//   (SERIESTEXT) or as a reference to a cell, and the ranges its values and categories are read from
//   (BRAI records whose parsed formula is one 3-D or plain cell reference or area);
// - the chart's title: a TEXT block whose OBJECTLINK ties it to the chart (literal or a cell);
// - the data cache every chart substream ends with (SERIESDATA: SIINDEX, then NUMBER / LABEL /
//   BOOLERR records whose row is the point and whose column the series), which holds what the chart
//   shows even where its ranges point outside the workbook.
// `chartData` turns it into the same ChartData the xlsx and ods readers give (charts.ts): the cached
// points first, the referenced cells for a series without any. Series and points are capped as in
// charts.ts, with the `truncated` flag for the caller's warning.
import { MAX_CHART_ROWS, MAX_CHART_SERIES } from '../limits';
import type { ChartData } from './charts';

export const CHART_RT = {
  SERIES: 0x1003,
  SERIESTEXT: 0x100d,
  TEXT: 0x1025,
  OBJECTLINK: 0x1027,
  BEGIN: 0x1033,
  END: 0x1034,
  BRAI: 0x1051,
  SIINDEX: 0x1065,
  NUMBER: 0x0203,
  LABEL: 0x0204,
  BOOLERR: 0x0205,
} as const;

/** A cell or area a chart reads: on the sheet of XTI entry `ixti` (3-D), else on the chart's own sheet. */
export interface CellRef { ixti?: number; r0: number; r1: number; c0: number; c1: number }

interface RawSeries { name: string; nameRef?: CellRef; valsRef?: CellRef; catsRef?: CellRef }

export interface BiffChart {
  title: string;
  titleRef?: CellRef;
  series: RawSeries[];
  /** The data cache: series index → point index → text, for values and for categories. */
  vals: Map<number, Map<number, string>>;
  cats: Map<number, Map<number, string>>;
  truncated: boolean;
}

/** What the reader needs of a record: xls-reader.ts's bounds-checked cursor. */
export interface RecordCursor {
  readonly left: number;
  u8(): number;
  u16(): number;
  skip(n: number): void;
  bytes(n: number): Uint8Array;
}

/** A block opened by BEGIN: a series', a text's (title, axis or label), or another. */
interface Block { kind: 'series' | 'text' | 'other'; text?: string; textRef?: CellRef; link?: number }

export class BiffChartReader {
  readonly chart: BiffChart = { title: '', series: [], vals: new Map(), cats: new Map(), truncated: false };
  private blocks: Block[] = [];
  /** The kind of block the next BEGIN opens (set by SERIES and TEXT). */
  private opens: Block['kind'] = 'other';
  /** Which cache the data records go to (SIINDEX: 1 values, 2 categories, 3 bubble sizes). */
  private cache = 0;
  private current?: RawSeries;

  /**
   * One record of the chart substream. `str` reads a ShortXLUnicodeString and `long` an
   * XLUnicodeString; `num` renders a cached number (xf index given).
   */
  record(type: number, c: RecordCursor, read: { short(c: RecordCursor): string; long(c: RecordCursor): string; num(v: number, xf: number): string }): void {
    switch (type) {
      case CHART_RT.SERIES:
        this.opens = 'series';
        if (this.chart.series.length >= MAX_CHART_SERIES) { this.chart.truncated = true; this.current = undefined; }
        else this.chart.series.push((this.current = { name: '' }));
        return;
      case CHART_RT.TEXT:
        this.opens = 'text';
        return;
      case CHART_RT.BEGIN:
        if (this.blocks.length < 64) this.blocks.push({ kind: this.opens });
        this.opens = 'other';
        return;
      case CHART_RT.END: {
        const b = this.blocks.pop();
        // the chart's title: a text block linked to the chart (OBJECTLINK wLinkObj 1)
        if (b?.kind === 'text' && b.link === 1 && !this.chart.title && !this.chart.titleRef) {
          if (b.text) this.chart.title = b.text;
          else if (b.textRef) this.chart.titleRef = b.textRef;
        }
        if (b?.kind === 'series') this.current = undefined;
        return;
      }
      case CHART_RT.BRAI: {
        const id = c.u8();
        const rt = c.u8();
        c.skip(4); // grbit, ifmt
        const cce = c.u16();
        const ref = rt === 2 && cce > 0 && cce <= c.left ? parseRef(c.bytes(cce)) : undefined;
        if (!ref) return;
        const top = this.blocks[this.blocks.length - 1];
        if (top?.kind === 'series' && this.current) {
          if (id === 0) this.current.nameRef = ref;
          else if (id === 1) this.current.valsRef = ref;
          else if (id === 2) this.current.catsRef = ref;
        } else if (top?.kind === 'text' && id === 0) top.textRef = ref;
        return;
      }
      case CHART_RT.SERIESTEXT: {
        c.skip(2);
        const text = read.short(c).replace(/\s+/g, ' ').trim();
        const top = this.blocks[this.blocks.length - 1];
        if (top?.kind === 'series' && this.current) this.current.name = text;
        else if (top?.kind === 'text') top.text = text;
        return;
      }
      case CHART_RT.OBJECTLINK: {
        const top = this.blocks[this.blocks.length - 1];
        if (top?.kind === 'text') top.link = c.u16();
        return;
      }
      case CHART_RT.SIINDEX:
        this.cache = c.u16();
        return;
      case CHART_RT.NUMBER:
      case CHART_RT.LABEL:
      case CHART_RT.BOOLERR: {
        if (this.cache !== 1 && this.cache !== 2) return;
        const point = c.u16();
        const series = c.u16();
        const xf = c.u16();
        let text: string;
        if (type === CHART_RT.NUMBER) {
          const b = c.bytes(8);
          text = read.num(new DataView(b.buffer, b.byteOffset, 8).getFloat64(0, true), xf);
        } else if (type === CHART_RT.LABEL) text = read.long(c);
        else { const v = c.u8(); text = c.u8() === 1 ? '' : v ? 'True' : 'False'; }
        this.store(this.cache === 1 ? this.chart.vals : this.chart.cats, series, point, text.replace(/\s+/g, ' ').trim());
        return;
      }
    }
  }

  private store(cache: Map<number, Map<number, string>>, series: number, point: number, text: string): void {
    if (!text || series >= MAX_CHART_SERIES) return;
    let points = cache.get(series);
    if (!points) cache.set(series, (points = new Map()));
    if (points.size >= MAX_CHART_ROWS && !points.has(point)) { this.chart.truncated = true; return; }
    points.set(point, text);
  }
}

/** The one reference of a parsed formula: ptgRef3d, ptgArea3d, ptgRef or ptgArea (any class). */
function parseRef(f: Uint8Array): CellRef | undefined {
  const u16 = (o: number) => f[o]! | (f[o + 1]! << 8);
  const ptg = (f[0]! & 0x1f) | 0x20; // the reference class bits folded away
  const col = (v: number) => v & 0x3fff;
  if (ptg === 0x3a && f.length >= 7) return { ixti: u16(1), r0: u16(3), r1: u16(3), c0: col(u16(5)), c1: col(u16(5)) };
  if (ptg === 0x3b && f.length >= 11) return { ixti: u16(1), r0: u16(3), r1: u16(5), c0: col(u16(7)), c1: col(u16(9)) };
  if (ptg === 0x24 && f.length >= 5) return { r0: u16(1), r1: u16(1), c0: col(u16(3)), c1: col(u16(3)) };
  if (ptg === 0x25 && f.length >= 9) return { r0: u16(1), r1: u16(3), c0: col(u16(5)), c1: col(u16(7)) };
  return undefined;
}

/**
 * A chart's data: each series' cached points (by point index), or, for a series without a cache, the
 * cells its ranges point to; names and the title from their text or their cell. `cells(ref)` gives a
 * reference's cell texts in range order (empty where a cell is empty or the sheet is unknown).
 */
export function chartData(chart: BiffChart, cells: (ref: CellRef, limit: number) => string[]): ChartData {
  const fromRef = (ref: CellRef | undefined): Map<number, string> | undefined => {
    if (!ref) return undefined;
    const texts = cells(ref, MAX_CHART_ROWS + 1);
    const out = new Map<number, string>();
    texts.slice(0, MAX_CHART_ROWS).forEach((t, i) => { if (t) out.set(i, t); });
    if (texts.length > MAX_CHART_ROWS) chart.truncated = true;
    return out.size ? out : undefined;
  };
  const series = chart.series.map((s, k) => {
    const name = s.name || (s.nameRef ? cells(s.nameRef, 16).filter(Boolean).join(' ') : '');
    const vals = chart.vals.get(k) ?? fromRef(s.valsRef) ?? new Map<number, string>();
    const cats = chart.cats.get(k) ?? fromRef(s.catsRef);
    return cats ? { name, vals, cats } : { name, vals };
  });
  const title = chart.title || (chart.titleRef ? cells(chart.titleRef, 16).filter(Boolean).join(' ') : '');
  return { title, series, truncated: chart.truncated };
}

/** The positions of a reference in range order (row by row: down a column, along a row), at most `limit`. */
export function refCells(ref: CellRef, limit: number): [number, number][] {
  const out: [number, number][] = [];
  for (let r = ref.r0; r <= ref.r1 && out.length < limit; r++) {
    for (let c = ref.c0; c <= ref.c1 && out.length < limit; c++) out.push([r, c]);
  }
  return out;
}
