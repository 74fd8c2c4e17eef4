// Paragraph styles and list membership of a legacy Word (.doc, Word 97-2003) document, read from its
// binary structures ([MS-DOC]): the piece table (Clx) gives the text and where each character lies in
// the WordDocument stream; the paragraph property pages (PlcfBtePapx → PapxFkp) give each paragraph's
// style index (istd) and its own properties (sprms): list (sprmPIlfo, sprmPIlvl), outline level
// (sprmPOutLvl), in a table (sprmPFInTable), a table row's cells at its end mark (sprmTDefTable's edges
// and merges, sprmTVertMerge); the character property pages (PlcBteChpx → ChpxFkp) the text a tracked
// change deleted (sprmCFRMarkDel), left out as the text reader leaves it out, symbol fonts and the
// Data stream's form field data (a check box's state); PlcSpaMom the floating
// shapes anchored in a paragraph, PlcftxbxTxt the shape each text box belongs to. The stylesheet (STSH)
// gives style names, their basedOn chain and the list or outline level a style sets itself. The text
// reader (word-extractor) has none of this; doc.ts reads the body from these paragraphs when they hold
// the reader's text, and otherwise matches them to its text in order.
// Every read is bounds-checked: a damaged or hostile file yields fewer paragraphs (or none), never an
// error, and the partitioner falls back to the text heuristics for what is not found.
import CFB from 'cfb';
import { characterRuns, checkBoxState, fontNames, forEachSprm, papxRuns, readPieces, shapeAnchors, textBoxSpans, type CharProps } from './doc-binary';
import { symbolChar } from './symbol-fonts';
import { alongStyleChain, windows1252 } from './common';
import type { EdgeCell } from '../table-html';

export interface DocParagraph {
  /** Text as shown (fields reduced to their results, symbols as their characters), without the paragraph mark. */
  text: string;
  /** The text as stored, where it differs from `text` (a symbol font's codes): what the text reader gives. */
  stored?: string;
  /** Heading depth (0 = Title or heading 1), from the style chain or the paragraph's outline level. */
  headingDepth?: number;
  /** Set when the paragraph is numbered or bulleted (a list, through the paragraph or its style). */
  listLevel?: number;
  inTable: boolean;
  /** Ends a table cell (Word's cell mark) rather than a paragraph inside one. */
  cellEnd?: boolean;
  /** A table row's end mark: the row's cells as sprmTDefTable defines them (right edges, merges). */
  row?: EdgeCell[];
  /** How deep in tables it lies (sprmPItap): 1 in a table, 2 in a table nested in a cell, ... */
  tableDepth?: number;
  /** The ids of the floating shapes anchored in it (main text). */
  shapes?: number[];
  /** The id of the shape whose text box it belongs to (text boxes' story). */
  box?: number;
}

/** A table row of the main text: its cells' text and, when its end mark defines them, its cells. */
export interface DocTableRow {
  cells: string[];
  defs?: EdgeCell[];
}

interface Style {
  name: string;
  sti: number;
  base?: number;
  ilfo?: number;
  ilvl?: number;
  outLvl?: number;
}

/** A document with more paragraphs than this is read by the heuristics alone. */
const MAX_PARAGRAPHS = 200_000;

const SPRM_P_ILFO = 0x460b;
const SPRM_P_ILVL = 0x260a;
const SPRM_P_OUTLVL = 0x2640;
const SPRM_P_FINTABLE = 0x2416;
const SPRM_P_ITAP = 0x6649;
const SPRM_P_FINNER_TABLE_CELL = 0x244b;
const SPRM_P_FINNER_TTP = 0x244c;
const SPRM_T_DEF_TABLE = 0xd608;
const SPRM_T_VERT_MERGE = 0xd62b;
/** Cells a row defines at most (Word allows 63). */
const MAX_ROW_CELLS = 1000;

/** The styles and lists of the paragraphs of the main text, or [] when the file cannot be read so. */
export function docParagraphs(data: Uint8Array, story: Story = 'main'): DocParagraph[] {
  try {
    return readParagraphs(data, story);
  } catch {
    return [];
  }
}

