// Builder for small legacy Word (.doc, Word 97-2003) files in tests: one text piece (8-bit, or 16-bit
// when a character needs it), one paragraph-property page (PapxFkp) giving each paragraph its sprms,
// one character-property page (ChpxFkp) marking tracked deletions, fonts and symbols, a font table,
// an empty stylesheet. Enough for
// the text reader (word-extractor) and the binary structures (doc-styles.ts) to read it.
import CFB from 'cfb';

export interface DocPara {
  /** The paragraph's text; '\x0b' is a line break inside it. */
  text: string;
  /** The mark that ends it: a paragraph mark, a cell mark (0x07), or a section mark (0x0C). */
  mark?: 'para' | 'cell' | 'section';
  /** Its paragraph properties (sprm + operand bytes, see the helpers below). */
  sprms?: Buffer[];
  /** Characters [from, to) of its text deleted in a tracked change (sprmCFRMarkDel). */
  deleted?: [number, number];
  /** Characters [from, to) of its text with these character properties (see charFont, symbol). */
  chars?: { range: [number, number]; sprms: Buffer[] };
  /** Main text: the id of the floating shape anchored at the '\x08' in its text (PlcSpaMom). Text
   * boxes' story: the id of the shape whose box it belongs to (PlcftxbxTxt). */
  shape?: number;
}

const sprm = (code: number, operand: Buffer): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(code);
  return Buffer.concat([b, operand]);
};
const byte = (v: number) => Buffer.from([v]);
const int32 = (v: number) => { const b = Buffer.alloc(4); b.writeInt32LE(v); return b; };

/** sprmCRgFtc0: the run's (ASCII) font, an index into the font table. */
export const charFont = (ftc: number) => sprm(0x4a4f, Buffer.from([ftc, 0]));
/** sprmCSymbol: an inserted symbol, the font's index and its character code. */
export const symbol = (ftc: number, code: number) => { const b = Buffer.alloc(4); b.writeUInt16LE(ftc); b.writeUInt16LE(code, 2); return sprm(0x6a09, b); };

/** sprmCPicLocation: where the object of the run's 0x01 character lies in the Data stream. */
export const dataAt = (offset: number) => sprm(0x6a03, int32(offset));

/** A check box form field's FFData behind its NilPICFAndBinData header (68 bytes); state 25 is "the default". */
export function checkBoxData(state: number, byDefault = 0): Buffer {
  const ff = Buffer.alloc(16);
  ff.writeUInt32LE(0xffffffff, 0);
  ff.writeUInt16LE(1 | (state << 2), 4); // iType 1: a check box
  ff.writeUInt16LE(20, 8); // hps; then an empty name (count 0, terminator) and wDef
  ff.writeUInt16LE(byDefault, 14);
  const head = Buffer.alloc(68);
  head.writeUInt32LE(68 + ff.length, 0);
  head.writeUInt16LE(68, 4);
  return Buffer.concat([head, ff]);
}

/** sprmPOutLvl: a heading at this outline level (0-based). */
export const outline = (level: number) => sprm(0x2640, byte(level));
/** sprmPIlfo 1 + sprmPIlvl: a list paragraph at this level. */
export const listLevel = (level: number) => Buffer.concat([sprm(0x460b, Buffer.from([1, 0])), sprm(0x260a, byte(level))]);
/** sprmPFInTable: a paragraph in a table. */
export const inTable = () => sprm(0x2416, byte(1));
/** sprmPItap: the table nesting depth (2 for a table in a cell). */
export const tableDepth = (depth: number) => sprm(0x6649, int32(depth));
/** sprmPFInnerTableCell: the paragraph mark ending a nested table's cell. */
export const innerCellEnd = () => sprm(0x244b, byte(1));

/** A row end: sprmPFTtp (or sprmPFInnerTtp for a nested row) and the row's cells (sprmTDefTable, right edges in twips), last. */
export function rowEnd(edges: number[], nested = false): Buffer {
  const n = edges.length;
  const data = Buffer.alloc(1 + (n + 1) * 2 + n * 20);
  data[0] = n;
  [0, ...edges].forEach((x, k) => data.writeInt16LE(x, 1 + k * 2));
  const cb = Buffer.alloc(2);
  cb.writeUInt16LE(data.length + 1);
  return Buffer.concat([sprm(nested ? 0x244c : 0x2417, byte(1)), sprm(0xd608, Buffer.concat([cb, data]))]);
}

const TEXT_AT = 0x400;

/**
 * A .doc of the paragraphs; `stories` are the header document's stories after its six separator
 * stories (for one section: even header, odd header, even footer, odd footer, first-page header,
 * first-page footer), each a list of paragraphs ('' for a story the section does not have); `boxes`
 * the text boxes' story (not with `stories`); `fonts` the font table's names, `data` the Data stream.
 */
