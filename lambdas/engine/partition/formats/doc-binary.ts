// The low-level structures of a Word 97-2003 binary document ([MS-DOC]) that doc-styles.ts reads: the
// piece table (where each character's text lies in the WordDocument stream), the character and paragraph
// property pages (formatted disk pages), and the walker over a property list (grpprl) of sprms. Every
// read is bounds-checked: a damaged page or run is skipped, never an error.

// ---- the piece table -------------------------------------------------------------------------

export interface Piece { cpStart: number; cpEnd: number; fc: number; compressed: boolean }

export function readPieces(clx: Buffer): Piece[] {
  let at = 0;
  // -- Prc entries (property modifiers) come first: skip them --
  while (at < clx.length && clx[at] === 0x01) at += 3 + clx.readInt16LE(at + 1);
  if (clx[at] !== 0x02) return [];
  const lcb = clx.readUInt32LE(at + 1);
  const plc = clx.subarray(at + 5, at + 5 + lcb);
  const n = Math.floor((plc.length - 4) / 12);
  const out: Piece[] = [];
  for (let i = 0; i < n; i++) {
    const cpStart = plc.readUInt32LE(i * 4), cpEnd = plc.readUInt32LE((i + 1) * 4);
    const raw = plc.readUInt32LE((n + 1) * 4 + i * 8 + 2);
    const compressed = (raw & 0x40000000) !== 0;
    const fc = raw & 0x3fffffff;
    out.push({ cpStart, cpEnd, fc: compressed ? fc / 2 : fc, compressed });
  }
  return out;
}


// ---- character properties (CHPX in formatted disk pages) -----------------------------------------

const SPRM_C_FRMARKDEL = 0x0800;
const SPRM_C_SYMBOL = 0x6a09;
const SPRM_C_PIC_LOCATION = 0x6a03;
/** sprmCRgFtc0, 1, 2: the run's fonts for ASCII, East Asian and other text. */
const SPRM_C_RGFTC = [0x4a4f, 0x4a50, 0x4a51];

/** What this module reads of a run's character properties. */
export interface CharProps {
  /** Deleted in a tracked change (sprmCFRMarkDel). */
  deleted?: boolean;
  /** The run's fonts (indexes into the font table). */
  fonts?: number[];
  /** An inserted symbol (sprmCSymbol): the font and the character code its 0x28 placeholder shows. */
  symbol?: { font: number; code: number };
  /** Where the object of its 0x01 character lies in the Data stream (sprmCPicLocation): a form field's FFData. */
  dataAt?: number;
}

export interface CharRuns { find(fc: number): CharProps | undefined }

/** The ChpxFkp runs of PlcBteChpx that delete text, set fonts, insert a symbol or locate an object. */
export function characterRuns(word: Buffer, plc: Buffer): CharRuns | undefined {
  const n = Math.floor((plc.length - 4) / 8);
  const ranges: { first: number; lim: number; props: CharProps }[] = [];
  for (let i = 0; i < n; i++) {
    const page = (plc.readUInt32LE((n + 1) * 4 + i * 4) & 0x3fffff) * 512;
    if (page + 512 > word.length) continue;
    const fkp = word.subarray(page, page + 512);
    const crun = fkp[511]!;
    for (let r = 0; r < crun && (crun + 1) * 4 + r < 511; r++) {
      const off = fkp[(crun + 1) * 4 + r]! * 2;
      if (!off || off >= 511) continue;
      const grpprl = fkp.subarray(off + 1, Math.min(511, off + 1 + fkp[off]!));
      const props: CharProps = {};
      forEachSprm(grpprl, (sprm, op) => {
        if (sprm === SPRM_C_FRMARKDEL) props.deleted = (op[0]! & 1) === 1;
        else if (sprm === SPRM_C_SYMBOL && op.length >= 4) props.symbol = { font: op.readUInt16LE(0), code: op.readUInt16LE(2) };
        else if (SPRM_C_RGFTC.includes(sprm) && op.length >= 2) (props.fonts ??= []).push(op.readUInt16LE(0));
        else if (sprm === SPRM_C_PIC_LOCATION && op.length >= 4) props.dataAt = op.readUInt32LE(0);
      });
      if (props.deleted || props.fonts || props.symbol || props.dataAt !== undefined) ranges.push({ first: fkp.readUInt32LE(r * 4), lim: fkp.readUInt32LE((r + 1) * 4), props });
    }
  }
  if (!ranges.length) return undefined;
  ranges.sort((a, b) => a.first - b.first);
  return {
    find(fc) {
      let lo = 0, hi = ranges.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1, range = ranges[mid]!;
        if (fc < range.first) hi = mid - 1;
        else if (fc >= range.lim) lo = mid + 1;
        else return range.props;
      }
      return undefined;
    },
  };
}

/** The font table (SttbfFfn): each FFN's name (xszFfn, UTF-16, after 39 bytes of metrics), by index. */
export function fontNames(sttb: Buffer): string[] {
  const out: string[] = [];
  if (sttb.length < 4) return out;
  const count = sttb.readUInt16LE(0);
  let at = 4;
  for (let i = 0; i < count && at < sttb.length; i++) {
    const size = sttb[at]!;
    const ffn = sttb.subarray(at + 1, Math.min(sttb.length, at + 1 + size));
    const name = ffn.length > 39 ? ffn.subarray(39, 39 + ((ffn.length - 39) & ~1)).toString('utf16le') : '';
    out.push(name.split('\0')[0]!);
    at += 1 + size;
  }
  return out;
}