/** The main text, or the text boxes' story (all the main text's text boxes, one after another). */
export type Story = 'main' | 'textboxes';

function readParagraphs(data: Uint8Array, story: Story): DocParagraph[] {
  const cfb = CFB.read(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { type: 'buffer' });
  const stream = (name: string) => {
    const e = CFB.find(cfb, name);
    return e?.content ? Buffer.from(e.content as Uint8Array) : undefined;
  };
  const word = stream('WordDocument');
  if (!word || word.length < 0x200 || word.readUInt16LE(0) !== 0xa5ec) return [];
  const table = stream((word.readUInt16LE(0x0a) & 0x0200) ? '1Table' : '0Table');
  if (!table) return [];
  // -- FIB: fibBase (32 bytes), csw + fibRgW, cslw + fibRgLw, cbRgFcLcb + fibRgFcLcb (fc/lcb pairs) --
  const csw = word.readUInt16LE(32);
  const lwAt = 34 + csw * 2;
  const cslw = word.readUInt16LE(lwAt);
  // -- the stories' lengths (ccpText, ccpFtn, ccpHdd, ccpMcr, ccpAtn, ccpEdn, ccpTxbx) lie one after another --
  const ccp = (k: number) => Math.max(0, word.readInt32LE(lwAt + 2 + (3 + k) * 4));
  const from = story === 'main' ? 0 : ccp(0) + ccp(1) + ccp(2) + ccp(3) + ccp(4) + ccp(5);
  const storyEnd = from + (story === 'main' ? ccp(0) : ccp(6));
  const fcLcbAt = lwAt + 2 + cslw * 4;
  const pairs = word.readUInt16LE(fcLcbAt);
  const pair = (i: number): [number, number] => (i < pairs ? [word.readUInt32LE(fcLcbAt + 2 + i * 8), word.readUInt32LE(fcLcbAt + 6 + i * 8)] : [0, 0]);
  const [fcStsh, lcbStsh] = pair(1);
  const [fcFfn, lcbFfn] = pair(15);
  const [fcBteChpx, lcbBteChpx] = pair(12);
  const [fcBtePapx, lcbBtePapx] = pair(13);
  const [fcClx, lcbClx] = pair(33);
  const [fcSpa, lcbSpa] = pair(40);
  const [fcTxbx, lcbTxbx] = pair(56);
  if (!lcbClx || !lcbBtePapx || fcClx + lcbClx > table.length || fcBtePapx + lcbBtePapx > table.length) return [];

  const styles = lcbStsh && fcStsh + lcbStsh <= table.length ? readStyles(table.subarray(fcStsh, fcStsh + lcbStsh)) : [];
  const papx = papxRuns(word, table.subarray(fcBtePapx, fcBtePapx + lcbBtePapx));
  const pieces = readPieces(table.subarray(fcClx, fcClx + lcbClx));
  const plc = (fc: number, lcb: number) => (lcb && fc + lcb <= table.length ? table.subarray(fc, fc + lcb) : Buffer.alloc(0));
  // -- where the main text's shapes stand, and which shape each text box belongs to --
  const anchors = story === 'main' ? shapeAnchors(plc(fcSpa, lcbSpa)) : undefined;
  const boxSpans = story === 'textboxes' ? textBoxSpans(plc(fcTxbx, lcbTxbx)) : [];
  const chars = lcbBteChpx ? characterRuns(word, plc(fcBteChpx, lcbBteChpx)) : undefined;
  const fonts = chars ? fontNames(plc(fcFfn, lcbFfn)) : [];

  const out: DocParagraph[] = [];
  let text = '';
  /** The paragraph's text as stored, kept from its first symbol on. */
  let stored: string | undefined;
  const put = (shown: string, raw = shown) => {
    if (stored === undefined && shown !== raw) stored = text;
    text += shown;
    if (stored !== undefined) stored += raw;
  };
  let shapes: number[] = [];
  let nextBox = 0;
  let fieldDepth = 0;
  /** Inside a field's instructions (between its begin and separator marks): not shown. */
  const hidden: boolean[] = [];
  /** Each open field's check box as Word draws it (a FORMCHECKBOX's state, from its FFData), as DOCX shows it. */
  const checkBoxes: (string | undefined)[] = [];
  /** The Data stream (pictures, form field data), read when a form field needs it. */
  let dataStream: Buffer | undefined | null = null;
  for (const piece of pieces) {
    if (piece.cpStart >= storyEnd) break;
    if (piece.cpEnd <= from) continue;
    const end = Math.min(piece.cpEnd, storyEnd);
    for (let cp = Math.max(from, piece.cpStart); cp < end; cp++) {
      const fc = piece.compressed ? piece.fc + (cp - piece.cpStart) : piece.fc + (cp - piece.cpStart) * 2;
      if (fc + (piece.compressed ? 1 : 2) > word.length) return out;
      const code = piece.compressed ? windows1252(word[fc]!) : word.readUInt16LE(fc);
      // -- text a tracked change deleted is not the document's (a deleted mark joins two paragraphs) --
      const run = chars?.find(fc);
      if (run?.deleted) continue;
      if (code === 0x08 && anchors?.has(cp)) shapes.push(anchors.get(cp)!);
      if (code === 0x13) { fieldDepth++; hidden.push(true); checkBoxes.push(undefined); continue; }
      if (code === 0x14) { if (hidden.length) hidden[hidden.length - 1] = false; continue; }
      if (code === 0x15) {
        if (fieldDepth) fieldDepth--;
        hidden.pop();
        const box = checkBoxes.pop();
        if (box && !hidden.some(Boolean)) put(box);
        continue;
      }
      if (code === 0x01 && run?.dataAt !== undefined && checkBoxes.length) {
        if (dataStream === null) dataStream = stream('Data');
        const checked = checkBoxState(dataStream, run.dataAt);
        if (checked !== undefined) checkBoxes[checkBoxes.length - 1] = checked ? '☒' : '☐';
      }
      // -- a paragraph mark, a cell mark, or a section mark / page break (0x0C), where the text reader
      // -- also starts a new line: the paragraph's properties are those of the run holding the mark --
      if (code === 0x0d || code === 0x07 || code === 0x0c) {
        const papxRun = papx.find(fc);
        const props = papxRun ? grpprlProps(papxRun) : undefined;
        const p = paragraph(text, props, styles);
        // -- a nested table's cells and rows end with paragraph marks flagged as their ends --
        const depth = p.inTable ? Math.max(1, props?.tableDepth ?? 1) : 0;
        if (depth > 1) {
          p.tableDepth = depth;
          if (props?.innerCellEnd) p.cellEnd = true;
          if (props?.innerRowEnd && props.row) p.row = props.row;
        } else {
          if (code === 0x07) p.cellEnd = true;
          if (props?.row) p.row = props.row;
        }
        if (stored !== undefined) p.stored = stored;
        if (shapes.length) p.shapes = shapes;
        // -- the boxes' spans run in order through the story --
        while (nextBox < boxSpans.length && boxSpans[nextBox]!.cpEnd <= cp - from) nextBox++;
        const box = boxSpans[nextBox];
        if (box && cp - from >= box.cpStart) p.box = box.spid;
        out.push(p);
        if (out.length > MAX_PARAGRAPHS) return [];
        text = '';
        stored = undefined;
        shapes = [];
        continue;
      }
      if (hidden.some(Boolean)) continue;
      if (code === 0x0b) put('\n'); // a line break inside the paragraph, kept as DOCX keeps w:br
      else if (code === 0x1e) put('-'); // a non-breaking hyphen, as DOCX gives w:noBreakHyphen (an optional one, 0x1F, is not shown)
      else if (code === 0x09) put(' ');
      else if (code >= 0x20) put(symbolText(code, run, fonts) ?? String.fromCharCode(code), String.fromCharCode(code));
    }
  }
  return out;
}

