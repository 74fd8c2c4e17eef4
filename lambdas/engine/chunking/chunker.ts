// The chunking core, following the library's two phases:
// 1. pre-chunking: sequential elements are gathered into pre-chunks that fit the window (hard max,
//    soft max) and respect the strategy's semantic boundaries (Title for by_title, page change for
//    by_page and for by_title without multipage_sections, a similarity drop for by_similarity). A table
//    always sits alone in its pre-chunk; by_title then recombines small neighbouring pre-chunks
//    (combine_text_under_n_chars).
// 2. chunk formation: a text pre-chunk becomes one CompositeElement (element texts whitespace-
//    normalised and joined by a blank line), or several when a single oversized element must be
//    text-split (is_continuation on the later ones); a table pre-chunk becomes a Table when it fits,
//    else TableChunks split on row, then cell, then word boundaries, each with its own HTML.
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../errors';
import { sha256Hex, type Element, type ElementMetadata } from '../elements';
import { cosineSimilarity } from '../embedding/hashed';
import { parseHtmlTable, headerRowHtml, type HtmlCell, type HtmlRow, type HtmlTable } from './html-table';
import { consolidateMetadata, DROPPED_FIELDS } from './metadata';
import type { ResolvedOptions } from './options';
import { normalizeWhitespace, pyStrip, splitText } from './text';

const SEPARATOR = '\n\n';

function isTableFamily(e: Element): boolean {
  return e.type === 'Table' || e.type === 'TableChunk';
}

// ------------------------------------------------------------------------------------------------
// Pre-chunks
// ------------------------------------------------------------------------------------------------

/** Normalised element texts, computed once per element per chunking run. */
type NormCache = Map<Element, string>;

function normalizedText(e: Element, cache: NormCache): string {
  let t = cache.get(e);
  if (t === undefined) {
    t = !e.text ? '' : e.type === 'CodeSnippet' ? e.text : normalizeWhitespace(e.text);
    cache.set(e, t);
  }
  return t;
}

class PreChunk {
  private textCache: string | undefined;
  /** Sum of lengths and count of the non-empty normalised element texts (no overlap prefix). */
  readonly segLen: number;
  readonly segCount: number;
  /** Holds a table (tables always sit alone in their pre-chunk). */
  readonly tableOnly: boolean;
  constructor(
    readonly elements: Element[],
    readonly overlapPrefix: string,
    readonly cache: NormCache,
  ) {
    this.tableOnly = elements.some(isTableFamily);
    let len = 0;
    let count = 0;
    for (const e of elements) {
      const t = normalizedText(e, cache);
      if (t) {
        len += t.length;
        count += 1;
      }
    }
    this.segLen = len;
    this.segCount = count;
  }

  private static joinedLength(prefix: string, segLen: number, segCount: number): number {
    const n = segCount + (prefix ? 1 : 0);
    return prefix.length + segLen + (n > 1 ? (n - 1) * SEPARATOR.length : 0);
  }

  /** Element texts (whitespace-normalised, CodeSnippet kept verbatim) joined by a blank line. */
  get text(): string {
    if (this.textCache === undefined) {
      const segs: string[] = [];
      if (this.overlapPrefix) segs.push(this.overlapPrefix);
      for (const e of this.elements) {
        const t = normalizedText(e, this.cache);
        if (t) segs.push(t);
      }
      this.textCache = segs.join(SEPARATOR);
    }
    return this.textCache;
  }

  get textLength(): number {
    return PreChunk.joinedLength(this.overlapPrefix, this.segLen, this.segCount);
  }

  overlapTail(o: ResolvedOptions): string {
    const n = o.interChunkOverlap;
    return n ? pyStrip(this.text.slice(-n)) : '';
  }

