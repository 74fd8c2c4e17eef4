// Stretched spaces of justified lines against the cells of a table (justified.ts), on lines built
// here: a right-to-left table's columns line up at their right edges (where each cell starts), and
// its first column is the rightmost, so its rows stay cut into cells even when every row's cells are
// evenly spaced; a justified right-to-left paragraph's stretched spaces are still joined.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { joinJustifiedGaps } from '../../../../lambdas/engine/partition/pdf/justified';
import type { Line, Segment, Word } from '../../../../lambdas/engine/partition/pdf/page-text';

const SIZE = 12;
const word = (t: string, x0: number, x1: number, y0: number): Word => ({ t, x0, x1, y0, y1: y0 + SIZE, size: SIZE, bold: false, italic: false });
function segment(words: Word[], rtl: boolean): Segment {
  const xs = words.map((w) => [w.x0, w.x1]).flat();
  return { words, text: words.map((w) => w.t).join(' '), size: SIZE, rtl, x0: Math.min(...xs), x1: Math.max(...xs), y0: words[0]!.y0, y1: words[0]!.y1 };
}
/** One line of one-word segments, given as [x0, x1] left to right. */
function line(y0: number, cells: [number, number][], rtl: boolean): Line {
  const segs = cells.map(([x0, x1], k) => segment([word(`w${y0}-${k}`, x0, x1, y0)], rtl));
  return { segs, x0: segs[0]!.x0, x1: segs.at(-1)!.x1, y0, y1: y0 + SIZE };
}
const join = (lines: Line[]) => joinJustifiedGaps(lines, segment);

it('a right-to-left table whose rows are each evenly spaced keeps its cells (columns end at the right)', () => {
  // columns start (right edge) at 500, 470, 440; each row's words of one width, so each row's gaps are alike
  const row = (y: number, w: number) => line(y, [[440 - w, 440], [470 - w, 470], [500 - w, 500]], true);
  const lines = join([row(100, 18), row(116, 10), row(132, 18), row(148, 10)]);
  assert.deepEqual(lines.map((l) => l.segs.length), [3, 3, 3, 3]);
});

it('the same table left to right keeps its cells too (columns start at the left)', () => {
  const row = (y: number, w: number) => line(y, [[100, 100 + w], [130, 130 + w], [160, 160 + w]], false);
  const lines = join([row(100, 18), row(116, 10), row(132, 18), row(148, 10)]);
  assert.deepEqual(lines.map((l) => l.segs.length), [3, 3, 3, 3]);
});

it('a justified right-to-left paragraph\'s stretched spaces are joined', () => {
  // lines from the right margin (500) to the left one (300), spaces stretched alike in each line
  const justified = (y: number, widths: number[]) => {
    const gap = (200 - widths.reduce((a, b) => a + b, 0)) / (widths.length - 1);
    const cells: [number, number][] = [];
    let x = 300;
    for (const w of widths) { cells.push([x, x + w]); x += w + gap; }
    return line(y, cells, true);
  };
  const lines = join([justified(100, [60, 20, 45, 30]), justified(116, [25, 50, 30, 55]), justified(132, [40, 40, 20, 60])]);
  assert.deepEqual(lines.map((l) => l.segs.length), [1, 1, 1]);
});

it('a stretched line beside a narrow column gutter (under two ems) is joined on its side of the gutter', () => {
  // left column: one segment 60-290; gutter 18 points; right column 308-535, its spaces stretched to
  // 10.5 points (0.9 em): the gutter and the stretched spaces are all under two ems apart
  const left = segment([word('left', 60, 290, 100)], false);
  const widths = [41, 9, 41, 38, 30, 16];
  const gap = (535 - 308 - widths.reduce((a, b) => a + b, 0)) / (widths.length - 1);
  let x = 308;
  const right = widths.map((w, k) => { const s = segment([word(`r${k}`, x, x + w, 100)], false); x += w + gap; return s; });
  const l: Line = { segs: [left, ...right], x0: 60, x1: 535, y0: 100, y1: 100 + SIZE };
  const [out] = join([l]);
  assert.deepEqual(out!.segs.map((s) => s.text), ['left', 'r0 r1 r2 r3 r4 r5']);
});