/**
 * What a symbol font's character shows, as DOCX gives w:sym: an inserted symbol (sprmCSymbol, its
 * placeholder 0x28 in the text) or a private-use code (U+F0xx) in a run set in Symbol or Wingdings;
 * undefined for any other character.
 */
function symbolText(code: number, run: CharProps | undefined, fonts: string[]): string | undefined {
  if (run?.symbol && code === 0x28) return symbolChar(fonts[run.symbol.font], run.symbol.code) ?? '';
  if (code < 0xf020 || code > 0xf0ff) return undefined;
  for (const f of run?.fonts ?? []) {
    const ch = symbolChar(fonts[f], code);
    if (ch) return ch;
  }
  // -- a glyph with no Unicode meaning shows nothing (DOCX drops it too) --
  return '';
}

interface Props {
  istd: number; ilfo?: number; ilvl?: number; outLvl?: number; inTable?: boolean;
  tableDepth?: number; innerCellEnd?: boolean; innerRowEnd?: boolean; row?: EdgeCell[];
}

/** The istd and the sprms this module reads from a paragraph's (or a style's) istd + grpprl. */
function grpprlProps(b: Buffer): Props {
  const props: Props = { istd: b.readUInt16LE(0) };
  forEachSprm(b.subarray(2), (sprm, op) => {
    if (sprm === SPRM_P_ILFO && op.length >= 2) props.ilfo = op.readInt16LE(0);
    else if (sprm === SPRM_P_ILVL) props.ilvl = op[0];
    else if (sprm === SPRM_P_OUTLVL) props.outLvl = op[0];
    else if (sprm === SPRM_P_FINTABLE) props.inTable = op[0] !== 0;
    else if (sprm === SPRM_P_ITAP && op.length >= 4) props.tableDepth = op.readInt32LE(0);
    else if (sprm === SPRM_P_FINNER_TABLE_CELL) props.innerCellEnd = op[0] !== 0;
    else if (sprm === SPRM_P_FINNER_TTP) props.innerRowEnd = op[0] !== 0;
    else if (sprm === SPRM_T_DEF_TABLE) props.row = rowCells(op);
    else if (sprm === SPRM_T_VERT_MERGE && op.length >= 2 && props.row?.[op[0]!]) setVertMerge(props.row[op[0]!]!, op[1]!);
  });
  return props;
}

