// A table in one column of a page set in two columns (issue 29: table_mislabeled_as_picture.pdf of
// the docling set, a two-page spread whose right page ends in an unruled table of checkbox cells).
// Lines are grouped across the page, so rows of the table and lines of the other column at the same
// height made multi-cell lines: the table swallowed the other column's text and blocked the
// reading-order cut between the columns. The PDF is built here: running text in the left column
// down the whole page, a question and a table without rules in the right one.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { pageColumns } from '../../../../lambdas/engine/partition/pdf/columns';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import type { Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { tablePdf } from '../../../support/table-pdf';
import { typeset } from '../../../support/page-words';

after(async () => { await shutdownPagePool(); });

const LEFT = [
  'Legal aid providers work in parallel with the courts and the',
  'bar associations that appoint lawyers for people who cannot',
  'pay for one, and they coordinate appointments in each region',
  'of the country while supervising the quality of the service.',
  'Yes, at the national level of the country',
  'Yes, at the regional level of the country',
  'Yes, at the local level of the country',
  'No',
  'They conduct training sessions for the staff lawyers and the',
  'paralegals who take legal aid cases in the smaller districts.',
];
const ITEMS = ['Persons with disabilities', 'Children', 'Women', 'The elderly', 'Migrants', 'Refugees'];

function spread(): Uint8Array {
  const text = LEFT.map((t, i) => ({ x: 50, y: 700 - i * 18, t }));
  text.push(
    { x: 360, y: 718, t: 'Are specialized services provided for these groups of' },
    { x: 360, y: 700, t: 'people by the state, by civil society or by both of them?' },
    { x: 360, y: 682, t: 'Please select all the answers that apply to your country.' },
  );
  return tablePdf([{
    tables: [{ rows: [['', 'State', 'CSOs'], ...ITEMS.map((t) => [t, '*', '*'])], x: 360, top: 660, rowHeight: 18, rules: false, colWidths: [130, 45, 40] }],
    options: { text, width: 612, height: 792 },
  }]);
}

describe('an unruled table in one column of a two-column page', () => {
  it("the table holds its own column's rows only, and the other column reads before it", async () => {
    const r = await partition({ data: spread(), filename: 'spread.pdf' }, { strategy: 'fast' });
    const tables = r.elements.filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1, r.elements.map((e) => `${e.type}: ${e.text}`).join('\n'));
    assert.equal(tables[0]!.text, `State CSOs ${ITEMS.map((t) => `${t} * *`).join(' ')}`);
    const all = r.elements.map((e) => e.text).join('\n');
    for (const t of LEFT) assert.ok(all.includes(t), `left column text kept: ${t}`);
    const idx = (s: string) => r.elements.findIndex((e) => e.text.includes(s));
    assert.ok(idx('paralegals who take legal aid') < idx('Are specialized services'), 'left column first');
    assert.ok(idx('Are specialized services') < r.elements.indexOf(tables[0]!), 'the question before its table');
  });

  it('table_mislabeled_as_picture.pdf (docling set): one Table of the right page, row by row', async () => {
    const file = resolve(import.meta.dirname, '../../../../../shared/corpus/docling/docs/table_mislabeled_as_picture.pdf');
    const r = await partition({ data: new Uint8Array(readFileSync(file)), filename: 'table_mislabeled_as_picture.pdf' }, { strategy: 'fast' });
    const tables = r.elements.filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1);
    // the row marks (a picture font's glyphs, "y") are words of their own before each label
    assert.match(tables[0]!.text, /^State funded legal aid CSOs (y )*Persons with disabilities \* \* /);
    assert.ok(!tables[0]!.text.includes('regional (district) level'), 'no text of the left page in the table');
  });
});

