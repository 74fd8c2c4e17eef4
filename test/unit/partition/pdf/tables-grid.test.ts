// Ruled-table geometry on synthetic lines: merged rules, grids from crossings, spans where a
// separator is missing, words placed by their centre, and what is not a table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findGrids, mergeH, pruneEmpty } from '../../../../lambdas/engine/partition/pdf/tables/grid';
import type { HRule, VRule } from '../../../../lambdas/engine/partition/pdf/tables/paths';
import { findRuledTables } from '../../../../lambdas/engine/partition/pdf/tables/ruled';
import type { Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { tableText, tableTextByColumns, tableToHtml } from '../../../../lambdas/engine/partition/table-html';

/** Full rules of a grid with column boundaries xs and row boundaries ys. */
function lattice(xs: number[], ys: number[]): { h: HRule[]; v: VRule[] } {
  return {
    h: ys.map((y) => ({ y, x0: xs[0]!, x1: xs[xs.length - 1]! })),
    v: xs.map((x) => ({ x, y0: ys[0]!, y1: ys[ys.length - 1]! })),
  };
}
const word = (t: string, x: number, y: number): Word => ({ t, x0: x, x1: x + 6 * t.length, y0: y, y1: y + 10, size: 10, bold: false, italic: false });
const spans = (g: ReturnType<typeof findGrids>[number]) => g.cells.map((c) => `${c.row},${c.col}:${c.rowspan}x${c.colspan}`);

describe('ruled table grid', () => {
  it('a full lattice gives one cell per position', () => {
    const { h, v } = lattice([0, 100, 200, 300], [0, 20, 40, 60]);
    const [g, ...rest] = findGrids(h, v);
    assert.equal(rest.length, 0);
    assert.deepEqual(g!.xs, [0, 100, 200, 300]);
    assert.deepEqual(g!.ys, [0, 20, 40, 60]);
    assert.equal(g!.cells.length, 9);
    assert.ok(g!.cells.every((c) => c.rowspan === 1 && c.colspan === 1));
  });

  it('a missing vertical separator makes a colspan, a missing horizontal one a rowspan', () => {
    const xs = [0, 100, 200, 300], ys = [0, 20, 40, 60];
    // The separator at x=100 stops below the first row (a header spanning two columns)...
    const v: VRule[] = [{ x: 0, y0: 0, y1: 60 }, { x: 100, y0: 20, y1: 60 }, { x: 200, y0: 0, y1: 60 }, { x: 300, y0: 0, y1: 60 }];
    // ...and the line at y=40 skips the first column (a label covering two rows).
    const h: HRule[] = [{ y: 0, x0: 0, x1: 300 }, { y: 20, x0: 0, x1: 300 }, { y: 40, x0: 100, x1: 300 }, { y: 60, x0: 0, x1: 300 }];
    const [g] = findGrids(h, v);
    assert.deepEqual(g!.xs, xs);
    assert.deepEqual(g!.ys, ys);
    assert.deepEqual(spans(g!), ['0,0:1x2', '0,2:1x1', '1,0:2x1', '1,1:1x1', '1,2:1x1', '2,1:1x1', '2,2:1x1']);
  });

  it('a table without an outer frame takes its edges from the ends of its lines', () => {
    const h: HRule[] = [{ y: 0, x0: 10, x1: 310 }, { y: 20, x0: 10, x1: 310 }, { y: 40, x0: 10, x1: 310 }];
    const v: VRule[] = [{ x: 110, y0: 0, y1: 40 }, { x: 210, y0: 0, y1: 40 }];
    const [g] = findGrids(h, v);
    assert.deepEqual(g!.xs, [10, 110, 210, 310]);
    assert.equal(g!.cells.length, 6);
  });

  it('merges collinear pieces and nearly equal positions into one line', () => {
    const merged = mergeH([{ y: 10, x0: 0, x1: 50 }, { y: 10.8, x0: 51.5, x1: 100 }, { y: 10.2, x0: 102, x1: 150 }, { y: 30, x0: 0, x1: 3 }]);
    assert.equal(merged.length, 1, 'the 3-point tick is not a line');
    assert.equal(merged[0]!.x0, 0);
    assert.equal(merged[0]!.x1, 150);
    assert.ok(Math.abs(merged[0]!.y - 10.33) < 0.01);
  });

  it('separate tables stay separate; a lone box is not a grid', () => {
    const a = lattice([0, 100, 200], [0, 20, 40]);
    const b = lattice([0, 100, 200], [100, 120, 140]);
    const box = lattice([300, 400], [300, 320]);
    const grids = findGrids([...a.h, ...b.h, ...box.h], [...a.v, ...b.v, ...box.v]);
    assert.deepEqual(grids.map((g) => [g.y0, g.y1]), [[0, 40], [100, 140]]);
  });

  it('drops rows and columns without text, shrinking the spans across them', () => {
    const cells = [
      { row: 0, col: 0, rowspan: 1, colspan: 3, text: 'Head' },
      { row: 1, col: 0, rowspan: 1, colspan: 1, text: 'a' }, { row: 1, col: 1, rowspan: 1, colspan: 1, text: '' }, { row: 1, col: 2, rowspan: 1, colspan: 1, text: 'b' },
      { row: 2, col: 0, rowspan: 1, colspan: 1, text: '' }, { row: 2, col: 1, rowspan: 1, colspan: 1, text: '' }, { row: 2, col: 2, rowspan: 1, colspan: 1, text: '' },
    ];
    const p = pruneEmpty(cells, 3, 3);
    assert.equal(p.nrows, 2);
    assert.equal(p.ncols, 2);
    assert.deepEqual(p.cells.map((c) => `${c.row},${c.col}:${c.colspan}:${c.text}`), ['0,0:2:Head', '1,0:1:a', '1,1:1:b']);
  });
});

describe('ruled tables with words', () => {
  it('places words by their centre, keeps spans and reads the text row by row', () => {
    const xs = [0, 100, 200, 300];
    const v: VRule[] = [{ x: 0, y0: 0, y1: 60 }, { x: 100, y0: 20, y1: 60 }, { x: 200, y0: 0, y1: 60 }, { x: 300, y0: 0, y1: 60 }];
    const h: HRule[] = [0, 20, 40, 60].map((y) => ({ y, x0: xs[0]!, x1: 300 }));
    const words = [word('Results', 10, 5), word('Note', 210, 5), word('a', 10, 25), word('b', 110, 25), word('c', 210, 25), word('d', 10, 45), word('e', 110, 45), word('f', 210, 45), word('outside', 10, 100)];
    const [t, ...rest] = findRuledTables({ h, v }, words);
    assert.equal(rest.length, 0);
    assert.deepEqual(t!.rows.map((r) => r.map((c) => c.text)), [['Results', 'Note'], ['a', 'b', 'c'], ['d', 'e', 'f']]);
    assert.equal(t!.rows[0]![0]!.colspan, 2);
    assert.equal(t!.words.size, 8, 'the word below the table is not in it');
    assert.equal(tableText(t!.rows), 'Results Note a b c d e f');
    assert.equal(tableTextByColumns(t!.rows), 'Results a d b e Note c f');
    assert.equal(tableToHtml(t!.rows), '<table><tr><td colspan="2">Results</td><td>Note</td></tr><tr><td>a</td><td>b</td><td>c</td></tr><tr><td>d</td><td>e</td><td>f</td></tr></table>');
  });

  it('a multi-line cell keeps its lines in reading order', () => {
    const { h, v } = lattice([0, 100, 200], [0, 40, 60]);
    const words = [word('second', 10, 20), word('first', 10, 5), word('line', 50, 5), word('x', 110, 5), word('y', 10, 45), word('z', 110, 45)];
    const [t] = findRuledTables({ h, v }, words);
    assert.equal(t!.rows[0]![0]!.text, 'first line second');
  });

  it('a body set without rules between vertical rules is a row per line; two cells wrapped alike stay one row', () => {
    // a frame, a rule under the header, rules between the columns: the body's lines are its rows
    const xs = [0, 60, 120, 180];
    const { h: frame, v } = lattice(xs, [0, 20, 80]);
    const body = ['Alpha Reads Writes', 'Beta Mixed Reads', 'Gamma Reads Writes'].flatMap((l, i) => l.split(' ').map((t, k) => word(t, 5 + 60 * k, 25 + 15 * i)));
    const [t] = findRuledTables({ h: frame, v }, [word('Array', 5, 5), word('Best', 65, 5), word('Worst', 125, 5), ...body]);
    assert.deepEqual(t!.rows.map((r) => r.map((c) => c.text)), [['Array', 'Best', 'Worst'], ['Alpha', 'Reads', 'Writes'], ['Beta', 'Mixed', 'Reads'], ['Gamma', 'Reads', 'Writes']]);
    // text wrapped in two cells of one row: lines that run on (lower case) are one cell
    const wide = lattice([0, 150, 300], [0, 20, 60]);
    const wrapped = [word('Name', 5, 5), word('Note', 155, 5), word('Static', 5, 25), word('address', 50, 25), word('or', 100, 25), word('only', 5, 40), word('Jumbo', 155, 25), word('frames', 200, 25), word('on', 250, 25), word('every', 155, 40), word('port', 195, 40)];
    const [u] = findRuledTables(wide, wrapped);
    assert.deepEqual(u!.rows.map((r) => r.map((c) => c.text)), [['Name', 'Note'], ['Static address or only', 'Jumbo frames on every port']]);
  });

  it('a box around one value, one row of boxes, or boxed prose is not a table', () => {
    const box = lattice([0, 200], [0, 40]);
    assert.deepEqual(findRuledTables(box, [word('Total', 10, 10)]), []);
    const oneRow = lattice([0, 100, 200, 300], [0, 20]);
    assert.deepEqual(findRuledTables(oneRow, [word('a', 10, 5), word('b', 110, 5), word('c', 210, 5)]), []);
    const split = lattice([0, 100, 200], [0, 20, 40]);
    assert.deepEqual(findRuledTables(split, [word('only', 10, 5), word('two', 110, 25)]), [], 'two values in a 2 × 2 grid');
    const long = 'word '.repeat(60).trim();
    const prose = [word(long, 5, 5), word(long, 105, 5), word(long, 5, 25), word(long, 105, 25)].map((w) => ({ ...w, x1: w.x0 + 80 }));
    assert.deepEqual(findRuledTables(split, prose), []);
  });

  it("a form's blank fields stay columns: a label per row beside a wide empty cell", () => {
    // a word processor's form: labels in the first column, the second left blank to write in
    const form = lattice([0, 120, 420], [0, 20, 40, 60]);
    const [t] = findRuledTables(form, [word('Name', 5, 5), word('Address', 5, 25), word('Telephone', 5, 45)]);
    assert.ok(t, 'a table');
    assert.deepEqual(t.rows.map((r) => r.map((c) => c.text)), [['Name', ''], ['Address', ''], ['Telephone', '']]);
    // a blank column at the right edge, crossed by a span that holds text in the last row
    const v: VRule[] = [{ x: 0, y0: 0, y1: 60 }, { x: 100, y0: 0, y1: 60 }, { x: 220, y0: 0, y1: 40 }, { x: 320, y0: 0, y1: 40 }, { x: 440, y0: 0, y1: 60 }];
    const h: HRule[] = [0, 20, 40, 60].map((y) => ({ y, x0: 0, x1: 440 }));
    const [u] = findRuledTables({ h, v }, [word('Filed', 5, 5), word('Received', 225, 5), word('Paid', 5, 25), word('Receipt', 225, 25), word('Decision', 5, 45), word('Approved', 105, 45)]);
    assert.equal(tableToHtml(u!.rows), '<table><tr><td>Filed</td><td></td><td>Received</td><td></td></tr><tr><td>Paid</td><td></td><td>Receipt</td><td></td></tr><tr><td>Decision</td><td colspan="3">Approved</td></tr></table>');
  });

  it('two blank columns side by side are an empty part of the grid, dropped', () => {
    const wide = lattice([0, 120, 300, 420, 540], [0, 20, 40, 60]);
    const [t] = findRuledTables(wide, [word('GP', 5, 5), word('refers', 125, 5), word('Nurse', 5, 25), word('cares', 125, 25), word('Dietitian', 5, 45), word('advises', 125, 45)]);
    assert.deepEqual(t!.rows.map((r) => r.map((c) => c.text)), [['GP', 'refers'], ['Nurse', 'cares'], ['Dietitian', 'advises']]);
  });

  it('rowspan and colspan in the HTML', () => {
    assert.equal(tableToHtml([[{ text: 'A & B', rowspan: 2 }, { text: '<x>' }], [{ text: 'y' }]]), '<table><tr><td rowspan="2">A &amp; B</td><td>&lt;x&gt;</td></tr><tr><td>y</td></tr></table>');
  });
});
