// Tables that run over a page break with their header rows repeated on each page, and merged header
// cells (issue 29). Each page's part is its own Table (elements are per page); each carries the
// repeated header once, merged cells as colspan/rowspan in text_as_html and once in the text.
// PDFs built here (test/support/table-pdf.ts).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import type { Element } from '../../../../lambdas/engine/elements';
import { tablePdf, type TableLayout } from '../../../support/table-pdf';

after(async () => { await shutdownPagePool(); });

// "Register" and "Access" span both header rows, "Field" spans the "Bits" and "Name" sub-columns.
const HEADER = [['Register', 'Field', '', 'Access'], ['', 'Bits', 'Name', '']];
const SPANS: [number, number, number, number][] = [[0, 0, 2, 1], [0, 1, 1, 2], [0, 3, 2, 1]];
const BODY = Array.from({ length: 30 }, (_, i) => [`CTRL_${i}`, `${i % 8}:0`, `FIELD_${i}_EN`, i % 2 ? 'RW' : 'RO']);

function twoPages(rules: TableLayout['rules']): Uint8Array {
  const part = (rows: string[][], top: number): TableLayout => ({ rows: [...HEADER, ...rows], spans: SPANS, top, rowHeight: 18, rules });
  return tablePdf([
    { tables: [part(BODY.slice(0, 18), 680)], options: { text: [{ x: 50, y: 720, t: 'Table 4. Control registers of the unit', size: 11 }] } },
    { tables: [part(BODY.slice(18), 740)] },
  ]);
}

async function tables(pdf: Uint8Array): Promise<{ els: Element[]; tables: Element[] }> {
  const r = await partition({ data: pdf, filename: 'regs.pdf' }, { strategy: 'fast' });
  return { els: r.elements, tables: r.elements.filter((e) => e.type === 'Table') };
}

const bodyText = (rows: string[][]) => rows.map((r) => r.join(' ')).join(' ');

describe('a ruled table over a page break, header repeated, merged header cells', () => {
  it('one Table per page, each with the header once (spans in the HTML) and its own rows in order', async () => {
    const { tables: t } = await tables(twoPages(true));
    assert.deepEqual(t.map((e) => e.metadata.page_number), [1, 2]);
    for (const e of t) {
      assert.match(e.metadata.text_as_html!, /^<table><tr><td rowspan="2">Register<\/td><td colspan="2">Field<\/td><td rowspan="2">Access<\/td><\/tr><tr><td>Bits<\/td><td>Name<\/td><\/tr>/);
    }
    assert.equal(t[0]!.text, `Register Field Access Bits Name ${bodyText(BODY.slice(0, 18))}`);
    assert.equal(t[1]!.text, `Register Field Access Bits Name ${bodyText(BODY.slice(18))}`);
  });
});

describe('an unruled table over a page break with a header spanning sub-columns', () => {
  for (const rules of ['rows', false] as const) {
    it(`the spanning header is in each page's Table, once, not a heading beside it (${rules ? 'rules between rows' : 'no rules'})`, async () => {
      const { els, tables: t } = await tables(twoPages(rules));
      assert.deepEqual(t.map((e) => e.metadata.page_number), [1, 2]);
      assert.deepEqual(els.filter((e) => e.type !== 'Table').map((e) => e.text), ['Table 4. Control registers of the unit']);
      for (const [i, e] of t.entries()) {
        assert.equal(e.text.split(/\bField\b/).length, 2, 'Field once');
        assert.ok(e.text.endsWith(bodyText(i ? BODY.slice(18) : BODY.slice(0, 18))), e.text);
      }
    });
  }

  it('a header wider than its sub-columns is one cell with a colspan', async () => {
    const header = [['Region', 'Quarterly totals', '', 'Notes'], ['', 'Q1', 'Q2', '']];
    const body = Array.from({ length: 6 }, (_, i) => [`Area ${i}`, `${1200 + i * 7}`, `${980 + i * 13}`, i % 2 ? 'new' : 'old']);
    const pdf = tablePdf([{ tables: [{ rows: [...header, ...body], spans: [[0, 1, 1, 2]], rowHeight: 18, rules: false, colWidths: [60, 36, 36, 50], pad: 8 }] }]);
    const { tables: t } = await tables(pdf);
    assert.equal(t.length, 1);
    assert.match(t[0]!.metadata.text_as_html!, /<td colspan="2">Quarterly totals<\/td>/);
    assert.equal(t[0]!.text.split('Quarterly totals').length, 2);
  });
});