export function word97Doc(paras: DocPara[], stories: string[][] = [], boxes: DocPara[] = [], { fonts = [], data }: { fonts?: string[]; data?: Buffer } = {}): Uint8Array {
  if (stories.length && boxes.length) throw new Error('word97Doc: headers or text boxes, not both');
  const markOf = { para: '\r', cell: '\x07', section: '\x0c' } as const;
  const main = paras.map((p) => p.text + markOf[p.mark ?? 'para']).join('');
  const ccpText = main.length;
  // -- the header document: a story is its paragraphs, each with its mark, and one more mark ending it --
  const storyTexts = [...Array(6).fill(''), ...stories.map((s) => (s.length ? `${s.join('\r')}\r\r` : ''))];
  const ccpHdd = stories.length ? storyTexts.join('').length + 1 : 0;
  const boxText = boxes.length ? `${boxes.map((p) => p.text + markOf[p.mark ?? 'para']).join('')}\r` : '';
  const text = main + (ccpHdd ? `${storyTexts.join('')}\r` : '') + boxText;
  const ccp = text.length;
  // -- the piece is 8-bit text, or 16-bit (2 bytes a character) when a character needs it --
  const w = /[^\x00-\xff]/.test(text) ? 2 : 1;
  const pageAt = Math.ceil((TEXT_AT + ccp * w) / 512) * 512;
  const word = Buffer.alloc(pageAt + 1024);
  // -- FIB: magic, 1Table, csw 14, cslw 22 (ccpText), 93 fc/lcb pairs (StshF 1, PlcfBtePapx 13, Clx 33) --
  word.writeUInt16LE(0xa5ec, 0);
  word.writeUInt16LE(0xc1, 2);
  word.writeUInt16LE(0x0200, 0x0a);
  word.writeUInt32LE(TEXT_AT, 0x18);
  word.writeUInt32LE(TEXT_AT + ccp * w, 0x1c);
  word.writeUInt16LE(14, 32);
  word.writeUInt16LE(22, 62);
  word.writeUInt32LE(ccpText, 0x4c);
  word.writeUInt32LE(ccpHdd, 0x54);
  word.writeUInt32LE(boxText.length, 0x64);
  word.writeUInt16LE(93, 0x98);
  word.write(text, TEXT_AT, w === 2 ? 'utf16le' : 'latin1');
  // -- the PapxFkp: one run a paragraph, its PapxInFkp (cb 0, cb', istd 0 + sprms) packed from the page's end --
  const fkp = word.subarray(pageAt, pageAt + 512);
  let fc = TEXT_AT;
  let top = 511;
  const placed = new Map<string, number>(); // paragraphs of the same properties share one PapxInFkp
  const all = [...paras, ...boxes];
  all.forEach((p, r) => {
    fkp.writeUInt32LE(fc, r * 4);
    fc += (p.text.length + 1) * w;
    let grpprl = Buffer.concat([Buffer.alloc(2), ...(p.sprms ?? [])]);
    if (grpprl.length % 2) grpprl = Buffer.concat([grpprl, Buffer.alloc(1)]);
    const key = grpprl.toString('hex');
    if (!placed.has(key)) {
      top = (top - 2 - grpprl.length) & ~1;
      fkp[top] = 0;
      fkp[top + 1] = grpprl.length / 2;
      grpprl.copy(fkp, top + 2);
      placed.set(key, top);
    }
    fkp[(all.length + 1) * 4 + r * 13] = placed.get(key)! / 2;
  });
  fkp.writeUInt32LE(fc, all.length * 4);
  fkp[511] = all.length;
  if ((all.length + 1) * 4 + all.length * 13 > top) throw new Error('word97Doc: too many paragraphs for one page');
  // -- the ChpxFkp (next page): a run a tracked deletion (its Chpx holding sprmCFRMarkDel) or a
  // -- paragraph's `chars`, each Chpx packed down from offset 500; other text has none --
  const chpx = word.subarray(pageAt + 512, pageAt + 1024);
  const bounds = [TEXT_AT];
  const chpxAt = new Map<number, number>();
  let chpxTop = 500;
  const addRun = (from: number, to: number, grpprl: Buffer) => {
    chpxTop = (chpxTop - 1 - grpprl.length) & ~1;
    chpx[chpxTop] = grpprl.length;
    grpprl.copy(chpx, chpxTop + 1);
    chpxAt.set(from, chpxTop);
    bounds.push(from, to);
  };
  let at = TEXT_AT;
  for (const p of paras) {
    if (p.deleted) addRun(at + p.deleted[0] * w, at + p.deleted[1] * w, Buffer.from([0x00, 0x08, 1]));
    if (p.chars) addRun(at + p.chars.range[0] * w, at + p.chars.range[1] * w, Buffer.concat(p.chars.sprms));
    at += (p.text.length + 1) * w;
  }
  bounds.push(TEXT_AT + ccp * w);
  const runs = [...new Set(bounds)].sort((a, b) => a - b);
  const crun = runs.length - 1;
  runs.forEach((fcAt, r) => chpx.writeUInt32LE(fcAt, r * 4));
  runs.slice(0, -1).forEach((fcAt, r) => { if (chpxAt.has(fcAt)) chpx[(crun + 1) * 4 + r] = chpxAt.get(fcAt)! / 2; });
  chpx[511] = crun;
  // -- the table stream: Clx (one piece, its text at TEXT_AT), then PlcBtePapx (one page) --
  const clx = Buffer.alloc(5 + 16);
  clx[0] = 0x02;
  clx.writeUInt32LE(16, 1);
  clx.writeUInt32LE(ccp, 9);
  clx.writeUInt32LE(w === 2 ? TEXT_AT : ((TEXT_AT * 2) | 0x40000000) >>> 0, 15);
  const bte = (page: number) => {
    const b = Buffer.alloc(12);
    b.writeUInt32LE(TEXT_AT, 0);
    b.writeUInt32LE(TEXT_AT + ccp * w, 4);
    b.writeUInt32LE(page, 8);
    return b;
  };
  const pair = (i: number, at: number, lcb: number) => { word.writeUInt32LE(at, 0x9a + i * 8); word.writeUInt32LE(lcb, 0x9e + i * 8); };
  pair(33, 0, clx.length);
  pair(13, clx.length, 12);
  pair(12, clx.length + 12, 12);
  // -- PlcfHdd: where each story starts in the header document, then its end --
  const hdd = Buffer.alloc(ccpHdd ? (storyTexts.length + 2) * 4 : 0);
  if (ccpHdd) {
    let cp = 0;
    storyTexts.forEach((t, k) => { hdd.writeUInt32LE(cp, k * 4); cp += t.length; });
    hdd.writeUInt32LE(cp, storyTexts.length * 4);
    hdd.writeUInt32LE(cp + 1, (storyTexts.length + 1) * 4);
    pair(11, clx.length + 24, hdd.length);
  }
  // -- PlcSpaMom (anchors' CPs, then an FSPA of 26 bytes each, spid first) and PlcftxbxTxt (each box's
  // -- CPs in its story, then an FTXBXS of 22 bytes each, lid at 14; a last entry for the story's end) --
  const anchors: [number, number][] = [];
  let cpAt = 0;
  for (const p of paras) {
    if (p.shape !== undefined) anchors.push([cpAt + p.text.indexOf('\x08'), p.shape]);
    cpAt += p.text.length + 1;
  }
  const spa = Buffer.alloc(anchors.length ? (anchors.length + 1) * 4 + anchors.length * 26 : 0);
  anchors.forEach(([cp, spid], k) => { spa.writeUInt32LE(cp, k * 4); spa.writeUInt32LE(spid, (anchors.length + 1) * 4 + k * 26); });
  if (anchors.length) spa.writeUInt32LE(ccpText, anchors.length * 4);
  const spans: [number, number][] = [];
  cpAt = 0;
  for (const p of boxes) {
    if (p.shape !== undefined && spans[spans.length - 1]?.[1] !== p.shape) spans.push([cpAt, p.shape]);
    cpAt += p.text.length + 1;
  }
  spans.push([cpAt, 0]);
  const txbx = Buffer.alloc(spans.length > 1 ? (spans.length + 1) * 4 + spans.length * 22 : 0);
  if (spans.length > 1) {
    spans.forEach(([cp, spid], k) => { txbx.writeUInt32LE(cp, k * 4); txbx.writeUInt32LE(spid, (spans.length + 1) * 4 + k * 22 + 14); });
    txbx.writeUInt32LE(boxText.length, spans.length * 4);
  }
  const afterHdd = clx.length + 24 + hdd.length;
  if (spa.length) pair(40, afterHdd, spa.length);
  if (txbx.length) pair(56, afterHdd + spa.length, txbx.length);
  // -- SttbfFfn: a count, then each FFN behind its size byte: 39 bytes of metrics, the name in UTF-16 --
  const ffns = fonts.map((name) => { const ffn = Buffer.concat([Buffer.alloc(39), Buffer.from(`${name}\0`, 'utf16le')]); return Buffer.concat([Buffer.from([ffn.length]), ffn]); });
  const ffn = fonts.length ? Buffer.concat([Buffer.from([fonts.length, 0, 0, 0]), ...ffns]) : Buffer.alloc(0);
  if (ffn.length) pair(15, afterHdd + spa.length + txbx.length, ffn.length);
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, 'WordDocument', word);
  if (data) CFB.utils.cfb_add(cfb, 'Data', data);
  CFB.utils.cfb_add(cfb, '1Table', Buffer.concat([clx, bte(pageAt / 512), bte(pageAt / 512 + 1), hdd, spa, txbx, ffn]));
  return new Uint8Array(CFB.write(cfb, { type: 'buffer' }) as Buffer);
}