  /**
   * Whether `next` may join a run of pre-chunks headed by this one whose element texts total
   * `segLen` characters in `segCount` segments (the run as one pre-chunk, as the library combines).
   */
  canCombineTotals(segLen: number, segCount: number, next: PreChunk, o: ResolvedOptions): boolean {
    if (this.tableOnly || next.tableOnly) return false;
    if (PreChunk.joinedLength(this.overlapPrefix, segLen, segCount) >= o.combineUnder) return false;
    return PreChunk.joinedLength(this.overlapPrefix, segLen + next.segLen, segCount + next.segCount) <= o.hardMax;
  }
}

/** Accumulates elements into a pre-chunk (the library's PreChunkBuilder, character mode). */
class PreChunkBuilder {
  private elements: Element[] = [];
  private overlapPrefix = '';
  private segments = 0;
  private textLen = 0;

  constructor(
    private readonly o: ResolvedOptions,
    private readonly cache: NormCache,
  ) {}

  get isEmpty(): boolean {
    return this.elements.length === 0;
  }

  add(e: Element): void {
    if (this.elements.length === 0 && isTableFamily(e)) {
      // -- a table-only pre-chunk gets no narrative overlap from the prior chunk --
      this.overlapPrefix = '';
      this.segments = 0;
      this.textLen = 0;
    }
    this.elements.push(e);
    if (e.text) {
      this.segments += 1;
      this.textLen += e.text.length;
    }
  }

  willFit(e: Element): boolean {
    if (isTableFamily(e)) return this.elements.length === 0;
    if (this.elements.length === 1 && isTableFamily(this.elements[0]!)) return false;
    if (this.elements.length === 0) return true;
    const textLength = this.textLen + (this.segments > 1 ? (this.segments - 1) * SEPARATOR.length : 0);
    if (textLength > this.o.softMax) return false;
    const remaining = this.o.hardMax - this.textLen - SEPARATOR.length * this.segments;
    return remaining >= (e.text ? e.text.length : 0);
  }

  flush(): PreChunk | undefined {
    if (this.elements.length === 0) return undefined;
    const pc = new PreChunk(this.elements, this.overlapPrefix, this.cache);
    let tail = pc.overlapTail(this.o);
    if (this.elements.length === 1 && isTableFamily(this.elements[0]!)) tail = '';
    this.elements = [];
    this.overlapPrefix = tail;
    this.segments = tail ? 1 : 0;
    this.textLen = tail.length;
    return pc;
  }
}

type Boundary = (e: Element, index: number) => boolean;

function pageBoundary(): Boundary {
  let current = 1;
  let first = true;
  return (e) => {
    const p = e.metadata.page_number;
    if (first) {
      current = p ?? 1;
      first = false;
      return false;
    }
    if (p === undefined || p === null || p === current) return false;
    current = p;
    return true;
  };
}

/** Element vectors for by_similarity, index-aligned with the input (undefined for empty text). */
export type ElementVectors = (ArrayLike<number> | undefined)[];

function buildPreChunks(elements: readonly Element[], o: ResolvedOptions, cache: NormCache, vectors?: ElementVectors): PreChunk[] {
  const boundaries: Boundary[] = [];
  if (o.strategy === 'by_title') {
    boundaries.push((e) => e.type === 'Title');
    if (!o.multipageSections) boundaries.push(pageBoundary());
  } else if (o.strategy === 'by_page') {
    boundaries.push(pageBoundary());
  }
  // -- by_similarity: compare each element with the centroid of the open pre-chunk --
  let centroid: Float64Array | undefined;
  let centroidCount = 0;
  const useSimilarity = o.strategy === 'by_similarity' && vectors !== undefined;

  const out: PreChunk[] = [];
  const b = new PreChunkBuilder(o, cache);
  const flush = () => {
    const pc = b.flush();
    if (pc) out.push(pc);
    centroid = undefined;
    centroidCount = 0;
  };
  for (let i = 0; i < elements.length; i++) {
    const e = elements[i]!;
    // -- every predicate runs (they keep state, e.g. the current page) --
    let boundary = false;
    for (const pred of boundaries) if (pred(e, i)) boundary = true;
    const vec = useSimilarity ? vectors![i] : undefined;
    if (vec && centroid && centroidCount > 0 && cosineSimilarity(vec, centroid) < o.similarityThreshold) boundary = true;
    if (boundary || !b.willFit(e)) flush();
    b.add(e);
    if (vec) {
      centroid ??= new Float64Array(vec.length);
      for (let k = 0; k < vec.length && k < centroid.length; k++) centroid[k] = centroid[k]! + vec[k]!;
      centroidCount += 1;
    }
  }
  flush();
  return out;
}

