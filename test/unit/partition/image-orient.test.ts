// Orientation of a scanned page: a page of running text (pdf-lib, rendered by PDFium at 200 dpi as a
// scanner gives it) turned each way is found turned and turned back; pages without letters in lines
// are left as they are; turning pixels and mapping coordinates back agree with each other.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeElement } from '../../../lambdas/engine/elements';
import { toGray } from '../../../lambdas/engine/partition/image/bitmap';
import { MAX_TURN_PIXELS, pageTurns, turnRgba, unturnCoordinates, unturnPoint, type Turns } from '../../../lambdas/engine/partition/image/orient';
import { textScanRgba } from '../../integration/partition/scan-fixture';

describe('orientation of a scanned page', () => {
  it('a page of text turned a quarter, half or three quarters clockwise is turned back; upright stays', async () => {
    for (const t of [0, 1, 2, 3] as Turns[]) {
      const { rgba, width, height } = await textScanRgba(t);
      assert.equal(pageTurns(toGray(rgba, width, height), width, height), (4 - t) % 4, `page turned ${t * 90}°`);
    }
  });

  it('no letters in lines, no turn: a blank page, a few marks, a grid of like squares', () => {
    const w = 600, h = 800;
    assert.equal(pageTurns(new Uint8Array(w * h).fill(255), w, h), 0);
    const few = new Uint8Array(w * h).fill(255);
    for (let i = 0; i < 5; i++) for (let y = 100; y < 110; y++) few.fill(0, y * w + 100 + i * 30, y * w + 110 + i * 30);
    assert.equal(pageTurns(few, w, h), 0);
    // squares of one size set on a grid (as characters of a script without ascenders): no edge to vote with
    const grid = new Uint8Array(w * h).fill(255);
    for (let gy = 50; gy < h - 50; gy += 24) for (let gx = 50; gx < w - 50; gx += 24) for (let y = gy; y < gy + 16; y++) grid.fill(0, y * w + gx, y * w + gx + 16);
    assert.equal(pageTurns(grid, w, h), 0);
  });

  it('a page over MAX_TURN_PIXELS is read as it comes (no second copy of a huge scan)', async () => {
    const { rgba, width, height } = await textScanRgba(2);
    const gray = toGray(rgba, width, height);
    assert.equal(pageTurns(gray, width, height), 2);
    // the same pixels, said to be a page of more pixels than the bound: not looked at
    assert.ok(4000 * 4001 > MAX_TURN_PIXELS);
    assert.equal(pageTurns(gray, 4000, 4001), 0);
  });

  it('turned pixels and points mapped back agree (every turn), and quarter turns swap width and height', () => {
    const w = 5, h = 3;
    const rgba = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) rgba[i * 4] = i; // each pixel's red value is its index
    for (const t of [1, 2, 3] as Turns[]) {
      const r = turnRgba(rgba, w, h, t);
      assert.deepEqual([r.width, r.height], t === 2 ? [w, h] : [h, w]);
      for (let Y = 0; Y < r.height; Y++) for (let X = 0; X < r.width; X++) {
        // the centre of turned pixel (X, Y) maps back to the centre of the pixel it came from
        const [x, y] = unturnPoint(X + 0.5, Y + 0.5, w, h, t);
        assert.equal(r.rgba[(Y * r.width + X) * 4], Math.floor(y) * w + Math.floor(x), `turn ${t}, pixel ${X},${Y}`);
      }
    }
  });

  it('element coordinates come back as a box on the page as uploaded, with its size', () => {
    // a box near the top left of the upright page, which was uploaded upside down (w 400, h 300)
    const el = makeElement('Title', 't', { coordinates: { points: [[10, 20], [10, 40], [110, 40], [110, 20]], system: 'PixelSpace', layout_width: 400, layout_height: 300 } });
    unturnCoordinates([el], 400, 300, 2);
    assert.deepEqual(el.metadata.coordinates!.points, [[290, 260], [290, 280], [390, 280], [390, 260]]);
    // uploaded a quarter turned (its upright form 300 wide, 400 high)
    const q = makeElement('Title', 'q', { coordinates: { points: [[10, 20], [10, 40], [110, 40], [110, 20]], system: 'PixelSpace', layout_width: 300, layout_height: 400 } });
    unturnCoordinates([q], 400, 300, 1);
    assert.deepEqual(q.metadata.coordinates!.points, [[20, 190], [20, 290], [40, 290], [40, 190]]);
    assert.deepEqual([q.metadata.coordinates!.layout_width, q.metadata.coordinates!.layout_height], [400, 300]);
  });
});
