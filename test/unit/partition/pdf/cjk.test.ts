import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { cjkPdf, type PageSpec } from '../../../support/cjk-pdf';

after(async () => { await shutdownPagePool(); });

const texts = async (pages: PageSpec[]) =>
  (await partition({ data: cjkPdf(pages), filename: 'cjk.pdf' }, { strategy: 'fast' })).elements.map((e) => e.text);

describe('CJK text in PDFs', () => {
  it('joins letter-spaced Japanese, Chinese and Thai without spaces between glyphs', async () => {
    const t = await texts([{ runs: [{ text: '日本語の文書を変換します', x: 50, y: 780, size: 12, tracking: 250 }] }]);
    assert.deepEqual(t, ['日本語の文書を変換します']);
    const data = cjkPdf([{ runs: [
      { text: '中文文本测试', x: 50, y: 780, size: 12, tracking: 250 },
      { text: 'ภาษาไทยง่ายมาก', x: 50, y: 740, size: 12, tracking: 250 },
    ] }]);
    const r = await partition({ data, filename: 'cjk.pdf' }, { strategy: 'fast', detectLanguagePerElement: true });
    assert.deepEqual(r.elements.map((e) => [e.text, e.metadata.languages]), [['中文文本测试', ['zho']], ['ภาษาไทยง่ายมาก', ['tha']]]);
  });

  it('keeps a positioned gap between Japanese words and the spaces Latin words need', async () => {
    const t = await texts([{ runs: [
      { text: '前連結会計年度(自', x: 50, y: 780, size: 10 },
      { text: '平成24年４月１日', x: 50 + 9 * 10 + 5, y: 780, size: 10 },
      { text: 'PDFファイルを変換する tool です', x: 50, y: 700, size: 10 },
      { text: '変換', x: 50, y: 650, size: 10, tracking: 250 },
      { text: 'tool', x: 50 + 2 * 12.5 + 2, y: 650, size: 10 },
    ] }]);
    assert.deepEqual(t, ['前連結会計年度(自 平成24年４月１日', 'PDFファイルを変換する tool です', '変換 tool']);
  });

  it('keeps the word spaces of letter-spaced Korean and drops the tracking gaps', async () => {
    const t = await texts([{ runs: [{ text: '한국어 문서를 변환합니다', x: 50, y: 780, size: 12, tracking: 300 }] }]);
    assert.deepEqual(t, ['한국어 문서를 변환합니다']);
  });

  it('reads a wrapped Japanese paragraph without a space at the line break', async () => {
    const t = await texts([{ runs: [
      { text: 'これは長い文章の最初の行です', x: 50, y: 780, size: 10 },
      { text: '二行目に続きます', x: 50, y: 766, size: 10 },
    ] }]);
    assert.equal(t.join('|'), 'これは長い文章の最初の行です二行目に続きます');
  });

  it('reads vertical writing top to bottom, columns right to left', async () => {
    const t = await texts([{ runs: [
      // first paragraph: two columns at the right of the page
      { text: '縦書きの文章です', x: 500, y: 800, size: 12, vertical: true },
      { text: '二列目の文章です', x: 482, y: 800, size: 12, vertical: true },
      // second paragraph further left
      { text: '次の段落はここ', x: 300, y: 800, size: 12, vertical: true },
      { text: 'から始まります', x: 282, y: 800, size: 12, vertical: true },
    ] }]);
    assert.deepEqual(t, ['縦書きの文章です二列目の文章です', '次の段落はここから始まります']);
  });

  it('reads a page whose text runs up the page (rotated) in line order', async () => {
    const t = await texts([{ rotate: 90, runs: [
      { text: '第一行の見出しです', x: 100, y: 50, size: 12, up: true },
      { text: '二番目の行はここにあります', x: 200, y: 50, size: 12, up: true },
    ] }]);
    assert.deepEqual(t, ['第一行の見出しです', '二番目の行はここにあります']);
  });
});

describe('korean-text-with-tables.pdf (corpus)', () => {
  it('keeps the Korean text, with word spaces and no spaces between syllables', async () => {
    const data = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../../../../../shared/corpus/docs/korean-text-with-tables.pdf')));
    const r = await partition({ data, filename: 'korean-text-with-tables.pdf' }, { strategy: 'fast' });
    const all = r.elements.map((e) => e.text).join('\n');
    // pdftotext finds 805 Hangul syllables on the page.
    assert.ok((all.match(/\p{Script=Hangul}/gu) ?? []).length >= 800, `${(all.match(/\p{Script=Hangul}/gu) ?? []).length} Hangul letters`);
    assert.ok(all.includes('적립한도 없이 할인점·주유·온라인쇼핑몰 1.5% 빅포인트 적립'));
    assert.ok(all.includes('무이자할부, 다이어트할부, 삼성카드 할인이 적용된 일시불 및 할부 이용금액'));
    assert.doesNotMatch(all, /(?<!\p{Script=Hangul})(?:\p{Script=Hangul} ){4}/u, 'no syllables split by spaces');
    for (const e of r.elements) if (/\p{Script=Hangul}/u.test(e.text)) assert.deepEqual(e.metadata.languages, ['kor']);
  });

  it('drops text drawn wholly off the page (printer marks below the media box)', async () => {
    const data = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../../../../../shared/corpus/docs/korean-text-with-tables.pdf')));
    const r = await partition({ data, filename: 'korean-text-with-tables.pdf' }, { strategy: 'fast', coordinates: true });
    const off = r.elements.filter((e) => e.metadata.coordinates!.points.every(([, y]) => y < 0));
    assert.deepEqual(off.map((e) => e.text), []);
    assert.ok(r.elements.length > 20);
  });
});
