// Scan-like PNGs of a ruled table, built for the scanned-table tests: a table drawn with pdf-lib
// (solid, dashed or dotted rules; grey-filled rows), rendered by PDFium at 200 dpi as a scanner
// would give it, then optionally rotated by a few degrees (a skewed scan; the rotation is the one the
// service straightens pages with, whose direction a unit test pins down). No binary fixtures in the repository.
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { deflateSync } from 'node:zlib';
import { rgbaToPng } from '../../../lambdas/engine/partition/image/bitmap';
import { rotateRgba } from '../../../lambdas/engine/partition/image/deskew';
import { turnRgba } from '../../../lambdas/engine/partition/image/orient';
import { PdfDocument } from '../../../lambdas/engine/partition/pdf/pdfium';
import { renderPage } from '../../../lambdas/engine/partition/pdf/render';

export const HEADER = ['Item', 'Region', 'Units', 'Price'];
export const ROWS = [
  ['Apples', 'North', '120', '3.50'],
  ['Pears', 'South', '85', '4.25'],
  ['Plums', 'East', '240', '2.10'],
  ['Cherries', 'West', '63', '7.80'],
  ['Lemons', 'Central', '310', '1.95'],
];

export interface TableScanOptions {
  /** Dash pattern of every rule, points (e.g. [6, 4]; [1.5, 3] for dots); solid when absent. */
  dash?: [number, number];
  /** Grey fill (0..1) of the header row and of every second body row. */
  shade?: number;
  /** Clockwise rotation of the page image, degrees. */
  skew?: number;
}

/** The first page of a pdf-lib document as PDFium renders it for OCR (200 dpi). */
async function rendered(pdf: PDFDocument): Promise<{ rgba: Uint8Array; width: number; height: number }> {
  const doc = await PdfDocument.open(await pdf.save());
  try {
    return renderPage(doc, 0)!;
  } finally {
    doc.close();
  }
}

/** A 4 × 6 ruled table with a paragraph above it, as a PNG scan. */
export async function tableScan(o: TableScanOptions = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 420]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('Quarterly fruit deliveries by region, as counted at the depots.', { x: 60, y: 370, size: 12, font });
  const xs = [60, 200, 330, 440, 552];
  const rowH = 36;
  const top = 340;
  const ys = Array.from({ length: ROWS.length + 2 }, (_, i) => top - i * rowH);
  if (o.shade !== undefined) {
    ROWS.forEach((_, i) => {
      const r = i + 1; // body rows 1, 3, 5 and the header row 0
      if (r % 2 === 1) page.drawRectangle({ x: xs[0]!, y: ys[r + 1]!, width: xs[4]! - xs[0]!, height: rowH, color: rgb(o.shade!, o.shade!, o.shade!) });
    });
    page.drawRectangle({ x: xs[0]!, y: ys[1]!, width: xs[4]! - xs[0]!, height: rowH, color: rgb(o.shade, o.shade, o.shade) });
  }
  const line = { thickness: 1, color: rgb(0, 0, 0), ...(o.dash ? { dashArray: o.dash } : {}) };
  for (const y of ys) page.drawLine({ start: { x: xs[0]!, y }, end: { x: xs[4]!, y }, ...line });
  for (const x of xs) page.drawLine({ start: { x, y: ys[0]! }, end: { x, y: ys[ys.length - 1]! }, ...line });
  [HEADER, ...ROWS].forEach((row, r) => row.forEach((t, c) => page.drawText(t, { x: xs[c]! + 10, y: ys[r]! - 23, size: 12, font })));
  const img = await rendered(pdf);
  const rgba = o.skew ? rotateRgba(img.rgba, img.width, img.height, o.skew) : img.rgba;
  return rgbaToPng(rgba, img.width, img.height, (b) => deflateSync(b));
}

/** A PNG scan as a one-page image-only PDF (a scanned document), the page at 200 dpi. */
export async function asScannedPdf(png: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const img = await pdf.embedPng(png);
  const page = pdf.addPage([(img.width * 72) / 200, (img.height * 72) / 200]);
  page.drawImage(img, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  return pdf.save();
}

export const TEXT_TITLE = 'Field notes from the spring survey';
export const TEXT_PARAGRAPHS = [
  'The morning counts began at the northern gate, where the path climbs through birch and hazel toward the old quarry. ' +
    'Eight observers walked the fixed route in pairs, logging every bird heard or seen within fifty metres of the track.',
  'Wet ground below the quarry held the highest numbers of the day: reed buntings, a pair of lapwings and a single grey heron ' +
    'standing in the flooded hollow. Visibility dropped after ten, and the afternoon walk was shortened by half a kilometre.',
  'Totals for each section are kept in the shared log, together with the weather, the names of the observers and the time ' +
    'spent on every stretch, so that next year the counts can be compared section by section.',
];

/** Words of `text` set into lines no wider than `width` points in `font` at `size`. */
function wrap(text: string, width: number, font: { widthOfTextAtSize(t: string, s: number): number }, size: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    const next = line ? `${line} ${w}` : w;
    if (line && font.widthOfTextAtSize(next, size) > width) { lines.push(line); line = w; } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** A letter-size page of running text (a heading and three paragraphs) as RGBA pixels at 200 dpi, turned `turns` quarter turns clockwise. */
export async function textScanRgba(turns: 0 | 1 | 2 | 3 = 0): Promise<{ rgba: Uint8Array; width: number; height: number }> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  page.drawText(TEXT_TITLE, { x: 72, y: 700, size: 18, font: bold });
  let y = 660;
  for (const para of TEXT_PARAGRAPHS) {
    for (const line of wrap(para, 468, font, 12)) { page.drawText(line, { x: 72, y, size: 12, font }); y -= 16; }
    y -= 12;
  }
  const img = await rendered(pdf);
  return turnRgba(img.rgba, img.width, img.height, turns);
}

/** textScanRgba as a PNG. */
export async function textScan(turns: 0 | 1 | 2 | 3 = 0): Promise<Uint8Array> {
  const t = await textScanRgba(turns);
  return rgbaToPng(t.rgba, t.width, t.height, (b) => deflateSync(b));
}
