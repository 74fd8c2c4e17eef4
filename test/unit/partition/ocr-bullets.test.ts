// List bullets on a scanned page (image/dots.ts, ocr/layout.ts dotBullets): OCR drops a list's discs
// or reads them as a letter or a sign, and a scanned list came out as one paragraph. A filled dot at
// the middle of a line's height just before its first word is that line's bullet, as a born-digital
// PDF's drawn bullets are; a dot too small for a bullet (a period, a leader's dot) is not.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { partitionDocument as partition } from '../../../lambdas/engine/partition/pipeline';
import { filledDots, MAX_BLOBS } from '../../../lambdas/engine/partition/image/dots';
import { rgbaToPng } from '../../../lambdas/engine/partition/image/bitmap';
import { ocrPageElements } from '../../../lambdas/engine/partition/ocr/layout';
import type { OcrLine, OcrResult } from '../../../lambdas/engine/partition/ocr/tesseract';
import { PdfDocument } from '../../../lambdas/engine/partition/pdf/pdfium';
import { renderPage } from '../../../lambdas/engine/partition/pdf/render';
import { shutdownOcr } from '../../../lambdas/engine/partition/ocr/tesseract';
import { onePagePdf } from '../../support/pdf-writer';

after(async () => { await shutdownOcr(); });

/** A white gray image with shapes painted black by `ink(x, y)`. */
function image(w: number, h: number, ink: (x: number, y: number) => boolean): Uint8Array {
  const g = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (ink(x, y)) g[y * w + x] = 0;
  return g;
}

it('finds filled discs and squares, not rings, bars or a page of speckles', () => {
  const disc = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= (r + 0.5) ** 2;
  const ring = (cx: number, cy: number, r: number) => (x: number, y: number) => { const d = (x - cx) ** 2 + (y - cy) ** 2; return d <= r * r && d >= (r - 2) ** 2; };
  const rect = (x0: number, y0: number, x1: number, y1: number) => (x: number, y: number) => x >= x0 && x < x1 && y >= y0 && y < y1;
  const shapes = [disc(50, 50, 5), rect(100, 45, 108, 53), ring(150, 50, 7), rect(200, 48, 230, 52), rect(250, 20, 253, 80)];
  const dots = filledDots(image(1200, 1000, (x, y) => shapes.some((s) => s(x, y))), 1200, 1000);
  assert.deepEqual(dots.map((d) => [d.x0, d.y0, d.x1, d.y1]), [[45, 45, 56, 56], [100, 45, 108, 53]]);
  // a halftone: more blobs than MAX_BLOBS gives none, in bounded time
  const side = Math.ceil(Math.sqrt(MAX_BLOBS + 1)) * 3;
  assert.deepEqual(filledDots(image(side, side, (x, y) => x % 3 === 0 && y % 3 === 0), side, side), []);
});

const H = 28, CH = 14;
/** An OCR line of words at x, y (14 px a character, 9 px apart). */
function line(y: number, x: number, text: string, confidence = 95): OcrLine {
  let cx = x;
  const words = text.split(' ').map((t) => { const o = { text: t, confidence, x0: cx, y0: y, x1: cx + CH * t.length, y1: y + H }; cx = o.x1 + 9; return o; });
  return { words, x0: words[0]!.x0, y0: y, x1: words.at(-1)!.x1, y1: y + H };
}
const para = [line(100, 100, 'The pumps were inspected in March and the filters replaced.'), line(140, 100, 'Three findings were recorded by the crew on that day:')];
const items = [line(200, 160, 'Pump A pressure nominal'), line(240, 160, 'Pump B minor leak at the seal'), line(280, 160, 'Reservoir fluid level low')];
/** A dot of `side` pixels whose middle is at the middle of the line at y, ending `gap` pixels before x. */
const dot = (y: number, x: number, side: number, gap = 14) => ({ x0: x - gap - side, y0: y + H / 2 - side / 2, x1: x - gap, y1: y + H / 2 + side / 2 });

it('a dot before each of a list\'s lines makes them list items', () => {
  const ocr: OcrResult = { lines: [...para, ...items], confidence: 92 };
  const els = ocrPageElements(ocr, 1, 1700, 2200, { coordinates: false, languages: ['eng'], tableHtml: true, dots: items.map((l) => dot(l.y0, 160, 10)) });
  assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'ListItem', 'ListItem', 'ListItem'], JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.deepEqual(els.slice(1).map((e) => e.text), ['Pump A pressure nominal', 'Pump B minor leak at the seal', 'Reservoir fluid level low']);
});

it('a bullet read as a letter, in one line only, is read as a bullet', () => {
  const misread = line(200, 140, 'e Pump A pressure nominal', 70);
  misread.words[0]!.x1 = misread.words[0]!.x0 + 12;
  for (const w of misread.words.slice(1)) { w.x0 += 8; w.x1 += 8; }
  const ocr: OcrResult = { lines: [...para, misread, line(290, 100, 'The crew will return in September to look at the pump.')], confidence: 92 };
  const d = { x0: 141, y0: 209, x1: 151, y1: 219 };
  const els = ocrPageElements(ocr, 1, 1700, 2200, { coordinates: false, languages: ['eng'], tableHtml: true, dots: [d] });
  const item = els.find((e) => e.type === 'ListItem');
  assert.equal(item?.text, 'Pump A pressure nominal', JSON.stringify(els.map((e) => [e.type, e.text])));
});

