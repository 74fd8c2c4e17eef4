// PDF tables on the table corpus (../shared/corpus/tables: born-digital PDFs with the cell grids that
// camelot's and tabula-java's own tests expect): ruled tables come back cell for cell, with their
// spans; pages without a table give none; a table's words are not repeated as text around it.
// Real PDFium on the real documents, in-process (no service needed).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { partitionDocument as partition } from '../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../lambdas/engine/partition/pdf/pool';
import type { Element } from '../../../lambdas/engine/elements';

const tablesDir = resolve(import.meta.dirname, '../../../../shared/corpus/tables');
const docBytes = (name: string) => new Uint8Array(readFileSync(resolve(tablesDir, 'docs', name)));
interface Expected { tables: { page: number | null; rows: string[][] }[] }
const expected = (name: string): Expected => JSON.parse(readFileSync(resolve(tablesDir, 'expected', `${name}.tables.json`), 'utf8'));

after(async () => { await shutdownPagePool(); });

const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

/** text_as_html → grid, the sources' convention: a spanned cell's text in its top-left position, '' elsewhere. */
function htmlGrid(html: string): string[][] {
  const grid: string[][] = [];
  const rows = [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => m[1]!);
  rows.forEach((row, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const m of row.matchAll(/<t[dh]([^>]*)>(.*?)<\/t[dh]>/g)) {
      while (grid[r]![c] !== undefined) c++;
      const cs = Number(/colspan="(\d+)"/.exec(m[1]!)?.[1] ?? 1), rs = Number(/rowspan="(\d+)"/.exec(m[1]!)?.[1] ?? 1);
      for (let dr = 0; dr < rs; dr++) for (let dc = 0; dc < cs; dc++) (grid[r + dr] ??= [])[c + dc] = dr || dc ? '' : decode(m[2]!);
      c += cs;
    }
  });
  const width = Math.max(...grid.map((r) => r.length));
  return grid.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
}

async function tablesOf(name: string, strategy: 'fast' | 'hi_res' = 'fast'): Promise<{ els: Element[]; tables: Element[] }> {
  const r = await partition({ data: docBytes(name), filename: name }, { strategy });
  return { els: r.elements, tables: r.elements.filter((e) => e.type === 'Table') };
}

describe('PDF ruled tables (table corpus)', () => {
  // Documents whose grids come back exactly as the source extractor's tests pin them.
  for (const name of ['twotables_2.pdf', 'column_span_2.pdf', 'multiple_tables.pdf', 'spanning_cells.pdf', 'frx_2012_disclosure.pdf', 'clockwise_table_1.pdf']) {
    it(`${name}: every expected grid, cell for cell`, async () => {
      const { tables } = await tablesOf(name);
      const exp = expected(name).tables;
      assert.equal(tables.length, exp.length, `${tables.length} tables for ${exp.length} expected`);
      exp.forEach((t, i) => {
        const got = tables[i]!;
        if (t.page !== null) assert.equal(got.metadata.page_number, t.page);
        assert.deepEqual(htmlGrid(got.metadata.text_as_html!), t.rows);
      });
    });
  }

  it('column spans and row spans are HTML spans (twotables_2: "Literacy Status" over six columns)', async () => {
    const { tables } = await tablesOf('twotables_2.pdf');
    assert.match(tables[0]!.metadata.text_as_html!, /<td colspan="6">Literacy Status<\/td>/);
    assert.match(tables[0]!.metadata.text_as_html!, /<td rowspan="2">State<\/td>/);
  });

  it('Table text is every cell once, row by row (a spanned header once, where it starts)', async () => {
    const { tables } = await tablesOf('twotables_2.pdf');
    const rows = expected('twotables_2.pdf').tables[0]!.rows;
    assert.equal(tables[0]!.text, rows.flat().filter(Boolean).join(' '));
    assert.equal(tables[0]!.text.split('Literacy Status').length, 2, 'the six-column header once');
  });

  it("a table's words are not repeated as text around it (column_span_2: prose above and below)", async () => {
    const { els, tables } = await tablesOf('column_span_2.pdf');
    assert.equal(tables.length, 1);
    const others = els.filter((e) => e.type !== 'Table').map((e) => e.text).join('\n');
    assert.ok(others.length > 200, 'the prose around the table is kept');
    for (const cell of ['All the available individuals', 'Anthropometry', 'Clinical Examination']) {
      assert.ok(tables[0]!.text.includes(cell), `${cell} in the table`);
      assert.ok(!others.includes(cell), `${cell} not repeated outside the table`);
    }
  });

  it('a page with /Rotate (Publication…August_2016, landscape) reads upright and finds its table', async () => {
    const name = 'Publication_of_award_of_Bids_for_Transport_Sector__August_2016.pdf';
    const { tables } = await tablesOf(name);
    const first = tables.find((t) => t.metadata.page_number === 1)!;
    assert.ok(first, 'a table on page 1');
    const grid = htmlGrid(first.metadata.text_as_html!);
    const exp = expected(name).tables[0]!.rows;
    assert.deepEqual(grid[0], exp[0], 'header row');
    assert.deepEqual(grid.at(-1), exp.at(-1), 'last row');
  });

  it('AnimalSounds1: side-by-side tables with record rules, a wrapped record one row, down to the bottom rule', async () => {
    const { els, tables } = await tablesOf('AnimalSounds1.pdf');
    const exp = expected('AnimalSounds1.pdf').tables;
    assert.equal(tables.length, 2);
    assert.deepEqual(htmlGrid(tables[0]!.metadata.text_as_html!), exp[0]!.rows);
    // The source's grid opens with an empty row (above the header, where no text is): not a record.
    assert.deepEqual(htmlGrid(tables[1]!.metadata.text_as_html!), exp[1]!.rows.filter((r) => r.some(Boolean)));
    assert.deepEqual(els.filter((e) => e.type !== 'Table').map((e) => e.text), [], 'no wrapped cell left as text');
  });

  it('fast and hi_res find the same ruled tables; pdf_infer_table_structure=false keeps the Table without HTML', async () => {
    const hi = await tablesOf('twotables_2.pdf', 'hi_res');
    assert.equal(hi.tables.length, 2);
    const r = await partition({ data: docBytes('twotables_2.pdf'), filename: 'twotables_2.pdf' }, { strategy: 'fast', pdfInferTableStructure: false });
    const t = r.elements.filter((e) => e.type === 'Table');
    assert.equal(t.length, 2);
    assert.equal(t[0]!.metadata.text_as_html, undefined);
  });
});

