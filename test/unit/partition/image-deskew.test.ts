// Skew of a scanned page: estimated from its ink (lines of "text" drawn at a known angle), the
// rotation's direction, and coordinates mapped back onto the uploaded image.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { estimateSkew, rotateRgba, unskewCoordinates } from '../../../lambdas/engine/partition/image/deskew';
import { makeElement } from '../../../lambdas/engine/elements';

/** A gray page of dashed "text lines" running down to the right at `deg` (clockwise). */
function page(deg: number, w = 800, h = 600) {
  const gray = new Uint8Array(w * h).fill(255);
  const t = Math.tan((deg * Math.PI) / 180);
  for (let y0 = 60; y0 < h - 60; y0 += 30) {
    for (let x = 50; x < w - 50; x++) {
      if (x % 13 > 9) continue; // gaps between "letters"
      for (let d = 0; d < 8; d++) { const y = Math.round(y0 + (x - w / 2) * t) + d; if (y >= 0 && y < h) gray[y * w + x] = 0; }
    }
  }
  return gray;
}

describe('skew of a scanned page', () => {
  it('is estimated to a tenth of a degree, either way; a straight page is 0', () => {
    for (const deg of [-3, -0.8, 1.5, 2.5]) assert.ok(Math.abs(estimateSkew(page(deg), 800, 600) - deg) <= 0.1, `${deg}: ${estimateSkew(page(deg), 800, 600)}`);
    assert.equal(estimateSkew(page(0), 800, 600), 0);
    assert.equal(estimateSkew(page(0.1), 800, 600), 0, 'below 0.3° nothing is corrected');
    assert.equal(estimateSkew(new Uint8Array(800 * 600).fill(255), 800, 600), 0, 'a blank page');
  });

  it('rotateRgba turns clockwise: a horizontal line then runs down to the right, and rotating back straightens it', () => {
    const w = 400, h = 300;
    const rgba = new Uint8Array(w * h * 4).fill(255);
    for (let x = 50; x < 350; x++) for (let y = 149; y <= 151; y++) rgba.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
    const rot = rotateRgba(rgba, w, h, 3);
    const darkest = (img: Uint8Array, x: number) => { let best = 0; for (let y = 1; y < h; y++) if (img[(y * w + x) * 4]! < img[(best * w + x) * 4]!) best = y; return best; };
    assert.ok(darkest(rot, 300) - darkest(rot, 100) >= 9, `right end lower: ${darkest(rot, 100)} → ${darkest(rot, 300)}`);
    assert.ok(Math.abs(darkest(rotateRgba(rot, w, h, -3), 300) - darkest(rotateRgba(rot, w, h, -3), 100)) <= 1);
  });

  it('coordinates of the straightened page are mapped back onto the skewed one', () => {
    const el = makeElement('Table', 'x', { coordinates: { points: [[100, 100], [100, 200], [300, 200], [300, 100]], system: 'PixelSpace', layout_width: 400, layout_height: 300 } });
    unskewCoordinates([el], 400, 300, 2);
    const [p0, p1, , p3] = el.metadata.coordinates!.points;
    assert.ok(p1![0] < p0![0] - 2 && p3![1] > p0![1] + 5, JSON.stringify(el.metadata.coordinates!.points));
    // the centre of the page stays put
    const c = makeElement('Title', 'c', { coordinates: { points: [[200, 150]], system: 'PixelSpace', layout_width: 400, layout_height: 300 } });
    unskewCoordinates([c], 400, 300, 2);
    assert.deepEqual(c.metadata.coordinates!.points, [[200, 150]]);
  });
});
