// Builds one-page (or multi-page) PDFs with ruled tables for tests, written by hand so that each way a
// PDF can place glyphs is under the test's control: text and page transforms (Tm, cm), a media box
// not at the origin or a crop box inside it, horizontal scaling (Tz), character spacing (Tc), glyphs
// positioned one by one, and fonts whose widths come from a Widths array, from the standard metrics
// (no Widths) or from a Type3 font's own glyph space (FontMatrix). Cells are sized from the same
// widths the PDF declares, so a reader that applies them right finds every word inside its cell.

export type FontKind =
  /** Helvetica with an explicit Widths array (what most producers write). */
  | 'widths'
  /** Courier, a standard font, without Widths (the reader's built-in metrics). */
  | 'standard'
  /** A Type3 font whose glyphs are boxes, widths in glyph space scaled by FontMatrix (1/1000 or 1/100). */
  | 'type3'
  | 'type3-coarse';

export interface TableLayout {
  /** Cell texts, row by row; '' for an empty cell. */
  rows: string[][];
  /** Column widths in points; computed from the text when absent (padding each side). */
  colWidths?: number[];
  /** Merged cells: [row, col, rowspan, colspan]; the separators inside are not drawn. */
  spans?: [number, number, number, number][];
  /** Left and top edges of the table on the visible page (points, origin at the visible bottom-left, y up). */
  x?: number;
  top?: number;
  rowHeight?: number;
  /** Space between a cell's left rule and its text. */
  pad?: number;
  /** Columns whose text gets the page's `kern` (all when absent). */
  kernCols?: number[];
  /** Draw the outer frame and inner rules (default true); 'rows' draws horizontal rules only. */
  rules?: true | 'rows' | false;
}

export interface PageOptions {
  font?: FontKind;
  size?: number;
  /** Text placed with a scaling text matrix on a 1-pt font (`s 0 0 s x y Tm`). */
  textMatrix?: boolean;
  /** The whole page drawn under `k 0 0 k 0 0 cm` (coordinates divided by k). */
  cm?: number;
  /** Visible origin of the page in user space: MediaBox [ox oy ox+W oy+H]. */
  mediaOrigin?: [number, number];
  /** A crop box inside a larger media box: the visible page starts at this user-space point. */
  cropOrigin?: [number, number];
  /** Horizontal scaling, percent (Tz). */
  tz?: number;
  /** Character spacing (Tc), unscaled text-space units. */
  tc?: number;
  /** TJ adjustment between every two glyphs (thousandths of an em; negative moves right), as justified or tracked text is written. */
  kern?: number | number[];
  /** Each glyph shown by its own operator at its own position (as some producers and printers write text). */
  perGlyph?: boolean;
  /**
   * The tables drawn inside a form XObject (`Do`) with this /Matrix, the form itself invoked under
   * `1 0 0 1 dx dy cm`: [a, b, c, d, e, f, dx, dy]. The builder draws the content so that it lands at
   * the same visible place (it applies the inverse of both to the coordinates).
   */
  form?: [number, number, number, number, number, number, number, number];
  /** Lines of text above the table (prose, captions). */
  text?: { x: number; y: number; t: string; size?: number }[];
  width?: number;
  height?: number;
}

// Helvetica-like advance widths (1/1000 em) for the Widths array and the layout computations.
function widthOf(ch: string, font: FontKind): number {
  if (font === 'standard') return 600;
  if (font === 'type3' || font === 'type3-coarse') return ch === ' ' ? 300 : 560;
  if (ch === ' ') return 278;
  if (/[A-Z]/.test(ch)) return ch === 'M' || ch === 'W' ? 833 : ch === 'I' ? 278 : 667;
  if (/[fijlrt]/.test(ch)) return ch === 'r' ? 333 : 278;
  if (/[mw]/.test(ch)) return 833;
  if (/[a-z0-9_]/.test(ch)) return 556;
  return 333;
}

/** Width of a text in points under the page's font, size, Tz and Tc. */
export function textWidth(t: string, o: PageOptions): number {
  const size = o.size ?? 9, h = (o.tz ?? 100) / 100, tc = o.tc ?? 0;
  let w = 0;
  for (const ch of t) w += (widthOf(ch, o.font ?? 'widths') / 1000) * size + tc;
  if (o.kern && !o.perGlyph) for (let i = 1; i < [...t].length; i++) w += (-kernAt(o.kern, i - 1) / 1000) * size;
  return w * h;
}

/** The TJ adjustment after glyph i (a list is cycled). */
const kernAt = (k: number | number[], i: number): number => (typeof k === 'number' ? k : k[i % k.length]!);
const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
const n = (v: number) => (Math.round(v * 1000) / 1000).toString();