function combinePreChunks(preChunks: PreChunk[], o: ResolvedOptions): PreChunk[] {
  if (o.combineUnder <= 0) return preChunks;
  const out: PreChunk[] = [];
  // -- a run of combinable pre-chunks is gathered first and built once (no copy per merge) --
  let run: PreChunk[] = [];
  let segLen = 0;
  let segCount = 0;
  const close = () => {
    if (run.length === 1) out.push(run[0]!);
    else if (run.length > 1) out.push(new PreChunk(run.flatMap((pc) => pc.elements), run[0]!.overlapPrefix, run[0]!.cache));
    run = [];
  };
  for (const pc of preChunks) {
    const head = run[0];
    if (head && !head.canCombineTotals(segLen, segCount, pc, o)) close();
    if (!run.length) {
      segLen = 0;
      segCount = 0;
    }
    run.push(pc);
    segLen += pc.segLen;
    segCount += pc.segCount;
  }
  close();
  return out;
}

// ------------------------------------------------------------------------------------------------
// Chunk formation
// ------------------------------------------------------------------------------------------------

function chunkElement(type: string, text: string, metadata: ElementMetadata): Element {
  return { type, element_id: '', text, metadata };
}

/** Chunks plus, index-aligned, the source elements of each (one shared array per pre-chunk). */
export interface ChunkOutput {
  chunks: Element[];
  sources: Element[][];
}

/** Adds one chunk; a document may give at most `o.maxChunks` (a tiny window on a big text is refused, not run). */
function push(out: ChunkOutput, chunk: Element, sources: Element[], o: ResolvedOptions): void {
  if (out.chunks.length >= o.maxChunks) {
    throw ValidationError.single(
      ['max_characters'],
      `Chunking with max_characters=${o.hardMax}${o.overlap ? ` and overlap=${o.overlap}` : ''} gives more than ${o.maxChunks.toLocaleString('en-US')} chunks for one document: raise max_characters (or lower overlap)`,
      'value_error',
    );
  }
  out.chunks.push(chunk);
  out.sources.push(sources);
}

/** Chunk formation yields after each chunk, so a caller can give the event loop a turn now and then. */
function* textChunks(pc: PreChunk, o: ResolvedOptions, out: ChunkOutput): Generator<void> {
  const text = pc.text;
  if (!text) return;
  const md = consolidateMetadata(pc.elements.map((e) => e.metadata));
  let first = true;
  for (const s of splitText(text, o.hardMax, o.overlap)) {
    push(out, chunkElement('CompositeElement', s, first ? md : { ...md, is_continuation: true }), pc.elements, o);
    first = false;
    yield;
  }
}

const NOT_ON_TABLE_CHUNKS = new Set([...DROPPED_FIELDS, 'text_as_html', 'orig_elements']);

/** The table's metadata without dropped fields; lists copied, nested objects cloned (the input is never mutated). */
function tableBaseMetadata(table: Element): ElementMetadata {
  const md: ElementMetadata = {};
  for (const k in table.metadata) {
    if (NOT_ON_TABLE_CHUNKS.has(k)) continue;
    const v = table.metadata[k];
    md[k] = Array.isArray(v) ? v.slice() : v !== null && typeof v === 'object' ? structuredClone(v) : v;
  }
  return md;
}