// ---- paragraph properties (PAPX in formatted disk pages) ------------------------------------------

export interface PapxIndex { find(fc: number): Buffer | undefined }

/** The PapxInFkp runs of the document: a run's grpprl (istd first) applies to paragraph marks in [fcFirst, fcLim). */
export function papxRuns(word: Buffer, plc: Buffer): PapxIndex {
  const n = Math.floor((plc.length - 4) / 8);
  const runs: { fcFirst: number; fcLim: number; grpprl: Buffer }[] = [];
  for (let i = 0; i < n; i++) {
    const pn = plc.readUInt32LE((n + 1) * 4 + i * 4) & 0x3fffff;
    const page = pn * 512;
    if (page + 512 > word.length) continue;
    const fkp = word.subarray(page, page + 512);
    const crun = fkp[511]!;
    for (let r = 0; r < crun && (crun + 1) * 4 + r * 13 < 511; r++) {
      const fcFirst = fkp.readUInt32LE(r * 4), fcLim = fkp.readUInt32LE((r + 1) * 4);
      const off = fkp[(crun + 1) * 4 + r * 13]! * 2;
      if (!off || off >= 511) continue;
      let cb = fkp[off]!, start = off + 1, size: number;
      if (cb === 0) { cb = fkp[off + 1]!; start = off + 2; size = cb * 2; } else size = cb * 2 - 1;
      if (start + size > 511 || size < 2) continue;
      runs.push({ fcFirst, fcLim, grpprl: fkp.subarray(start, start + size) });
    }
  }
  runs.sort((a, b) => a.fcFirst - b.fcFirst);
  return {
    find(fc) {
      let lo = 0, hi = runs.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1, r = runs[mid]!;
        if (fc < r.fcFirst) hi = mid - 1;
        else if (fc >= r.fcLim) lo = mid + 1;
        else return r.grpprl;
      }
      return undefined;
    },
  };
}

/** Walks a grpprl; stops (keeping what was read) at a sprm whose operand runs past the end. */
export function forEachSprm(b: Buffer, fn: (sprm: number, operand: Buffer) => void): void {
  let at = 0;
  while (at + 2 <= b.length) {
    const sprm = b.readUInt16LE(at);
    at += 2;
    let len: number;
    switch (sprm >> 13) {
      case 0: case 1: len = 1; break;
      case 2: case 4: case 5: len = 2; break;
      case 3: len = 4; break;
      case 7: len = 3; break;
      default:
        // -- variable: a size byte; sprmTDefTable(10) has a two-byte size (the rest, plus one) --
        if (sprm === 0xd608 || sprm === 0xd606) {
          if (at + 2 > b.length) return;
          len = b.readUInt16LE(at) + 1;
        } else {
          if (at >= b.length || b[at] === 255) return;
          len = b[at]! + 1;
        }
        fn(sprm, b.subarray(at + 1, at + len));
        at += len;
        continue;
    }
    if (at + len > b.length) return;
    fn(sprm, b.subarray(at, at + len));
    at += len;
  }
}

// ---- floating shapes and the text boxes they hold ------------------------------------------------

/** The shapes anchored in the main text (PlcSpaMom): the anchor's CP (a 0x08 character) → the shape's id (FSPA, 26 bytes). */
export function shapeAnchors(plc: Buffer): Map<number, number> {
  const n = Math.max(0, Math.floor((plc.length - 4) / 30));
  const out = new Map<number, number>();
  for (let i = 0; i < n; i++) out.set(plc.readInt32LE(i * 4), plc.readUInt32LE((n + 1) * 4 + i * 26));
  return out;
}

export interface TextBoxSpan { cpStart: number; cpEnd: number; spid: number }

/**
 * The text boxes' story cut by box (PlcftxbxTxt, CPs from the story's start): each box's text and the
 * id of the shape it begins in (FTXBXS.lid, 22 bytes); spare entries kept for reuse hold no box.
 */
export function textBoxSpans(plc: Buffer): TextBoxSpan[] {
  const n = Math.max(0, Math.floor((plc.length - 4) / 26));
  const out: TextBoxSpan[] = [];
  for (let i = 0; i < n; i++) {
    const at = (n + 1) * 4 + i * 22;
    const reusable = (plc.readUInt16LE(at + 8) & 1) === 1;
    const spid = plc.readUInt32LE(at + 14);
    if (!reusable && spid) out.push({ cpStart: plc.readInt32LE(i * 4), cpEnd: plc.readInt32LE((i + 1) * 4), spid });
  }
  return out;
}

// ---- form fields ------------------------------------------------------------------------------

/**
 * A check box form field's state from its FFData in the Data stream (behind a NilPICFAndBinData
 * header: lcb, cbHeader): undefined when the field is not a check box or cannot be read. iRes is the
 * state (0 clear, 1 checked, 25: the default, wDef, after the field's name).
 */
export function checkBoxState(data: Buffer | undefined, at: number): boolean | undefined {
  if (!data || at + 6 > data.length) return undefined;
  const ff = at + data.readUInt16LE(at + 4);
  if (ff + 12 > data.length || data.readUInt32LE(ff) !== 0xffffffff) return undefined;
  const bits = data.readUInt16LE(ff + 4);
  if ((bits & 3) !== 1) return undefined;
  const state = (bits >> 2) & 0x1f;
  if (state !== 25) return state === 1;
  const defAt = ff + 10 + 2 + data.readUInt16LE(ff + 10) * 2 + 2;
  return defAt + 2 <= data.length ? data.readUInt16LE(defAt) === 1 : undefined;
}