/** The drawing operators of one table, in visible-page points (the caller maps them to user space). */
function tableOps(t: TableLayout, o: PageOptions, map: (x: number, y: number) => [number, number], k: number): string {
  const pad = t.pad ?? 4;
  const ncols = Math.max(...t.rows.map((r) => r.length));
  const colOpts = (c: number): PageOptions => (t.kernCols && !t.kernCols.includes(c) ? { ...o, kern: undefined } : o);
  const widths = t.colWidths ?? Array.from({ length: ncols }, (_, c) => Math.max(20, ...t.rows.map((r) => textWidth(r[c] ?? '', colOpts(c)))) + 2 * pad);
  const rh = t.rowHeight ?? 16;
  const x0 = t.x ?? 50, top = t.top ?? 700;
  const xs = [x0];
  for (const w of widths) xs.push(xs[xs.length - 1]! + w);
  const ys = t.rows.map((_, r) => top - r * rh).concat(top - t.rows.length * rh);
  const covered = (r: number, c: number) => (t.spans ?? []).find(([sr, sc, rs, cs]) => r >= sr && r < sr + rs && c >= sc && c < sc + cs);
  let ops = `${n(0.5 / k)} w\n`;
  const line = (ax: number, ay: number, bx: number, by: number) => {
    const [a, b] = map(ax, ay), [c, d] = map(bx, by);
    ops += `${n(a / k)} ${n(b / k)} m ${n(c / k)} ${n(d / k)} l S\n`;
  };
  if (t.rules !== false) {
    // horizontal rules: each cell's top edge unless inside a rowspan
    for (let r = 0; r <= t.rows.length; r++) {
      for (let c = 0; c < ncols; c++) {
        const s = covered(r, c);
        if (r > 0 && r < t.rows.length && s && r > s[0] && s === covered(r - 1, c)) continue;
        line(xs[c]!, ys[r]!, xs[c + 1]!, ys[r]!);
      }
    }
    if (t.rules !== 'rows') {
      for (let c = 0; c <= ncols; c++) {
        for (let r = 0; r < t.rows.length; r++) {
          const s = covered(r, c);
          if (c > 0 && c < ncols && s && c > s[1] && s === covered(r, c - 1)) continue;
          line(xs[c]!, ys[r]!, xs[c]!, ys[r + 1]!);
        }
      }
    }
  }
  const size = o.size ?? 9;
  t.rows.forEach((row, r) => row.forEach((text, c) => {
    if (!text) return;
    const s = covered(r, c);
    const rowsDown = s ? s[2] : 1;
    const baseline = ys[r]! - (rowsDown * rh) / 2 - size * 0.35;
    // A cell spanning columns is centred over them, as headers over sub-columns are set.
    const across = s && s[3] > 1 ? xs[c + s[3]]! - xs[c]! : 0;
    const x = across ? xs[c]! + (across - textWidth(text, colOpts(c))) / 2 : xs[c]! + pad;
    ops += textOps(text, x, baseline, colOpts(c), map, k);
  }));
  return ops;
}

function textOps(text: string, x: number, y: number, o: PageOptions, map: (x: number, y: number) => [number, number], k: number, sizeOverride?: number): string {
  const size = (sizeOverride ?? o.size ?? 9) / k;
  // Tc is in text space: under a scaling text matrix it is scaled by it too.
  const tc = o.tc === undefined ? undefined : o.textMatrix ? o.tc / (sizeOverride ?? o.size ?? 9) : o.tc / k;
  const state = `${o.tz !== undefined ? `${o.tz} Tz ` : ''}${tc !== undefined ? `${n(tc)} Tc ` : ''}`;
  const place = (px: number, py: number) => {
    const [ux, uy] = map(px, py);
    return o.textMatrix ? `/F1 1 Tf ${n(size)} 0 0 ${n(size)} ${n(ux / k)} ${n(uy / k)} Tm` : `/F1 ${n(size)} Tf 1 0 0 1 ${n(ux / k)} ${n(uy / k)} Tm`;
  };
  if (o.kern && !o.perGlyph) return `BT ${state}${place(x, y)} [${[...text].map((ch, i) => `${i ? ` ${kernAt(o.kern!, i - 1)} ` : ''}(${esc(ch)})`).join('')}] TJ ET\n`;
  if (!o.perGlyph) return `BT ${state}${place(x, y)} (${esc(text)}) Tj ET\n`;
  let ops = `BT ${state}`;
  let px = x;
  const po = { ...o, size: sizeOverride ?? o.size };
  for (const ch of text) {
    if (ch !== ' ') ops += `${place(px, y)} (${esc(ch)}) Tj `;
    px += textWidth(ch, po);
  }
  return `${ops}ET\n`;
}

