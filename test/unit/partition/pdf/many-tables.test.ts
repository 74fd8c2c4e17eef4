// Bad input: a page of hundreds of tiny ruled tables (a form of boxes, an adversarial file). Work
// stays bounded: each grid looks only at the words in its own height, at most MAX_RULED_TABLES are
// read per page with a warning, and the rest of the page still comes back as text (a partial result,
// not a failure). Past ~10,000 drawn segments a page skips ruled tables altogether (paths.ts).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { MAX_RULED_TABLES } from '../../../../lambdas/engine/partition/pdf/tables/ruled';
import { tablePdf, type TableLayout } from '../../../support/table-pdf';

after(async () => { await shutdownPagePool(); });

/** `n` × `n` tiny 2 × 2 ruled tables on each page, cells holding r<i>c<j> labels. */
function boxes(n: number, pages: number): Uint8Array {
  const tables: TableLayout[] = [];
  const w = 590 / n, h = 770 / n;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    tables.push({ rows: [[`a${i}`, `b${j}`], [`c${i}`, `d${j}`]], x: 10 + j * w, top: 780 - i * h, colWidths: [w / 2.4, w / 2.4], rowHeight: h / 2.4, pad: 1 });
  }
  return tablePdf(Array.from({ length: pages }, () => ({ tables, options: { size: 4 } })));
}

describe('a page with hundreds of tiny ruled tables', () => {
  it('reads the first tables, warns, keeps the rest as text, in bounded time', async () => {
    const started = Date.now();
    const r = await partition({ data: boxes(20, 3), filename: 'boxes.pdf' }, { strategy: 'fast' });
    const elapsed = Date.now() - started;
    for (const p of [1, 2, 3]) {
      assert.ok(r.warnings.includes(`page ${p}: more than ${MAX_RULED_TABLES} ruled tables: the rest are read as text`), JSON.stringify(r.warnings));
      const onPage = r.elements.filter((e) => e.metadata.page_number === p);
      assert.ok(onPage.filter((e) => e.type === 'Table').length >= MAX_RULED_TABLES);
      const text = onPage.map((e) => e.text).join(' ');
      for (const label of ['a0', 'd19', 'a19', 'b0']) assert.ok(new RegExp(`\\b${label}\\b`).test(text), `${label} on page ${p}`);
    }
    // ~1 s a page on a loaded two-core machine; a quadratic pass over grids × words would be far slower.
    assert.ok(elapsed < 30_000, `${elapsed} ms`);
  });
});