it('a dot right of a right-to-left line\'s first word (its rightmost) makes it a list item', () => {
  // Hebrew lines, their words given left to right as the OCR boxes them, right-aligned at 1500
  const rtlLine = (y: number, logical: string): OcrLine => {
    const ws = logical.split(' ');
    let x = 1500;
    const words = ws.map((t) => { const o = { text: t, confidence: 95, x0: x - CH * t.length, y0: y, x1: x, y1: y + H }; x = o.x0 - 9; return o; }).reverse();
    return { words, x0: words[0]!.x0, y0: y, x1: 1500, y1: y + H };
  };
  const lead = [rtlLine(100, 'הבדיקה של המשאבות נערכה בחודש מרץ והמסננים הוחלפו כולם'), rtlLine(140, 'שלושה ממצאים נרשמו על ידי הצוות באותו היום')];
  const items = [rtlLine(200, 'משאבה א תקינה'), rtlLine(240, 'משאבה ב דולפת מעט'), rtlLine(280, 'המאגר כמעט ריק')];
  const right = items.map((l) => ({ x0: l.x1 + 14, y0: l.y0 + H / 2 - 5, x1: l.x1 + 24, y1: l.y0 + H / 2 + 5 }));
  const els = ocrPageElements({ lines: [...lead, ...items], confidence: 92 }, 1, 1700, 2200, { coordinates: false, languages: ['heb'], tableHtml: true, dots: right });
  assert.deepEqual(els.filter((e) => e.type === 'ListItem').map((e) => e.text), ['משאבה א תקינה', 'משאבה ב דולפת מעט', 'המאגר כמעט ריק'], JSON.stringify(els.map((e) => [e.type, e.text])));
});

it('a dot the size of a period is no bullet', () => {
  const ocr: OcrResult = { lines: [...para, ...items], confidence: 92 };
  const els = ocrPageElements(ocr, 1, 1700, 2200, { coordinates: false, languages: ['eng'], tableHtml: true, dots: items.map((l) => dot(l.y0, 160, 4)) });
  assert.ok(!els.some((e) => e.type === 'ListItem'), JSON.stringify(els.map((e) => [e.type, e.text])));
});

it('a scanned page\'s bulleted list reads as list items', async () => {
  // pages drawn in vectors (discs as four Bézier arcs), rendered to pixels: scans whose bullets OCR
  // drops (Times at 4.8 points, Helvetica at 3.6 points, 14 points before the item)
  const circle = (cx: number, cy: number, r: number) => {
    const k = 0.5523 * r;
    return `${cx + r} ${cy} m ${cx + r} ${cy + k} ${cx + k} ${cy + r} ${cx} ${cy + r} c ${cx - k} ${cy + r} ${cx - r} ${cy + k} ${cx - r} ${cy} c ${cx - r} ${cy - k} ${cx - k} ${cy - r} ${cx} ${cy - r} c ${cx + k} ${cy - r} ${cx + r} ${cy - k} ${cx + r} ${cy} c f`;
  };
  const text = (x: number, y: number, size: number, t: string) => `BT /F1 ${size} Tf ${x} ${y} Td (${t}) Tj ET`;
  const itemsText = ['Pump A: pressure nominal', 'Pump B: minor leak at the seal', 'Reservoir: fluid level low'];
  for (const [font, r] of [['Times-Roman', 2.4], ['Helvetica', 1.8]] as const) {
    const content = [
      text(72, 700, 20, 'Maintenance Report'),
      text(72, 660, 12, 'The inspection of the hydraulic system was carried out in March. All pumps'),
      text(72, 644, 12, 'were found within tolerance, and the filters were replaced as scheduled.'),
      ...itemsText.flatMap((t, i) => [circle(96, 614 - 22 * i, r), text(96 + r + 14, 610 - 22 * i, 12, t)]),
      text(72, 530, 12, 'The next inspection is due in September, when the seals are replaced.'),
    ].join('\n');
    const doc = await PdfDocument.open(onePagePdf(content, [`<< /Type /Font /Subtype /Type1 /BaseFont /${font} >>`]));
    const page = renderPage(doc, 0)!;
    doc.close();
    const png = rgbaToPng(page.rgba, page.width, page.height, (b) => deflateSync(b));
    const { elements } = await partition({ data: png, filename: 'scan.png' }, { strategy: 'hi_res' });
    assert.deepEqual(elements.filter((e) => e.type === 'ListItem').map((e) => e.text), itemsText, `${font}: ${JSON.stringify(elements.map((e) => [e.type, e.text]))}`);
  }
});
