// Reads the text of a legacy PowerPoint 97-2003 file ([MS-PPT]) in JavaScript: the OLE compound file is
// opened with SheetJS's `cfb`, the "PowerPoint Document" stream is walked as records. The live
// objects are found the way PowerPoint does: Current User → the newest UserEditAtom → the chain of
// PersistDirectoryAtoms (newer edits win) → the DocumentContainer, whose SlideListWithText lists the
// slides (and notes) in order with their placeholder texts. Each slide's drawing gives its shapes
// (position from the client anchor; text inline in the client textbox, or an OutlineTextRefAtom
// pointing into the slide's SlideListWithText entry); the StyleTextPropAtom after a text gives each
// paragraph's indent level and explicit bullet flag. A table is a group of cell shapes whose group
// shape has table properties: its cells are put on a grid by their anchors (ppt-table.ts).
import CFB from 'cfb';
import { UnprocessableDocument } from '../../../errors';
import type { TableRows } from '../table-html';
import { pptTableRows, type PptCell } from './ppt-table';
import { slideReadingOrder } from './slide-order';

const RT = {
  Document: 0x03e8,
  Slide: 0x03ee,
  SlideAtom: 0x03ef,
  Notes: 0x03f0,
  SlidePersistAtom: 0x03f3,
  PPDrawing: 0x040c,
  OutlineTextRefAtom: 0x0f9e,
  TextHeaderAtom: 0x0f9f,
  TextCharsAtom: 0x0fa0,
  StyleTextPropAtom: 0x0fa1,
  TextBytesAtom: 0x0fa8,
  SlideListWithText: 0x0ff0,
  UserEditAtom: 0x0ff5,
  PersistDirectoryAtom: 0x1772,
  DgContainer: 0xf002,
  SpgrContainer: 0xf003,
  SpContainer: 0xf004,
  FSPGR: 0xf009,
  FSP: 0xf00a,
  FOPT: 0xf00b,
  TertiaryFOPT: 0xf122,
  ChildAnchor: 0xf00f,
  ClientAnchor: 0xf010,
  ClientTextbox: 0xf00d,
  ClientData: 0xf011,
  OEPlaceholderAtom: 0x0bc3,
} as const;

/** TextHeaderAtom text types ([MS-PPT] 2.13.33 TextTypeEnum). */
export const TEXT_TYPE = { title: 0, body: 1, notes: 2, other: 4, centerBody: 5, centerTitle: 6, halfBody: 7, quarterBody: 8 } as const;

export interface PptParagraph {
  text: string;
  level: number;
  /** The paragraph's own bullet flag; undefined when it inherits the master's. */
  bullet?: boolean;
}
export interface PptText {
  type: number;
  paragraphs: PptParagraph[];
  /** A table (a group shape with table properties): its cells' grid, and no paragraphs. */
  table?: TableRows;
}
export interface PptSlide {
  /** Texts of the slide's shapes, top to bottom, then left to right. */
  texts: PptText[];
  notes: PptText[];
}

interface Rec {
  type: number;
  instance: number;
  /** Offsets of the record's data in the stream. */
  start: number;
  end: number;
  container: boolean;
}

/** Records nested deeper than this are not read (real files nest about ten levels). */
const MAX_DEPTH = 32;

class Stream {
  constructor(readonly b: Uint8Array, private readonly view = new DataView(b.buffer, b.byteOffset, b.byteLength)) {}
  u16 = (o: number): number => (o + 2 <= this.b.length ? this.view.getUint16(o, true) : 0);
  u32 = (o: number): number => (o + 4 <= this.b.length ? this.view.getUint32(o, true) : 0);
  i16 = (o: number): number => (o + 2 <= this.b.length ? this.view.getInt16(o, true) : 0);
  i32 = (o: number): number => (o + 4 <= this.b.length ? this.view.getInt32(o, true) : 0);

  /** The record whose header is at `at`, or undefined when it does not fit in `limit`. */
  record(at: number, limit = this.b.length): Rec | undefined {
    if (at < 0 || at + 8 > limit) return undefined;
    const verInst = this.u16(at);
    const len = this.u32(at + 4);
    if (at + 8 + len > limit) return undefined;
    return { type: this.u16(at + 2), instance: verInst >> 4, start: at + 8, end: at + 8 + len, container: (verInst & 0xf) === 0xf };
  }