it('a header row of evenly spaced words over rows padded apart (three text sizes down) keeps its cells', () => {
  // a table printed with generous cell padding: the header's words sit 18 points apart, as even as a
  // stretched line, and the rows under it are further than a paragraph's next line; their cells line up
  const header = line(100, [[100, 140], [158, 198], [216, 256]], false);
  const row = (y: number) => line(y, [[100, 112], [158, 170], [216, 228]], false);
  const lines = join([header, row(136), row(172), row(208)]);
  assert.deepEqual(lines.map((l) => l.segs.length), [3, 3, 3, 3]);
});

it('a list item\'s justified line whose stretched spaces straddle the segment gap stays one line of its item', async () => {
  // a browser's justified list in a narrow column: spaces stretched to about an em, some just under
  // the width that parts a line into segments (1.1 text sizes), some just over
  const { layoutPage } = await import('../../../../lambdas/engine/partition/pdf/layout');
  const { wordsToLines } = await import('../../../../lambdas/engine/partition/pdf/lines');
  const { typeset } = await import('../../../support/page-words');
  const set = typeset({ size: 9, char: 4.5, space: 2.5 });
  const spaced = (texts: string[], x: number, y: number, gaps: number[]): Word[] => texts.map((t, k) => {
    const w: Word = { t, x0: x, x1: x + 4.5 * t.length, y0: y, y1: y + 9, size: 9, bold: false, italic: false };
    x = w.x1 + (gaps[k] ?? 0);
    return w;
  });
  const words = [
    ...set('Between October and September we collected these data at each site:', 60, 88),
    ...spaced(['\u2022', 'discharge', 'at', 'fifteen-minute', 'intervals', 'from'], 60, 100, [7, 9.7, 10.2, 9.8, 9.7]),
    ...set('pressure transducers behind the weirs;', 72, 111),
    ...set('\u2022', 60, 124), ...set('snow depth at two stations per catchment.', 72, 124),
  ];
  const els = layoutPage({ page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true });
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), [
    'NarrativeText: Between October and September we collected these data at each site:',
    'ListItem: discharge at fifteen-minute intervals from pressure transducers behind the weirs;',
    'ListItem: snow depth at two stations per catchment.',
  ]);
});

it('a narrow column\'s line of few long words, its spaces stretched to three ems, stays one line of its paragraph', async () => {
  const { layoutPage } = await import('../../../../lambdas/engine/partition/pdf/layout');
  const { wordsToLines } = await import('../../../../lambdas/engine/partition/pdf/lines');
  const { typeset } = await import('../../../support/page-words');
  const set = typeset({ size: 10, char: 5, space: 3 });
  // a column from x 60 to 210; the fourth line's three words are 28 points (2.8 text sizes) apart
  const words = [
    ...set('The assessment of the new programme', 60, 100, 210),
    ...set('considered the access to every one', 60, 112, 210),
    ...set('of the stations and the ticketing', 60, 124, 210),
    ...set('sustainability of the', 60, 136, 210),
    ...set('materials used throughout the', 60, 148, 210),
    ...set('project.', 60, 160),
  ];
  const els = layoutPage({ page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true });
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), [
    'NarrativeText: The assessment of the new programme considered the access to every one of the stations and the ticketing sustainability of the materials used throughout the project.',
  ]);
});

it('a stretched line of the right-hand column whose gutter is about as wide as its spaces stays one line of its paragraph', async () => {
  const { layoutPage } = await import('../../../../lambdas/engine/partition/pdf/layout');
  const { wordsToLines } = await import('../../../../lambdas/engine/partition/pdf/lines');
  const { typeset } = await import('../../../support/page-words');
  const set = typeset({ size: 9, char: 4.5, space: 2.5 });
  // columns 60 to 297.5 and 315 to 552 (a gutter of 17.5 points, under two text sizes); the right column's
  // third line's six words are 13.5 points apart (one and a half text sizes)
  const left = ['The pipeline scales almost linearly with the number', 'of workers until the shared storage becomes the', 'bottleneck, at which point more workers only add', 'to the contention on the storage and the queues', 'that feed the workers with documents to convert.'];
  const right = ['Additional storage nodes move the point at which', 'the throughput stops growing, but each of them', 'which point additional workers only add', 'to the cost of the cluster without any gain in the', 'number of documents converted per second.'];
  const words = [
    ...left.flatMap((t, k) => set(t, 60, 100 + 11 * k, k < 4 ? 297.5 : undefined)),
    ...right.flatMap((t, k) => set(t, 315, 100 + 11 * k, k < 4 ? 552 : undefined)),
  ];
  const els = layoutPage({ page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true });
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), [`NarrativeText: ${left.join(' ')}`, `NarrativeText: ${right.join(' ')}`]);
});