describe('PDF pages without tables (table corpus)', () => {
  for (const name of ['scotus-transcript-p1.pdf', 'figure_structure.pdf', 'line-char-render-example.pdf']) {
    it(`${name}: no Table`, async () => {
      assert.deepEqual(expected(name).tables, []);
      const { els, tables } = await tablesOf(name);
      assert.ok(els.length > 0, 'the page has text');
      assert.deepEqual(tables.map((t) => t.text), []);
    });
  }
});

/** A one-page PDF whose content stream draws `segments` short lines in a grid pattern, then a line of text. */
function pdfWithLines(segments: number, text: string): Uint8Array {
  let ops = '0.2 w\n';
  for (let i = 0; i < segments; i++) {
    const x = 50 + (i % 100) * 5, y = 100 + Math.floor(i / 100) * 5;
    ops += i % 2 ? `${x} ${y} m ${x + 4} ${y} l S\n` : `${x} ${y} m ${x} ${y + 4} l S\n`;
  }
  ops += `BT /F1 12 Tf 72 740 Td (${text}) Tj ET\n`;
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${ops.length} >>\nstream\n${ops}endstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => { offsets.push(body.length); body += `${i + 1} 0 obj\n${o}\nendobj\n`; });
  const xref = body.length;
  body += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

describe('PDF pages with thousands of drawn lines (bad input)', () => {
  it('a page past the segment cap skips ruled-table detection with a warning and keeps its text', async () => {
    const r = await partition({ data: pdfWithLines(12_000, 'Hello table-free chart page'), filename: 'chart.pdf' }, { strategy: 'fast' });
    assert.ok(r.warnings.some((w) => /page 1: more than 10000 drawn line segments/.test(w)), JSON.stringify(r.warnings));
    assert.ok(r.elements.some((e) => e.text.includes('Hello table-free chart page')));
    assert.equal(r.elements.filter((e) => e.type === 'Table').length, 0);
  });

  it('below the cap a dense drawing of short ticks is no table', async () => {
    const r = await partition({ data: pdfWithLines(2_000, 'Ticks only'), filename: 'ticks.pdf' }, { strategy: 'fast' });
    assert.deepEqual(r.warnings, []);
    assert.equal(r.elements.filter((e) => e.type === 'Table').length, 0);
    assert.ok(r.elements.some((e) => e.text.includes('Ticks only')));
  });
});