  children(parent: Rec): Rec[] {
    const out: Rec[] = [];
    for (let at = parent.start; ; ) {
      const r = this.record(at, parent.end);
      if (!r) break;
      out.push(r);
      at = r.end;
    }
    return out;
  }

  /** All records below `parent` (depth first, document order) of the given types. */
  find(parent: Rec, types: Set<number>, out: Rec[] = [], depth = 0): Rec[] {
    if (depth > MAX_DEPTH) return out;
    for (const c of this.children(parent)) {
      if (types.has(c.type)) out.push(c);
      else if (c.container) this.find(c, types, out, depth + 1);
    }
    return out;
  }
}

function streamOf(cfb: CFB.CFB$Container, name: string): Uint8Array | undefined {
  const e = CFB.find(cfb, name);
  const c = e?.content;
  return c && c.length ? (c instanceof Uint8Array ? c : Uint8Array.from(c)) : undefined;
}

/** persistId → stream offset, from the newest edit back (an id's newest offset wins). */
function persistDirectory(s: Stream, currentUser: Uint8Array | undefined): { dir: Map<number, number>; docRef?: number } {
  const dir = new Map<number, number>();
  const addDirectory = (rec: Rec): void => {
    for (let at = rec.start; at + 4 <= rec.end; ) {
      const head = s.u32(at);
      const id = head & 0xfffff;
      const n = head >>> 20;
      at += 4;
      for (let k = 0; k < n && at + 4 <= rec.end; k++, at += 4) if (!dir.has(id + k)) dir.set(id + k, s.u32(at));
    }
  };
  let edit = currentUser && currentUser.length >= 20 ? new DataView(currentUser.buffer, currentUser.byteOffset).getUint32(16, true) : -1;
  let docRef: number | undefined;
  const seen = new Set<number>();
  while (edit >= 0 && !seen.has(edit) && seen.size < 10_000) {
    seen.add(edit);
    const ue = s.record(edit);
    if (!ue || ue.type !== RT.UserEditAtom || ue.end - ue.start < 28) break;
    // an encryptSessionPersistIdRef after the fixed fields: the document streams are RC4-encrypted
    if (ue.end - ue.start >= 32) throw new UnprocessableDocument('ppt: the presentation is encrypted (password-protected)');
    docRef ??= s.u32(ue.start + 16);
    const pd = s.record(s.u32(ue.start + 12));
    if (pd?.type === RT.PersistDirectoryAtom) addDirectory(pd);
    const last = s.u32(ue.start + 8);
    edit = last > 0 ? last : -1;
  }
  if (dir.size) return { dir, docRef };
  // no usable edit chain: the top-level persist directories in stream order, later ones winning
  const top: Rec[] = [];
  for (let at = 0; ; ) {
    const r = s.record(at);
    if (!r) break;
    top.push(r);
    at = r.end;
  }
  for (const r of top.reverse()) if (r.type === RT.PersistDirectoryAtom) addDirectory(r);
  return { dir };
}

const decodeChars = (s: Stream, r: Rec): string => Buffer.from(s.b.subarray(r.start, r.end - ((r.end - r.start) % 2))).toString('utf16le');
// TextBytesAtom: each byte is the low byte of a UTF-16 code unit (so Latin-1)
const decodeBytes = (s: Stream, r: Rec): string => Buffer.from(s.b.subarray(r.start, r.end)).toString('latin1');

/** Paragraph runs of a StyleTextPropAtom: [chars covered, indent level, explicit bullet flag]. */
function paragraphRuns(s: Stream, r: Rec, textLength: number): [number, number, boolean | undefined][] {
  const runs: [number, number, boolean | undefined][] = [];
  let at = r.start;
  let covered = 0;
  // the runs cover the text plus one implicit paragraph mark
  while (covered < textLength + 1 && at + 10 <= r.end) {
    const count = s.u32(at);
    const level = s.u16(at + 4);
    const masks = s.u32(at + 6);
    at += 10;
    let bullet: boolean | undefined;
    if (masks & 0x000f) {
      const flags = s.u16(at);
      if (masks & 0x1) bullet = (flags & 0x1) === 1;
      at += 2;
    }
    // the optional fields of a TextPFException, in order ([MS-PPT] 2.9.18), sized by their mask bits
    const sizes: [number, number][] = [[0x80, 2], [0x10, 2], [0x40, 2], [0x20, 4], [0x800, 2], [0x1000, 2], [0x2000, 2], [0x4000, 2], [0x100, 2], [0x400, 2], [0x8000, 2]];
    for (const [bit, size] of sizes) if (masks & bit) at += size;
    if (masks & 0x100000) at += 2 + 4 * s.u16(at);
    if (masks & 0x10000) at += 2;
    if (masks & 0xe0000) at += 2;
    if (masks & 0x200000) at += 2;
    if (at > r.end || count === 0) break;
    runs.push([count, Math.min(level, 8), bullet]);
    covered += count;
  }
  return runs;
}

