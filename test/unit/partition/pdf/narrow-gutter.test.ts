// Page columns set closer than a segment gap (issue 29). LaTeX's article class sets its two columns 10 pt
// apart, an em of its 10 pt body text, under the gap (1.1 em) that splits a line into segments: the
// lines of both columns at one height read as one line ("report rainfall every noise. The parameters"),
// page columns were never found, and a table in the right column took the left column's lines as its
// first column. The pages here are built from word boxes set as pdfTeX sets them: justified lines
// ending flush at the gutter, a title and authors side by side across the top.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import type { Line, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

/** A line's words from x0, justified to end at x1 when given (spaces stretched alike). */
const line = typeset({ size: 10, char: 5.8, space: 3.3 });

const LEFT = [
  'Networks of gauges report rainfall every few',
  'minutes, yet their readings wander over months',
  'as the funnels clog and the pivots of their',
  'buckets wear, so that heavy showers are under',
  'reported while light rain tips the bucket too',
  'early and is over reported by the same gauge.',
  'Field crews visit each site rarely, and any fix',
  'has to work from a few measurements.',
];
const RIGHT = [
  'The parameters are estimated by minimising the',
  'squared error of the gauge factors measured at',
  'each visit, with a penalty that keeps the drift',
  'of neighbouring gauges close to one another in',
  'the same season, and the penalty weight is set',
  'by cross validation over the visits of a year.',
  'A gauge with fewer than three visits borrows',
  'strength from the gauges around it.',
];
const GUTTER_L = 300, GUTTER_R = 310, PAGE_L = 54, PAGE_R = 556;

function twoColumns(top: number): Word[] {
  return LEFT.flatMap((t, i) => [
    ...line(t, PAGE_L, top + 12 * i, i === LEFT.length - 1 ? undefined : GUTTER_L),
    ...line(RIGHT[i]!, GUTTER_R, top + 12 * i, i === RIGHT.length - 1 ? undefined : PAGE_R),
  ]);
}

const texts = (lines: Line[]) => lines.map((l) => l.segs.map((s) => s.text));

