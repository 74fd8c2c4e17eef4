// Tables on scanned pages and images: pages of the table corpus are rendered to PNG here (PDFium at
// 200 dpi, as a scanner would give them) and partitioned with OCR; the grids found are scored against
// the corpus's expected cells with the table scorer's own functions (../shared/tools/score-tables.mjs).
// Ruled tables take their cells from the lines in the bitmap, unruled ones from OCR word alignment,
// and prose in two columns stays text. Real PDFium and real Tesseract, in-process.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { partitionDocument as partition } from '../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../lambdas/engine/partition/pdf/pool';
import { PdfDocument } from '../../../lambdas/engine/partition/pdf/pdfium';
import { renderPage } from '../../../lambdas/engine/partition/pdf/render';
import { shutdownOcr } from '../../../lambdas/engine/partition/ocr/tesseract';
import type { Element } from '../../../lambdas/engine/elements';
// @ts-expect-error: the scorer is plain ESM without types
import { scoreDocument } from '../../../../shared/tools/score-tables.mjs';

const shared = resolve(import.meta.dirname, '../../../../shared/corpus');
const bytes = (path: string) => new Uint8Array(readFileSync(resolve(shared, path)));
interface ExpectedTable { page: number | null; rows: string[][] }
const expected = (name: string): ExpectedTable[] => JSON.parse(readFileSync(resolve(shared, 'tables/expected', `${name}.tables.json`), 'utf8')).tables;
interface Score { expected: number; returned: number; matched: number; cells: number; tables: { cellScore: number }[] }
const score = (name: string, els: Element[]): Score => scoreDocument({ tables: expected(name) }, els);

after(async () => { await shutdownPagePool(); await shutdownOcr(); });

/** Page `page` of a PDF as a PNG "scan". */
async function scan(path: string, page = 1, dpi = 200): Promise<Uint8Array> {
  const doc = await PdfDocument.open(bytes(path));
  try {
    const r = renderPage(doc, page - 1, dpi);
    assert.ok(r, 'rendered');
    return r.png;
  } finally {
    doc.close();
  }
}

const tablesOf = (els: Element[]) => els.filter((e) => e.type === 'Table');
const outside = (els: Element[]) => els.filter((e) => e.type !== 'Table').map((e) => e.text).join('\n');

describe('tables on scanned pages and images', () => {
  it('a ruled table in a PNG: cells from the drawn lines, spans from missing separators (twotables_2)', async () => {
    const r = await partition({ data: await scan('tables/docs/twotables_2.pdf'), filename: 'twotables_2.png' }, { strategy: 'hi_res' });
    const s = score('twotables_2.pdf', r.elements);
    assert.equal(s.returned, 2, 'two tables, no fragments');
    assert.equal(s.matched, 2);
    assert.ok(s.cells >= 0.85, `cell accuracy ${s.cells.toFixed(3)}`);
    const [t] = tablesOf(r.elements);
    assert.match(t!.metadata.text_as_html!, /<td colspan="6">Literacy Status<\/td>/);
    assert.match(t!.metadata.text_as_html!, /<td rowspan="2">State<\/td>/);
    // Text row by row, as every format writes a table: the header rows, then the body.
    assert.match(t!.text, /^State Literacy Status .*College Kerala 2400 7\.2 0\.5 25\.3/);
    const rest = outside(r.elements);
    for (const w of ['Kerala', 'Maharashtra', 'Pooled', 'Illiterate']) assert.ok(!rest.includes(w), `${w} is not repeated outside the tables`);
  });

  it('a scanned PDF page (ocr_only) goes the same way: spanning_cells, section rows spanning the table', async () => {
    const r = await partition({ data: bytes('tables/docs/spanning_cells.pdf'), filename: 'spanning_cells.pdf' }, { strategy: 'ocr_only' });
    const s = score('spanning_cells.pdf', r.elements);
    assert.equal(s.matched, 2);
    assert.equal(s.returned, 2);
    assert.ok(s.cells >= 0.85, `cell accuracy ${s.cells.toFixed(3)}`);
    assert.ok(tablesOf(r.elements).some((t) => /colspan="\d+"/.test(t.metadata.text_as_html!)), 'section rows are spans');
  });

  it('an unruled table in a PNG: columns from OCR word alignment (health.pdf)', async () => {
    const r = await partition({ data: await scan('tables/docs/health.pdf'), filename: 'health.png' }, { strategy: 'hi_res' });
    const s = score('health.pdf', r.elements);
    assert.equal(s.matched, 1);
    assert.ok(s.cells >= 0.85, `cell accuracy ${s.cells.toFixed(3)}`);
  });

  it('a ruled table image keeps the lone figures of its cells (table-multi-row-column-cells.png)', async () => {
    const r = await partition({ data: bytes('docs/table-multi-row-column-cells.png'), filename: 'table.png' }, { strategy: 'hi_res' });
    const [t, ...rest] = tablesOf(r.elements);
    assert.equal(rest.length, 0);
    const html = t!.metadata.text_as_html!;
    assert.match(html, /<td colspan="2">Results<\/td>/);
    // Row by row: the header row, then each category's row. The library's expected output for this
    // image (../shared/corpus/expected/*/table-multi-row-column-cells.png.json) follows its OCR's
    // lines ("Results" first, a wrapped header's lines apart): text accuracy about 0.73 against it,
    // under the partition scorer's 0.8 match, so that row's table agreement stays below 1.0 on purpose.
    assert.match(t!.text, /^Disability Category Participants .* Results Accuracy Time to complete Blind 5 1 4 /);
    // A "1" alone in a cell: Tesseract drops it once the frame is painted out; the first reading has it.
    for (const row of ['Blind</td><td>5</td><td>1</td><td>4', 'Low Vision</td><td>5</td><td>2</td><td>3', 'Dexterity</td><td>5</td><td>4</td><td>1', 'Mobility</td><td>3</td><td>3</td><td>0']) {
      assert.ok(html.includes(row), `${row} in ${html}`);
    }
  });

  it('a dense table with thin grey TOTAL bands: the text on grey is read (frx_2012_disclosure as a PNG)', async () => {
    const r = await partition({ data: await scan('tables/docs/frx_2012_disclosure.pdf'), filename: 'frx.png' }, { strategy: 'hi_res' });
    const s = score('frx_2012_disclosure.pdf', r.elements);
    assert.equal(s.matched, 1);
    assert.ok(s.cells >= 0.9, `cell accuracy ${s.cells.toFixed(3)}`);
  });

  it('prose in two columns is not a table (multi-column-2p.pdf page 1 as a PNG)', async () => {
    const r = await partition({ data: await scan('docs/multi-column-2p.pdf'), filename: 'columns.png' }, { strategy: 'hi_res' });
    assert.deepEqual(tablesOf(r.elements).map((t) => t.text.slice(0, 80)), []);
    assert.ok(outside(r.elements).length > 2000, 'the prose is there');
  });
});