function makeText(s: Stream, type: number, chars: Rec, style: Rec | undefined, raw: string): PptText {
  void chars;
  const runs = style ? paragraphRuns(s, style, raw.length) : [];
  const paragraphs: PptParagraph[] = [];
  let offset = 0;
  let run = 0;
  let runEnd = runs[0]?.[0] ?? Infinity;
  for (const part of raw.split('\r')) {
    while (run < runs.length - 1 && offset >= runEnd) runEnd += runs[++run]![0];
    const [, level, bullet] = runs[run] ?? [0, 0, undefined];
    // vertical tab is a line break inside a paragraph
    paragraphs.push({ text: part.replace(/\u000b/g, '\n'), level, bullet });
    offset += part.length + 1;
  }
  return { type, paragraphs };
}

/** The texts (TextHeaderAtom + chars/bytes + optional StyleTextPropAtom) among sibling records. */
function textsIn(s: Stream, recs: Rec[]): PptText[] {
  const out: PptText[] = [];
  let type = TEXT_TYPE.other as number;
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i]!;
    if (r.type === RT.TextHeaderAtom) type = s.u32(r.start);
    else if (r.type === RT.TextCharsAtom || r.type === RT.TextBytesAtom) {
      const raw = r.type === RT.TextCharsAtom ? decodeChars(s, r) : decodeBytes(s, r);
      const next = recs[i + 1];
      out.push(makeText(s, type, r, next?.type === RT.StyleTextPropAtom ? next : undefined, raw));
    }
  }
  return out;
}

/** Texts of a slide's (or notes page's) shapes, ordered by position; outline refs resolved; tables as grids. */
function drawingTexts(s: Stream, container: Rec, outline: PptText[]): PptText[] {
  const used = new Set<number>();
  const drawing = s.children(container).find((c) => c.type === RT.PPDrawing);
  const items: Shape[] = [];
  if (drawing) shapesIn(s, drawing, items, 0);
  const placed = placeShapes(s, items, outline, used, 0, SAME_ROW);
  // placeholder texts no shape refers to (some writers keep text only in the slide list) come first
  const loose = outline.filter((_, k) => !used.has(k));
  return [...loose, ...placed];
}

/** A shape, or a group (its group shape first, for its anchor). */
interface Shape {
  sp: Rec;
  group?: Rec;
}

/** Tops this close (master units, 576 an inch: a twentieth of an inch) are one row, read left to right (as pptx and odp). */
const SAME_ROW = 28.8;

/**
 * The texts of shapes sorted top to bottom, then left to right (tops `sameRow` apart or less are one
 * row); a group at its own anchor, its members sorted inside it.
 */
function placeShapes(s: Stream, items: Shape[], outline: PptText[], used: Set<number>, depth: number, sameRow: number): PptText[] {
  const placed: { pos: [number, number]; i: number; texts: PptText[] }[] = [];
  items.forEach(({ sp, group }, i) => {
    const { top, left, bottom, texts, furniture } = shapeTexts(s, sp, outline, used);
    if (!group) {
      if (texts.length && !furniture) placed.push({ pos: [top, left], i, texts });
      return;
    }
    const table = hasProperty(s, sp, TABLE_PROPERTIES) ? tableOf(s, group, outline, used) : undefined;
    if (table) placed.push({ pos: [top, left], i, texts: [table] });
    else if (depth < MAX_DEPTH) {
      // a group's shapes (cells that make no grid included) in the group's own coordinates (FSPGR), the row tolerance scaled alike
      const inner: Shape[] = [];
      shapesIn(s, group, inner, depth + 1);
      const members = inner.filter((m) => m.sp.start !== sp.start);
      const fspgr = s.children(sp).find((c) => c.type === RT.FSPGR && c.end - c.start >= 16);
      const childHeight = fspgr ? s.i32(fspgr.start + 12) - s.i32(fspgr.start + 4) : 0;
      const inside = childHeight > 0 && bottom > top ? (sameRow * childHeight) / (bottom - top) : sameRow;
      placed.push({ pos: [top, left], i, texts: placeShapes(s, members, outline, used, depth + 1, inside) });
    }
  });
  return slideReadingOrder(placed, sameRow).flatMap((p) => p.texts);
}