/**
 * A row's cells from sprmTDefTable's operand (as forEachSprm passes it: from the second byte of its
 * size): the cell count, the cells' edges (rgdxaCenter, twips: cell k lies between edges k and k+1),
 * then a TC80 of 20 bytes a cell whose tcgrf holds its merges (bits 0-1 horizontal, 5-6 vertical).
 */
function rowCells(op: Buffer): EdgeCell[] | undefined {
  const n = op[1] ?? 0;
  if (n < 1 || n > MAX_ROW_CELLS || op.length < 2 + (n + 1) * 2) return undefined;
  const tcAt = 2 + (n + 1) * 2;
  const cells: EdgeCell[] = [];
  for (let k = 0; k < n; k++) {
    const cell: EdgeCell = { x: op.readInt16LE(2 + (k + 1) * 2) };
    const at = tcAt + k * 20;
    if (at + 2 <= op.length) {
      const tcgrf = op.readUInt16LE(at);
      if ((tcgrf & 3) >= 2) cell.hCont = true;
      setVertMerge(cell, (tcgrf >> 5) & 3);
    }
    cells.push(cell);
  }
  return cells;
}

/** A vertical merge code (TCGRF's vertMerge, sprmTVertMerge's flags): 1 continues the cell above, 3 starts a merge. */
function setVertMerge(cell: EdgeCell, code: number): void {
  delete cell.vStart;
  delete cell.vCont;
  if (code === 3) cell.vStart = true;
  else if (code === 1) cell.vCont = true;
}

/** How deep in tables a paragraph lies: 0 in the body, 1 in a table, 2 in a table in a cell, ... */
export const paragraphDepth = (p: DocParagraph): number => (p.inTable ? p.tableDepth ?? 1 : 0);

/**
 * The table rows at `depth` (1: the main text's tables), in order: the cells (a cell's paragraphs
 * joined, a table nested in it as its text) closed by each row end mark, with the cells that mark defines.
 */