type TextAndHtml = [string, string | undefined];

function* tableChunks(pc: PreChunk, o: ResolvedOptions, out: ChunkOutput): Generator<void> {
  const table = pc.elements[0]!;
  // -- a table of whitespace only gives no chunk (pyStrip is empty exactly when normalising is) --
  const body = table.text ? pyStrip(table.text) : '';
  if (!body) return;
  const textWithOverlap = pc.overlapPrefix ? `${pc.overlapPrefix}\n${body}` : body;
  const rawHtml = table.metadata.text_as_html;
  const parsed = typeof rawHtml === 'string' && rawHtml.trim() ? parseHtmlTable(rawHtml) : undefined;
  const html = parsed && parsed.rows.length ? parsed.html : '';
  const base = tableBaseMetadata(table);
  const sources = [table];

  if (textWithOverlap.length <= o.hardMax && html.length <= o.hardMax) {
    const md = base;
    if (html) md.text_as_html = html;
    push(out, chunkElement('Table', textWithOverlap, md), sources, o);
    return;
  }

  let pairs: Iterable<TextAndHtml>;
  let carried = 0;
  if (!html || o.hardMax < 50) {
    pairs = (function* () {
      for (const s of splitText(textWithOverlap, o.hardMax, o.overlap)) yield [s, undefined] as TextAndHtml;
    })();
  } else {
    const splitter = new HtmlTableSplitter(parsed!, o);
    carried = splitter.carriedHeaderRows;
    pairs = splitter.subtables();
  }
  const tableId = o.uniqueElementIds ? randomUUID() : uuidFromHash(`${table.element_id}:table_id`);
  let index = 0;
  for (const [text, chunkHtml] of pairs) {
    const md: ElementMetadata = { ...base };
    if (chunkHtml !== undefined) md.text_as_html = chunkHtml;
    if (index > 0) md.is_continuation = true;
    md.num_carried_over_header_rows = index > 0 ? carried : 0;
    md.table_id = tableId;
    md.chunk_index = index;
    push(out, chunkElement('TableChunk', text, md), sources, o);
    index += 1;
    yield;
  }
}