/**
 * The shapes of a drawing or group in document order. The drawing's top group is read through; a group
 * inside it is one item (its group shape, which carries its anchor and, for a table, the table properties).
 */
function shapesIn(s: Stream, parent: Rec, out: Shape[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const c of s.children(parent)) {
    if (c.type === RT.SpgrContainer && parent.type !== RT.DgContainer && parent.type !== RT.PPDrawing) {
      const first = s.children(c)[0];
      if (first?.type === RT.SpContainer) out.push({ sp: first, group: c });
      else shapesIn(s, c, out, depth + 1);
    } else if (c.type === RT.SpContainer) out.push({ sp: c });
    else if (c.container) shapesIn(s, c, out, depth + 1);
  }
}

/** [MS-ODRAW] tableProperties: set on the group shape of a PowerPoint table. */
const TABLE_PROPERTIES = 0x03a0;
/** [MS-ODRAW] msosptLine: a table's borders are line shapes among its cells. */
const SHAPE_LINE = 20;

function hasProperty(s: Stream, sp: Rec, id: number): boolean {
  for (const c of s.children(sp)) {
    if (c.type !== RT.FOPT && c.type !== RT.TertiaryFOPT) continue;
    for (let k = 0, at = c.start; k < c.instance && at + 6 <= c.end; k++, at += 6) if ((s.u16(at) & 0x3fff) === id) return true;
  }
  return false;
}

/**
 * [MS-PPT] PlaceholderEnum: the date, slide number, footer and header placeholders a slide repeats from
 * its master (their text a "*" standing for a field, or the same footer on every slide): left out, as
 * the PPTX partitioner leaves out dt, sldNum, ftr and hdr placeholders.
 */
const FURNITURE_PLACEHOLDERS = new Set([0x07, 0x08, 0x09, 0x0a]);

/** A shape's position (client anchor, or child anchor inside a group), text, and whether it is a slide's furniture. */
function shapeTexts(s: Stream, sp: Rec, outline: PptText[], used: Set<number>): { top: number; left: number; bottom: number; right: number; texts: PptText[]; line: boolean; furniture: boolean } {
  let furniture = false;
  let top = 0;
  let left = 0;
  let bottom = 0;
  let right = 0;
  let line = false;
  let texts: PptText[] = [];
  for (const c of s.children(sp)) {
    if (c.type === RT.FSP) line = c.instance === SHAPE_LINE;
    else if (c.type === RT.ClientAnchor) {
      const small = c.end - c.start < 16;
      top = small ? s.i16(c.start) : s.i32(c.start);
      left = small ? s.i16(c.start + 2) : s.i32(c.start + 4);
      right = small ? s.i16(c.start + 4) : s.i32(c.start + 8);
      bottom = small ? s.i16(c.start + 6) : s.i32(c.start + 12);
    } else if (c.type === RT.ChildAnchor && c.end - c.start >= 16) {
      left = s.i32(c.start);
      top = s.i32(c.start + 4);
      right = s.i32(c.start + 8);
      bottom = s.i32(c.start + 12);
    } else if (c.type === RT.ClientData) {
      const ph = s.children(c).find((x) => x.type === RT.OEPlaceholderAtom && x.end - x.start >= 5);
      furniture = !!ph && FURNITURE_PLACEHOLDERS.has(s.b[ph.start + 4]!);
    } else if (c.type === RT.ClientTextbox) {
      const inner = s.children(c);
      const ref = inner.find((x) => x.type === RT.OutlineTextRefAtom);
      if (ref) {
        const k = s.u32(ref.start);
        const t = outline[k];
        if (t) {
          texts = [t];
          used.add(k);
        }
      } else texts = textsIn(s, inner);
    }
  }
  return { top, left, bottom, right, texts, line, furniture };
}