describe('a page gutter as narrow as a word space and a half', () => {
  it('parts each line into its two columns', () => {
    const lines = wordsToLines(twoColumns(100));
    assert.deepEqual(texts(lines), LEFT.map((t, i) => [t, RIGHT[i]]));
  });

  it('leaves one wide column of justified lines whole', () => {
    const lines = wordsToLines(LEFT.flatMap((t, i) => line(`${t} ${RIGHT[i]}`, PAGE_L, 100 + 12 * i, i === LEFT.length - 1 ? undefined : PAGE_R)));
    assert.deepEqual(texts(lines), LEFT.map((t, i) => [`${t} ${RIGHT[i]}`]));
  });

  it('leaves a table of short cells a little apart as it was (cells, not columns of running text)', () => {
    const rows = ['North', 'South', 'East', 'West', 'Centre', 'Coast', 'Hills'].map((r, i) => [
      ...line(`${r} region`, PAGE_L, 100 + 12 * i), ...line(`${10 + i} gauges`, PAGE_L + 60, 100 + 12 * i),
    ]);
    const lines = wordsToLines(rows.flat());
    for (const l of lines) assert.equal(l.segs.length, 1, JSON.stringify(texts([l])));
  });

  it("finds the columns with the page's folio centred in the gutter, and a numbered heading in the second column stays whole", () => {
    // the right column's section ends early; its next heading stands beside the left column's last lines
    const right = RIGHT.slice(0, 6);
    const words = [
      ...LEFT.flatMap((t, i) => line(t, PAGE_L, 100 + 12 * i, i === LEFT.length - 1 ? undefined : GUTTER_L)),
      ...right.flatMap((t, i) => line(t, GUTTER_R, 100 + 12 * i, PAGE_R)),
      ...line('2', GUTTER_R, 184), ...line('Spring', GUTTER_R + 25, 184), ...line('1', 303, 740),
    ];
    const page = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0 };
    const els = layoutPage(page, { tables: true }).map((e) => `${e.type}: ${e.text}`);
    assert.deepEqual(els, [`NarrativeText: ${LEFT.join(' ')}`, `NarrativeText: ${right.join(' ')}`, 'Title: 2 Spring', 'PageNumber: 1']);
  });

  it("reads the title and the authors set side by side first, then each column's paragraph", () => {
    const words = [
      ...line('Measuring Drift in Regional Rainfall Gauges', 160, 60),
      ...line('Maren Tollefsen', 150, 90), ...line('Okoro Ademola', 380, 90),
      ...line('Institute of Hydrology', 140, 102), ...line('Lagos Water Centre', 370, 102),
      ...twoColumns(140),
    ];
    const page = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0 };
    const els = layoutPage(page, { tables: true }).map((e) => e.text);
    const at = (s: string) => els.findIndex((e) => e.includes(s));
    assert.ok(els.includes(LEFT.join(' ')), JSON.stringify(els));
    assert.ok(els.includes(RIGHT.join(' ')), JSON.stringify(els));
    const order = ['Measuring Drift', 'Maren Tollefsen', 'Okoro Ademola', LEFT[0]!, RIGHT[0]!].map(at);
    assert.deepEqual([...order].sort((a, b) => a - b), order, JSON.stringify(els));
  });

  it('reads the columns above and below a ruled table across the page whose middle cells cover the gutter', () => {
    // the table's words cross the gutter: among all the page's words it is no gutter; the text around
    // the table (its words regrouped, lines.ts wordsToLines) finds it again
    const xs = [PAGE_L, 200, 420, PAGE_R], ys = [230, 250, 270, 290, 310, 330, 350];
    const table = ys.slice(0, -1).flatMap((y, r) => [...line(`key${r}`, 60, y + 5), ...line(`middle-cell-value${r}`, 260, y + 5), ...line(`v${r}`, 430, y + 5)]);
    const words = [...twoColumns(100), ...table, ...twoColumns(370)];
    assert.equal(wordsToLines(words)[0]!.segs.length, 1, 'one segment across the gutter among all the words');
    const rules = { h: ys.map((y) => ({ y, x0: PAGE_L, x1: PAGE_R })), v: xs.map((x) => ({ x, y0: ys[0]!, y1: ys[ys.length - 1]! })) };
    const page = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules };
    const els = layoutPage(page, { tables: true }).map((e) => `${e.type}: ${e.text.slice(0, 40)}`);
    const left = `NarrativeText: ${LEFT.join(' ').slice(0, 40)}`, right = `NarrativeText: ${RIGHT.join(' ').slice(0, 40)}`;
    assert.deepEqual(els, [left, right, `Table: ${'key0 middle-cell-value0 v0 key1 middle-cell-value1'.slice(0, 40)}`, left, right]);
  });

  it('keeps a sentence\'s stretched space, wider than the gutter, inside its column', () => {
    // pdfTeX sets a sentence's end a wider space than a word's, and justification stretches it past
    // the 10 pt gutter: the run of gaps narrow enough to be stretched spaces ran across the gutter,
    // the gutter was taken for a space and the stretched space for the column's edge ("season model."
    // alone, "Flow peak result" and the right column's line as one segment)
    const words = [...twoColumns(100), ...twoColumns(220)].filter((w) => Math.abs(w.y0 - 136) > 1 || w.x0 > GUTTER_L);
    const first = line('buckets wear, so heavy showers.', PAGE_L, 136);
    const rest = line('Light rain', first.at(-1)!.x1 + 14.8, 136, GUTTER_L);
    const lines = wordsToLines([...words, ...first, ...rest]);
    const third = lines.find((l) => Math.abs(l.y0 - 136) < 1)!;
    assert.deepEqual(third.segs.map((s) => s.text), ['buckets wear, so heavy showers. Light rain', RIGHT[3]]);
  });
});
