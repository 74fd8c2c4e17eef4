// Ruling lines from pixels (scanned pages and images): thin long dark runs are rules, text strokes and
// filled areas are not, a missing separator becomes a span in the grid built from them, table lines are
// painted out of the image OCR reads, and a page of long strokes is skipped with a warning, bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectRules, MAX_RUNS, tableLines } from '../../../lambdas/engine/partition/image/rules';
import { findGrids } from '../../../lambdas/engine/partition/pdf/tables/grid';

/** A white gray page with dark boxes drawn on it. */
function page(w: number, h: number) {
  const gray = new Uint8Array(w * h).fill(255);
  const box = (x0: number, y0: number, x1: number, y1: number, v = 0) => {
    for (let y = y0; y < y1; y++) gray.fill(v, y * w + x0, y * w + x1);
  };
  return { gray, box, w, h };
}
const toRgba = (gray: Uint8Array) => {
  const out = new Uint8Array(gray.length * 4);
  gray.forEach((v, i) => { out[4 * i] = out[4 * i + 1] = out[4 * i + 2] = v; out[4 * i + 3] = 255; });
  return out;
};
const OPTS = { minLength: 40, maxThickness: 6, maxGap: 2 };

/** A 3 × 3 lattice (2 px lines) at x 100..400, y 100..250, with the separator at x=200 missing on row 0. */
function lattice() {
  const p = page(600, 400);
  for (const y of [100, 150, 200, 250]) p.box(100, y, 402, y + 2);
  for (const x of [100, 300, 400]) p.box(x, 100, x + 2, 252);
  p.box(200, 150, 202, 252);
  return p;
}