describe('page columns: short lines that meet across the gutter', () => {
  // A full-width table on a two-column page has short cells on both sides of the gutter on rows one
  // under the other; short lines that meet only here and there (a heading beside a table row, a
  // formula's end beside a one-word line) do not make the page one column. Three such meetings
  // apart kept a paper's page whole, and a table in its right column took the left column's lines.
  const words = typeset({ size: 10, char: 5, space: 3 });
  const prose = 'the text of a column runs on over its lines';
  const page = (right: (string | string[])[], left: string[]) => wordsToLines(right.flatMap((r, i) => {
    const y = 100 + 13 * i;
    const cells = typeof r === 'string' ? words(r, 310, y) : r.flatMap((c, k) => words(c, 310 + 75 * k, y));
    return [...cells, ...words(left[i]!, 60, y)];
  }));

  it('meeting at scattered rows: two columns', () => {
    const right = [prose, prose, prose, ['Questions', '79,168', '8,757'], ['TriviaQA', '78,785', '8,837'], ['Curated', '1,353', '694'], '2 Method', prose, 'alone.', prose, prose];
    const left = [prose, prose, prose, '1 Introduction', prose, prose, 'interpolation', prose, 'x = y', prose, prose];
    assert.equal(pageColumns(page(right, left), 10).columns.length, 2);
  });

  it('authors side by side in rows of short lines over the columns: the page head, not a table across it', () => {
    // an ACM paper: three authors' lines side by side under the title, then two columns
    const right = ['Tomas Ruiz', 'Andes Sensing', 'Quito, Ecuador', prose, prose, prose, prose, prose];
    const left = ['Lena Fischer', 'Alpine Data Lab', 'Innsbruck, Austria', prose, prose, prose, prose, prose];
    const title = words('Counting Raindrops at Scale in the Alps and the Andes', 150, 80);
    const lines = wordsToLines([...title, ...page(right, left).flatMap((l) => l.segs.flatMap((s) => s.words))]);
    const r = pageColumns(lines, 10);
    assert.equal(r.columns.length, 2);
    assert.deepEqual(r.head.map((l) => l.segs.map((s) => s.text).join(' | ')), [
      'Counting Raindrops at Scale in the Alps and the Andes', 'Lena Fischer | Tomas Ruiz', 'Alpine Data Lab | Andes Sensing', 'Innsbruck, Austria | Quito, Ecuador',
    ]);
  });

  it('rows of short cells on both sides, one under the other: one table across the page, read whole in the first column', () => {
    const right = [prose, prose, prose, ['0.71', '0.64'], ['0.88', '0.83'], ['0.93', '0.91'], prose, prose, prose];
    const left = [prose, prose, prose, 'Rules 12', 'Layout 14', 'Ours 16', prose, prose, prose];
    const { columns } = pageColumns(page(right, left), 10);
    const texts = columns.map((c) => c.map((l) => l.segs.map((s) => s.text).join(' | ')));
    assert.deepEqual(texts[0]!.slice(3, 6), ['Rules 12 | 0.71 | 0.64', 'Layout 14 | 0.88 | 0.83', 'Ours 16 | 0.93 | 0.91']);
    assert.ok(texts.slice(1).flat().every((t) => t === prose), JSON.stringify(texts));
  });
});

describe('text boxes side by side', () => {
  it('a bold heading over a short paragraph in each of two boxes is text, not a table', () => {
    const words = typeset({ size: 12, char: 5, space: 3 }), bold = typeset({ size: 12, char: 5, space: 3, bold: true });
    const lines = wordsToLines([
      ...bold('North', 60, 100), ...bold('South', 330, 100),
      ...words('Strong growth in enterprise accounts,', 60, 120), ...words('Slower quarter; two large deals', 330, 120),
      ...words('driven by the renewal campaign.', 60, 135), ...words('moved into the next quarter.', 330, 135),
    ]);
    const els = layoutPage({ page: 1, width: 612, height: 792, lines, links: [], images: [], chars: 0, unmapped: 0 }, { tables: true });
    assert.ok(!els.some((e) => e.type === 'Table'), JSON.stringify(els.map((e) => [e.type, e.text])));
    assert.ok(els.some((e) => e.text === 'Strong growth in enterprise accounts, driven by the renewal campaign.'));
  });
});

describe('a heading in one column beside two lines of the next', () => {
  it('the two lines stay two lines, each in its order (the heading\'s band reaches both)', () => {
    const mk = (text: string, x: number, y: number, size: number): Word[] => typeset({ size })(text, x, y);
    const lines = wordsToLines([...mk('Market news', 60, 100, 13), ...mk('Article paragraph four describes', 230, 96, 9), ...mk('the events of the week', 230, 106.5, 9)]);
    const texts = lines.flatMap((l) => l.segs.map((s) => s.text));
    assert.ok(texts.includes('Article paragraph four describes') && texts.includes('the events of the week'), JSON.stringify(texts));
  });
});