function fontObjects(kind: FontKind, add: (body: string) => number): number {
  if (kind === 'standard') return add('<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>');
  if (kind === 'widths') {
    const widths = Array.from({ length: 95 }, (_, i) => widthOf(String.fromCharCode(32 + i), kind));
    return add(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [${widths.join(' ')}] >>`);
  }
  // Type3: glyph space 1000 (or 100) units per em, each glyph a box.
  const scale = kind === 'type3' ? 1 : 0.1;
  const names: string[] = [];
  const procs: string[] = [];
  for (let c = 33; c <= 126; c++) {
    names.push(`${c} /${glyphName(c)}`);
    const w = widthOf(String.fromCharCode(c), kind) * scale;
    const body = `${n(w)} 0 0 0 ${n(w)} ${n(700 * scale)} d1 ${n(40 * scale)} 0 ${n(w - 80 * scale)} ${n(700 * scale)} re f`;
    procs.push(`/${glyphName(c)} ${add(`<< /Length ${body.length} >>\nstream\n${body}\nendstream`)} 0 R`);
  }
  const widths = Array.from({ length: 95 }, (_, i) => n(widthOf(String.fromCharCode(32 + i), kind) * scale));
  const fm = n(0.001 / scale);
  return add(`<< /Type /Font /Subtype /Type3 /FontBBox [0 0 ${n(1000 * scale)} ${n(1000 * scale)}] /FontMatrix [${fm} 0 0 ${fm} 0 0] /CharProcs << ${procs.join(' ')} >> /Encoding << /Type /Encoding /Differences [32 /space ${names.map((s) => s.split(' ')[1]).join(' ')}] >> /FirstChar 32 /LastChar 126 /Widths [${widths.join(' ')}] >>`);
}

const GLYPH: Record<string, string> = {
  '!': 'exclam', '"': 'quotedbl', '#': 'numbersign', $: 'dollar', '%': 'percent', '&': 'ampersand', "'": 'quotesingle', '(': 'parenleft', ')': 'parenright',
  '*': 'asterisk', '+': 'plus', ',': 'comma', '-': 'hyphen', '.': 'period', '/': 'slash', ':': 'colon', ';': 'semicolon', '<': 'less', '=': 'equal',
  '>': 'greater', '?': 'question', '@': 'at', '[': 'bracketleft', '\\': 'backslash', ']': 'bracketright', '^': 'asciicircum', _: 'underscore', '`': 'grave',
  '{': 'braceleft', '|': 'bar', '}': 'braceright', '~': 'asciitilde',
  0: 'zero', 1: 'one', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight', 9: 'nine',
};
function glyphName(code: number): string {
  const ch = String.fromCharCode(code);
  return /[A-Za-z]/.test(ch) ? ch : GLYPH[ch]!;
}

/** A PDF with one page per entry, each drawing its tables (and lines of text) under its options. */
export function tablePdf(pages: { tables: TableLayout[]; options?: PageOptions }[]): Uint8Array {
  const objs: string[] = [];
  const add = (body: string) => { objs.push(body); return objs.length; };
  const catalog = add('');
  const pagesObj = add('');
  const kids: number[] = [];
  for (const p of pages) {
    const o = p.options ?? {};
    const W = o.width ?? 612, H = o.height ?? 792;
    const [ox, oy] = o.mediaOrigin ?? o.cropOrigin ?? [0, 0];
    const k = o.cm ?? 1;
    const map = (x: number, y: number): [number, number] => [x + ox, y + oy];
    let ops = k !== 1 ? `q ${k} 0 0 ${k} 0 0 cm\n` : 'q\n';
    for (const line of o.text ?? []) ops += textOps(line.t, line.x, line.y, o, map, k, line.size);
    const font = fontObjects(o.font ?? 'widths', add);
    let xobject = '';
    if (o.form) {
      // Inside the form, user space is: form space × Matrix × translate(dx, dy) × k. Only uniform scale
      // (a = d, b = c = 0) is supported by this inverse.
      const [a, , , , e, f, dx, dy] = o.form;
      const inner = (x: number, y: number): [number, number] => { const [ux, uy] = map(x, y); return [(ux / k - dx - e) / a * k, (uy / k - dy - f) / a * k]; };
      let fops = '';
      for (const t of p.tables) fops += tableOps(t, o, inner, k);
      const form = add(`<< /Type /XObject /Subtype /Form /BBox [-5000 -5000 5000 5000] /Matrix [${o.form.slice(0, 6).join(' ')}] /Resources << /Font << /F1 ${font} 0 R >> >> /Length ${Buffer.byteLength(fops, 'latin1')} >>\nstream\n${fops}endstream`);
      ops += `q 1 0 0 1 ${dx} ${dy} cm /X1 Do Q\n`;
      xobject = ` /XObject << /X1 ${form} 0 R >>`;
    } else {
      for (const t of p.tables) ops += tableOps(t, o, map, k);
    }
    ops += 'Q\n';
    const content = add(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}endstream`);
    const media = o.cropOrigin ? `[${ox - 40} ${oy - 60} ${ox + W + 70} ${oy + H + 30}] /CropBox [${ox} ${oy} ${ox + W} ${oy + H}]` : `[${ox} ${oy} ${ox + W} ${oy + H}]`;
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox ${media} /Resources << /Font << /F1 ${font} 0 R >>${xobject} >> /Contents ${content} 0 R >>`));
  }
  objs[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objs[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objs.forEach((body, i) => { offsets.push(Buffer.byteLength(out, 'latin1')); out += `${i + 1} 0 obj\n${body}\nendobj\n`; });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}