/** A table group's cells (its shapes other than the group shape and the border lines) as a grid. */
function tableOf(s: Stream, group: Rec, outline: PptText[], used: Set<number>): PptText | undefined {
  const cells: PptCell[] = [];
  for (const sp of s.children(group).slice(1)) {
    if (sp.type !== RT.SpContainer) continue;
    const t = shapeTexts(s, sp, outline, used);
    if (t.line) continue;
    const text = t.texts.flatMap((x) => x.paragraphs.map((p) => p.text.trim())).filter(Boolean).join('\n');
    cells.push({ top: t.top, left: t.left, bottom: t.bottom, right: t.right, text });
  }
  const rows = pptTableRows(cells);
  return rows ? { type: TEXT_TYPE.other, paragraphs: [], table: rows } : undefined;
}

/** Slide list entries: [persistIdRef, slideId, the entry's texts]. */
function slideList(s: Stream, list: Rec | undefined): { ref: number; id: number; texts: PptText[] }[] {
  if (!list) return [];
  const out: { ref: number; id: number; texts: PptText[] }[] = [];
  let pending: Rec[] = [];
  const kids = s.children(list);
  const flush = (): void => {
    const last = out[out.length - 1];
    if (last) last.texts = textsIn(s, pending);
    pending = [];
  };
  for (const r of kids) {
    if (r.type === RT.SlidePersistAtom) {
      flush();
      out.push({ ref: s.u32(r.start), id: s.u32(r.start + 12), texts: [] });
    } else pending.push(r);
  }
  flush();
  return out;
}

export function readPpt(data: Uint8Array): PptSlide[] {
  let cfb: CFB.CFB$Container;
  try {
    cfb = CFB.read(data, { type: 'buffer' });
  } catch (err) {
    throw new UnprocessableDocument(`ppt: not a readable OLE compound file (${(err as Error).message})`);
  }
  const doc = streamOf(cfb, 'PowerPoint Document');
  if (!doc) throw new UnprocessableDocument('ppt: the "PowerPoint Document" stream is missing (not a PowerPoint 97-2003 file?)');
  if (CFB.find(cfb, 'EncryptedSummary')) throw new UnprocessableDocument('ppt: the presentation is encrypted (password-protected)');
  const s = new Stream(doc);
  const { dir, docRef } = persistDirectory(s, streamOf(cfb, 'Current User'));
  let document = docRef !== undefined && dir.has(docRef) ? s.record(dir.get(docRef)!) : undefined;
  if (document?.type !== RT.Document) {
    // the newest DocumentContainer at the top level of the stream
    document = undefined;
    for (let at = 0; ; ) {
      const r = s.record(at);
      if (!r) break;
      if (r.type === RT.Document) document = r;
      at = r.end;
    }
  }
  if (!document) throw new UnprocessableDocument('ppt: no document container found (not a PowerPoint 97-2003 file?)');
  const lists = s.children(document).filter((c) => c.type === RT.SlideListWithText);
  const slides = slideList(s, lists.find((l) => l.instance === 0));
  const notes = new Map(slideList(s, lists.find((l) => l.instance === 2)).map((n) => [n.id, n]));
  const objectAt = (ref: number, type: number): Rec | undefined => {
    const off = dir.get(ref);
    const r = off === undefined ? undefined : s.record(off);
    return r?.type === type ? r : undefined;
  };
  return slides.map((entry) => {
    const slide = objectAt(entry.ref, RT.Slide);
    if (!slide) return { texts: entry.texts, notes: [] };
    const atom = s.children(slide).find((c) => c.type === RT.SlideAtom);
    const notesEntry = atom ? notes.get(s.u32(atom.start + 16)) : undefined;
    const notesRec = notesEntry ? objectAt(notesEntry.ref, RT.Notes) : undefined;
    return {
      texts: drawingTexts(s, slide, entry.texts),
      notes: notesRec ? drawingTexts(s, notesRec, notesEntry!.texts).filter((t) => t.type === TEXT_TYPE.notes) : [],
    };
  });
}
