// Builds small PDFs with CJK text for tests, without a font file: a Type0 font (CIDFontType2,
// Adobe-Identity) whose ToUnicode CMap maps each CID to one character, so text extraction sees real
// Unicode and glyph advances come from the font's widths (DW 1000 = one em, as CJK fonts use).
// Horizontal text uses Identity-H; vertical text Identity-V (advance downward, DW2 metrics).
// `ligatures` maps characters of the runs' text to the several characters their glyph stands for
// in the ToUnicode CMap (as Arabic fonts map their lam-alef glyph).

export interface Run {
  text: string;
  /** Baseline origin (horizontal) or the top of the column (vertical), in PDF user space. */
  x: number;
  y: number;
  size: number;
  vertical?: boolean;
  /** Extra space after each glyph, in thousandths of an em (TJ adjustment, as typesetters emit). */
  tracking?: number;
  /** Text running up the page (text matrix turned a quarter counter-clockwise). */
  up?: boolean;
  /**
   * Each glyph shown by its own operator, `pitch` points below the previous one, in one text block:
   * vertical writing set glyph by glyph, or (horizontal) a column of one-glyph table cells.
   */
  pitch?: number;
  /**
   * Each glyph shown by its own operator, `step` points right of the previous one (negative: to the
   * left), in one text block: right-to-left text stored in logical order, placed glyph by glyph.
   */
  step?: number;
}

export interface PageSpec { runs: Run[]; width?: number; height?: number; rotate?: number }

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/** A PDF whose pages draw the given runs; all characters share one CID table. */
export function cjkPdf(pages: PageSpec[], opts: { ligatures?: Record<string, string> } = {}): Uint8Array {
  const chars: string[] = [];
  const cid = new Map<string, number>();
  for (const p of pages) for (const r of p.runs) for (const ch of r.text) if (!cid.has(ch)) { cid.set(ch, chars.length + 1); chars.push(ch); }
  const toUni = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <0000> <FFFF> endcodespacerange',
    `${chars.length} beginbfchar`,
    ...chars.map((ch, i) => `<${hex4(i + 1)}> <${[...Buffer.from(opts.ligatures?.[ch] ?? ch, 'utf16le').swap16()].map((b) => b.toString(16).padStart(2, '0')).join('')}>`),
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');

  const objs: string[] = [];
  const add = (body: string) => { objs.push(body); return objs.length; };
  const catalog = add('');
  const pagesObj = add('');
  const uni = add(`<< /Length ${toUni.length} >>\nstream\n${toUni}\nendstream`);
  const desc = add('<< /Type /FontDescriptor /FontName /TestCJK /Flags 4 /FontBBox [0 -120 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>');
  // ASCII is half width (a space a quarter em), everything else one em.
  const widths = chars.map((ch, i) => (ch === ' ' ? `${i + 1} [250]` : ch < '\u0080' ? `${i + 1} [500]` : '')).filter(Boolean).join(' ');
  const cidFont = add(`<< /Type /Font /Subtype /CIDFontType2 /BaseFont /TestCJK /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${desc} 0 R /DW 1000 /W [${widths}] /DW2 [880 -1000] /CIDToGIDMap /Identity >>`);
  const fontH = add(`<< /Type /Font /Subtype /Type0 /BaseFont /TestCJK /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${uni} 0 R >>`);
  const fontV = add(`<< /Type /Font /Subtype /Type0 /BaseFont /TestCJK /Encoding /Identity-V /DescendantFonts [${cidFont} 0 R] /ToUnicode ${uni} 0 R >>`);
  const kids: number[] = [];
  for (const p of pages) {
    const ops = p.runs.map((r) => {
      const glyphs = [...r.text].map((ch) => `<${hex4(cid.get(ch)!)}>`);
      const pitch = r.pitch;
      const body = pitch ? glyphs.map((g, i) => `${i ? `0 ${-pitch} Td ` : ''}${g} Tj`).join(' ')
        : r.step ? glyphs.map((g, i) => `${i ? `${r.step} 0 Td ` : ''}${g} Tj`).join(' ')
        : r.tracking ? `[${glyphs.join(` ${-r.tracking} `)}] TJ` : `<${glyphs.map((g) => g.slice(1, -1)).join('')}> Tj`;
      const place = r.up ? `0 1 -1 0 ${r.x} ${r.y} Tm` : `${r.x} ${r.y} Td`;
      return `BT /${r.vertical ? 'FV' : 'FH'} ${r.size} Tf ${place} ${body} ET`;
    }).join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(ops)} >>\nstream\n${ops}\nendstream`);
    const rotate = p.rotate ? ` /Rotate ${p.rotate}` : '';
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${p.width ?? 595} ${p.height ?? 842}]${rotate} /Resources << /Font << /FH ${fontH} 0 R /FV ${fontV} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objs[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objs[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;

  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objs.forEach((body, i) => { offsets.push(Buffer.byteLength(out)); out += `${i + 1} 0 obj\n${body}\nendobj\n`; });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}