export function docTableRows(paras: DocParagraph[], depth = 1): DocTableRow[] {
  const rows: DocTableRow[] = [];
  let cells: string[] = [];
  let cell: string[] = [];
  for (const p of paras) {
    const at = paragraphDepth(p);
    if (at < depth) { cells = []; cell = []; continue; }
    if (p.row && at === depth) {
      rows.push({ cells, defs: p.row.length === cells.length ? p.row : undefined });
      cells = [];
      cell = [];
      continue;
    }
    const text = p.text.replace(/\s+/g, ' ').trim();
    if (text) cell.push(text);
    if (p.cellEnd && at === depth) { cells.push(cell.join(' ')); cell = []; }
  }
  return rows;
}

// ---- the stylesheet ---------------------------------------------------------------------------

function readStyles(stsh: Buffer): (Style | undefined)[] {
  const cbStshi = stsh.readUInt16LE(0);
  const cstd = stsh.readUInt16LE(2);
  const cbBase = stsh.readUInt16LE(4);
  const out: (Style | undefined)[] = [];
  let at = 2 + cbStshi;
  for (let i = 0; i < cstd && at + 2 <= stsh.length; i++) {
    const cbStd = stsh.readUInt16LE(at);
    const std = stsh.subarray(at + 2, at + 2 + cbStd);
    at += 2 + cbStd;
    if (cbStd < cbBase + 2 || std.length < cbStd) {
      out.push(undefined);
      continue;
    }
    const sti = std.readUInt16LE(0) & 0x0fff;
    const stk = std.readUInt16LE(2) & 0x000f;
    const base = std.readUInt16LE(2) >> 4;
    const cch = std.readUInt16LE(cbBase);
    const nameEnd = cbBase + 2 + cch * 2;
    if (nameEnd > std.length) {
      out.push(undefined);
      continue;
    }
    const name = std.subarray(cbBase + 2, nameEnd).toString('utf16le');
    const style: Style = { name: name.toLowerCase(), sti, base: base === 0x0fff ? undefined : base };
    // -- a paragraph style's first UPX holds its paragraph properties (istd + grpprl), after the name's null --
    let upx = nameEnd + 2;
    if (stk === 1 && upx + 2 <= std.length) {
      if (upx % 2) upx++;
      const cbUpx = std.readUInt16LE(upx);
      if (cbUpx >= 2 && upx + 2 + cbUpx <= std.length) {
        const p = grpprlProps(std.subarray(upx + 2, upx + 2 + cbUpx));
        style.ilfo = p.ilfo;
        style.ilvl = p.ilvl;
        style.outLvl = p.outLvl;
      }
    }
    out.push(style);
  }
  return out;
}

function chain<T>(styles: (Style | undefined)[], istd: number, pick: (s: Style) => T | undefined): T | undefined {
  return alongStyleChain(istd, (i) => styles[i], (s) => s.base, pick);
}

/** Heading depth a style gives by its name or built-in identifier (-1: explicitly body text). */
function styleDepth(s: Style): number | undefined {
  if (s.sti >= 1 && s.sti <= 9) return s.sti - 1;
  if (s.sti === 62 || s.name === 'title') return 0;
  if (s.sti === 74 || s.name === 'subtitle') return 1;
  const m = /^heading\s*(\d)$/.exec(s.name);
  if (m) return Math.max(0, Number(m[1]) - 1);
  if (s.outLvl !== undefined) return s.outLvl >= 9 ? -1 : s.outLvl;
  return undefined;
}

function paragraph(text: string, props: Props | undefined, styles: (Style | undefined)[]): DocParagraph {
  const p: DocParagraph = { text, inTable: props?.inTable ?? false };
  if (!props) return p;
  const outLvl = props.outLvl;
  const depth = outLvl !== undefined && outLvl < 9 ? outLvl : chain(styles, props.istd, styleDepth);
  if (depth !== undefined && depth >= 0) p.headingDepth = depth;
  const ilfo = props.ilfo ?? chain(styles, props.istd, (s) => s.ilfo);
  if (ilfo !== undefined && ilfo > 0 && p.headingDepth === undefined) p.listLevel = props.ilvl ?? chain(styles, props.istd, (s) => s.ilvl) ?? 0;
  return p;
}
