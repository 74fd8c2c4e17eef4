// Ruled tables on scans as they come: dashed and dotted rules, grey-filled rows and header bands,
// and pages scanned a few degrees askew. Each image is built here (scan-fixture.ts: pdf-lib table,
// PDFium render at 200 dpi, pixel rotation) and partitioned as the service partitions a PNG upload
// (hi_res or ocr_only, real Tesseract; one case as an image-only PDF, the scanned-PDF path); the
// Table's text_as_html must hold the 6 × 4 grid with every cell read.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { partitionDocument as partition } from '../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../lambdas/engine/partition/pdf/pool';
import { shutdownOcr } from '../../../lambdas/engine/partition/ocr/tesseract';
import { asScannedPdf, HEADER, ROWS, tableScan, type TableScanOptions } from './scan-fixture';

after(async () => { await shutdownPagePool(); await shutdownOcr(); });

/** Rows of cell texts of a text_as_html table. */
const cells = (html: string) =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((c) => c[1]!.trim()));

async function assertGrid(o: TableScanOptions, strategy: 'hi_res' | 'ocr_only' = 'hi_res', coordinates = false, pdf = false) {
  const png = await tableScan(o);
  const r = await partition(pdf ? { data: await asScannedPdf(png), filename: 'scan.pdf' } : { data: png, filename: 'table.png' }, { strategy, coordinates });
  const tables = r.elements.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, `one Table: ${r.elements.map((e) => `${e.type}: ${e.text.slice(0, 60)}`).join(' | ')}`);
  const html = tables[0]!.metadata.text_as_html ?? '';
  assert.deepEqual(cells(html), [HEADER, ...ROWS], html);
  const rest = r.elements.filter((e) => e.type !== 'Table').map((e) => e.text).join(' ');
  assert.match(rest, /Quarterly fruit deliveries/);
  for (const w of ['Cherries', 'Central']) assert.ok(!rest.includes(w), `${w} is not repeated outside the table`);
  return r;
}

describe('ruled tables in scans: dashed rules, shaded rows, skew', () => {
  it('solid rules (the reference case)', async () => { await assertGrid({}); });

  it('dashed rules are rules: the grid, and no dash read as "1" or "!" in the cells', async () => { await assertGrid({ dash: [6, 4] }); });

  it('dotted rules are rules', async () => { await assertGrid({ dash: [1.5, 3] }); });

  it('grey-filled header band and rows: rules found across them, the text on grey read', async () => { await assertGrid({ shade: 0.75 }); });

  it('darker grey fill (55%) is not a blob swallowing its text', async () => { await assertGrid({ shade: 0.55 }, 'ocr_only'); });

  it('a scan 2° askew is straightened: rows and columns not mixed, coordinates on the uploaded image', async () => {
    const r = await assertGrid({ skew: 2 }, 'hi_res', true);
    const t = r.elements.find((e) => e.type === 'Table')!;
    const [p0, p1, , p3] = t.metadata.coordinates!.points;
    // The table's left edge in the uploaded image leans like the page: its bottom corner is left of its top.
    assert.ok(p1![0] < p0![0] - 10, `rotated box: ${JSON.stringify(t.metadata.coordinates!.points)}`);
    assert.ok(p3![1] > p0![1] + 10, 'its top edge runs down to the right');
  });

  it('a scan 3° askew the other way, with shaded rows (ocr_only)', async () => { await assertGrid({ skew: -3, shade: 0.75 }, 'ocr_only'); });

  it('a scanned PDF page 2.5° askew (ocr_only) is straightened the same way', async () => { await assertGrid({ skew: -2.5 }, 'ocr_only', false, true); });

  it('half a degree askew with dashed rules', async () => { await assertGrid({ skew: 0.5, dash: [6, 4] }); });
  it('a scanned PDF page asked for Table images: the OCR\'d Table gets its image, coordinates still left out', async () => {
    const data = await asScannedPdf(await tableScan({}));
    const r = await partition({ data, filename: 'scan.pdf' }, { strategy: 'hi_res', extractImageBlockTypes: ['Table'] });
    const t = r.elements.find((e) => e.type === 'Table');
    assert.ok(t, r.elements.map((e) => e.type).join(' '));
    assert.equal(t.metadata.image_mime_type, 'image/png');
    assert.ok((t.metadata.image_base64 ?? '').length > 1000, 'a cropped PNG of the table');
    assert.ok(r.elements.every((e) => e.metadata.coordinates === undefined), 'coordinates were not asked for');
  });
});
