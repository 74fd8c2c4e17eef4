// Vertical CJK writing is told by the font's writing mode (PDFium lays Identity-V glyphs out
// differently), not by glyphs that happen to stack: a vertical line set glyph by glyph is one line,
// and a table column of one-glyph cells stacked as closely stays a column of cells.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { mergeVertical, type ScriptWord } from '../../../../lambdas/engine/partition/pdf/scripts';
import { cjkPdf, type PageSpec } from '../../../support/cjk-pdf';

after(async () => { await shutdownPagePool(); });

const elements = async (pages: PageSpec[]) =>
  (await partition({ data: cjkPdf(pages), filename: 'cjk.pdf' }, { strategy: 'fast', pdfInferTableStructure: true })).elements;

describe('vertical writing', () => {
  it('reads vertical lines set one glyph per operator as lines, columns right to left', async () => {
    const els = await elements([{ runs: [
      { text: '縦書きの文章です', x: 500, y: 800, size: 12, vertical: true, pitch: 12 },
      { text: '二列目の文章です', x: 482, y: 800, size: 12, vertical: true, pitch: 12 },
    ] }]);
    assert.deepEqual(els.map((e) => e.text), ['縦書きの文章です二列目の文章です']);
  });

  it('keeps a table column of one-glyph cells (horizontal writing, one text block) as cells', async () => {
    const els = await elements([{ runs: [
      ...['質問一', '質問二', '質問三', '質問四'].map((t, i) => ({ text: t, x: 60, y: 700 - 12 * i, size: 12 })),
      // 是/否 answers: one glyph per row, rows one em apart, all in one BT block.
      { text: '是否否是', x: 200, y: 700, size: 12, pitch: 12 },
    ] }]);
    const tables = els.filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1, `one table: ${JSON.stringify(els.map((e) => [e.type, e.text]))}`);
    assert.match(String(tables[0]!.metadata.text_as_html), /<tr><td>質問一<\/td><td>是<\/td><\/tr><tr><td>質問二<\/td><td>否<\/td><\/tr><tr><td>質問三<\/td><td>否<\/td><\/tr><tr><td>質問四<\/td><td>是<\/td><\/tr>/);
  });
});

describe('mergeVertical', () => {
  const glyph = (t: string, top: number, vmode: boolean): ScriptWord => ({ t, box: [100, top - 12, 112, top], turn: 0, size: 12, ...(vmode ? { vmode } : {}) });
  it('merges stacked glyphs set in vertical writing mode, not horizontal ones stacked as closely', () => {
    assert.deepEqual(mergeVertical(['縦', '書', 'き'].map((t, i) => glyph(t, 700 - 12 * i, true))).map((w) => [w.t, !!w.vertical]), [['縦書き', true]]);
    assert.deepEqual(mergeVertical(['是', '否', '是'].map((t, i) => glyph(t, 700 - 12 * i, false))).map((w) => w.t), ['是', '否', '是']);
  });
});