function uuidFromHash(s: string): string {
  const h = sha256Hex(s);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Splits a parsed table into (text, html) pairs of whole rows, then whole cells, then words. */
class HtmlTableSplitter {
  private readonly headerRows: HtmlRow[];
  private readonly repeat: boolean;
  private readonly headerText: string;
  private readonly headerHtml: string;

  constructor(
    private readonly table: HtmlTable,
    private readonly o: ResolvedOptions,
  ) {
    const headers: HtmlRow[] = [];
    if (o.repeatTableHeaders) for (const r of table.rows) {
      if (!r.isHeader) break;
      headers.push(r);
    }
    this.headerRows = headers;
    const maxHeaderLen = headers.reduce((m, r) => Math.max(m, r.text.length), 0);
    this.repeat = headers.length > 0 && maxHeaderLen <= Math.floor((o.hardMax + 1) / 2);
    this.headerText = headers.map((r) => r.text).filter(Boolean).join(' ');
    this.headerHtml = `<thead>${headers.map(headerRowHtml).join('')}</thead>`;
  }

  get carriedHeaderRows(): number {
    return this.repeat ? this.headerRows.length : 0;
  }

  private maxlen(first: boolean): number {
    if (first || !this.repeat) return this.o.hardMax;
    return Math.max(1, this.o.hardMax - this.headerText.length - 1);
  }

  private decorate([text, html]: [string, string], first: boolean): TextAndHtml {
    if (first || !this.repeat) return [text, html];
    const h = this.headerText;
    const t = h && text ? `${h} ${text}` : h || text;
    const inner = html.slice('<table>'.length, html.length - '</table>'.length);
    return [t, `<table>${this.headerHtml}${inner}</table>`];
  }

  *subtables(): Generator<TextAndHtml> {
    let first = true;
    let rows: HtmlRow[] = [];
    let rowsLen = 0;
    let maxlen = this.maxlen(true);
    const fits = (r: HtmlRow) => maxlen - rows.length - rowsLen >= r.text.length;
    const flushRows = (): [string, string] | undefined => {
      if (!rows.length) return undefined;
      const pair: [string, string] = [
        rows.map((r) => r.text).filter(Boolean).join(' '),
        `<table>${rows.map((r) => r.html).join('')}</table>`,
      ];
      rows = [];
      rowsLen = 0;
      return pair;
    };
    for (const row of this.table.rows) {
      if (!fits(row)) {
        const p = flushRows();
        if (p) {
          yield this.decorate(p, first);
          first = false;
        }
        maxlen = this.maxlen(first);
      }
      if (fits(row)) {
        rows.push(row);
        rowsLen += row.text.length;
      } else {
        for (const p of this.rowSplits(row, maxlen)) {
          yield this.decorate(p, first);
          first = false;
        }
        maxlen = this.maxlen(first);
      }
    }
    const p = flushRows();
    if (p) yield this.decorate(p, first);
  }

  private *rowSplits(row: HtmlRow, maxlen: number): Generator<[string, string]> {
    let cells: HtmlCell[] = [];
    let cellsLen = 0;
    const fits = (c: HtmlCell) => maxlen - cells.length - cellsLen >= c.text.length;
    const flushCells = (): [string, string] | undefined => {
      if (!cells.length) return undefined;
      const pair: [string, string] = [
        cells.map((c) => c.text).filter(Boolean).join(' '),
        `<table><tr>${cells.map((c) => c.html).join('')}</tr></table>`,
      ];
      cells = [];
      cellsLen = 0;
      return pair;
    };
    for (const cell of row.cells) {
      if (!fits(cell)) {
        const p = flushCells();
        if (p) yield p;
      }
      if (fits(cell)) {
        cells.push(cell);
        cellsLen += cell.text.length;
      } else {
        for (const t of splitText(cell.text, Math.max(1, maxlen - 33), 0)) {
          yield [t, `<table><tr><td>${escape(t)}</td></tr></table>`];
        }
      }
    }
    const p = flushCells();
    if (p) yield p;
  }
}

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Runs both phases over `elements` with resolved options. Ids are left empty and `orig_elements`
 * unset: the caller attaches them (see orig-elements.ts), synchronously or off the main thread.
 */
export function chunkCore(elements: readonly Element[], o: ResolvedOptions, vectors?: ElementVectors): ChunkOutput {
  const out: ChunkOutput = { chunks: [], sources: [] };
  for (const _ of chunkSteps(elements, o, out, vectors));
  return out;
}

/**
 * As chunkCore, giving the event loop a turn every `sliceMs` of work: a document that legitimately
 * makes tens of thousands of chunks must not hold every other request of the process for seconds.
 */
export async function chunkCoreAsync(elements: readonly Element[], o: ResolvedOptions, vectors?: ElementVectors, sliceMs = 20): Promise<ChunkOutput> {
  const out: ChunkOutput = { chunks: [], sources: [] };
  let since = Date.now();
  for (const _ of chunkSteps(elements, o, out, vectors)) {
    if (Date.now() - since >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      since = Date.now();
    }
  }
  return out;
}

function* chunkSteps(elements: readonly Element[], o: ResolvedOptions, out: ChunkOutput, vectors?: ElementVectors): Generator<void> {
  const cache: NormCache = new Map();
  let preChunks = buildPreChunks(elements, o, cache, vectors);
  if (o.strategy === 'by_title') preChunks = combinePreChunks(preChunks, o);
  yield;
  for (const pc of preChunks) {
    if (pc.elements.length === 1 && isTableFamily(pc.elements[0]!)) yield* tableChunks(pc, o, out);
    else yield* textChunks(pc, o, out);
  }
}