describe('ruling lines from a bitmap', () => {
  it('finds the lines of a lattice, each once, at their centre', () => {
    const p = lattice();
    const r = detectRules(p.gray, p.w, p.h, OPTS);
    assert.equal(r.warning, undefined);
    assert.deepEqual(r.h.map((l) => l.y).sort((a, b) => a - b), [100.5, 150.5, 200.5, 250.5]);
    assert.deepEqual(r.v.map((l) => l.x).sort((a, b) => a - b), [100.5, 200.5, 300.5, 400.5]);
    assert.ok(r.h.every((l) => l.x0 >= 100 && l.x0 <= 102 && l.x1 >= 400 && l.x1 <= 402), 'each spans the table (to within a line width)');
  });

  it('gives the grid builder cells, a missing separator as a colspan', () => {
    const p = lattice();
    const r = detectRules(p.gray, p.w, p.h, OPTS);
    const [g, ...rest] = findGrids(r.h, r.v, 3);
    assert.equal(rest.length, 0);
    assert.equal(g!.xs.length - 1, 3);
    assert.equal(g!.ys.length - 1, 3);
    const first = g!.cells.find((c) => c.row === 0 && c.col === 0)!;
    assert.equal(first.colspan, 2, 'row 0 has no separator at x=200');
    assert.equal(g!.cells.filter((c) => c.row === 1).length, 3);
  });

  it('text strokes, a filled block and a broken scan line: only the line is a rule', () => {
    const p = page(600, 400);
    // "Glyphs": short strokes with gaps, 30 px tall verticals.
    for (let x = 50; x < 550; x += 9) p.box(x, 20, x + 3, 50);
    p.box(50, 60, 80, 63);
    // A filled block (a photo, a shaded bar): thick, not a rule.
    p.box(100, 100, 500, 200);
    // A scanned line broken every 50 px by a 1-px gap.
    p.box(50, 300, 550, 302);
    for (let x = 100; x < 550; x += 50) p.box(x, 300, x + 1, 302, 255);
    const r = detectRules(p.gray, p.w, p.h, OPTS);
    assert.deepEqual(r.v, []);
    assert.equal(r.h.length, 1);
    assert.deepEqual(r.h[0], { y: 300.5, x0: 50, x1: 550 });
  });

  it('paints the table lines out of the image OCR reads, keeps an underline and the text', () => {
    const p = lattice();
    p.box(120, 300, 300, 302); // an underline: crosses nothing
    p.box(120, 120, 124, 130); // a glyph inside a cell
    const t = tableLines(toRgba(p.gray), p.w, p.h);
    assert.ok(t.cleaned, 'lines were found');
    const at = (x: number, y: number) => t.cleaned![(y * p.w + x) * 4]!;
    assert.equal(at(150, 100), 255, 'a table rule is gone');
    assert.equal(at(300, 175), 255, 'a column rule is gone');
    assert.equal(at(200, 300), 0, 'the underline stays');
    assert.equal(at(121, 125), 0, 'the glyph stays');
  });

  it('a page of long strokes (hatching, a halftone photo) is skipped with a warning, with bounded work', () => {
    const p = page(4000, 2000);
    // Dashes of 10 px on every third row: ~240,000 runs long enough to be looked at, beyond MAX_RUNS.
    for (let y = 0; y < 2000; y += 3) for (let x = 0; x + 10 <= 4000; x += 11) p.gray.fill(0, y * 4000 + x, y * 4000 + x + 10);
    const r = detectRules(p.gray, p.w, p.h, { minLength: 10, maxThickness: 3, maxGap: 0 });
    assert.ok(667 * 363 > MAX_RUNS);
    assert.match(r.warning ?? '', /too many long strokes/);
    assert.deepEqual([r.h.length, r.v.length], [0, 0]);
  });

  it('a light gray rule is a rule; a shaded band is not, the rule along its edge still is', () => {
    const p = page(400, 300);
    p.box(20, 40, 380, 41, 190); // a thin, light (anti-aliased) rule
    p.box(20, 100, 380, 160, 200); // a shaded table row
    p.box(20, 160, 380, 162, 40); // the rule under it
    const r = detectRules(p.gray, p.w, p.h, OPTS);
    assert.deepEqual(r.h.sort((a, b) => a.y - b.y), [{ y: 40, x0: 20, x1: 380 }, { y: 160.5, x0: 20, x1: 380 }]);
    assert.deepEqual(r.v, []);
  });

  it('a dashed and a dotted rule are rules; pieces at irregular pitches (a row through text) are not', () => {
    const p = page(600, 300);
    for (let x = 50; x + 12 <= 550; x += 20) p.box(x, 50, x + 12, 52); // dashes 12 on, 8 off
    for (let x = 50; x + 3 <= 550; x += 9) p.box(x, 100, x + 3, 103); // dots 3 on, 6 off
    let x = 50;
    for (const [on, off] of [[3, 9], [14, 4], [5, 12], [9, 3], [2, 10], [12, 5], [4, 11], [16, 3], [3, 8], [7, 12], [10, 4], [2, 9]]) { p.box(x, 200, x + on!, 202); x += on! + off!; }
    const o = { ...OPTS, dashGap: 12 };
    const r = detectRules(p.gray, p.w, p.h, o);
    assert.deepEqual(r.h.map((l) => [l.y, l.x0, l.x1]).sort((a, b) => a[0]! - b[0]!), [[50.5, 50, 542], [101, 50, 548]]);
    assert.deepEqual(detectRules(p.gray, p.w, p.h, OPTS).h, [], 'without dashGap, solid rules only');
  });

  it('a column of figures (a stem a row, at the row pitch) is no dotted column rule: letters beside it', () => {
    const p = page(600, 400);
    // "11" in every row of a column: two stems 25 px tall, 4 px apart, one row every 36 px.
    for (let y = 20; y + 25 <= 380; y += 36) { p.box(300, y, 303, y + 25); p.box(307, y, 310, y + 25); }
    const r = detectRules(p.gray, p.w, p.h, { ...OPTS, dashGap: 12 });
    assert.deepEqual([r.h, r.v], [[], []]);
  });
});

