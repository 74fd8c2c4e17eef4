// Shading flattened for OCR: the grayscale closing equals its definition (max then min over a square),
// a grey band turns white with its text kept dark, a black band (inverted text) and a page without
// shading are left as they are.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closing, flattenShading } from '../../../lambdas/engine/partition/image/shading';

function bruteClosing(a: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const f = (src: Uint8Array, max: boolean) => {
    const o = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      let v = max ? 0 : 255;
      for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++) for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) v = max ? Math.max(v, src[yy * w + xx]!) : Math.min(v, src[yy * w + xx]!);
      o[y * w + x] = v;
    }
    return o;
  };
  return f(f(a, true), false);
}

function rgbaPage(w: number, h: number) {
  const px = new Uint8Array(w * h * 4).fill(255);
  const box = (x0: number, y0: number, x1: number, y1: number, v: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) { const o = (y * w + x) * 4; px[o] = px[o + 1] = px[o + 2] = v; }
  };
  return { px, box, at: (x: number, y: number) => px[(y * w + x) * 4]! };
}

describe('shading flattened for OCR', () => {
  it('the running-extrema closing equals max-then-min over the square, edges included', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let t = 0; t < 60; t++) {
      const w = 1 + Math.floor(rnd() * 30), h = 1 + Math.floor(rnd() * 30), r = 1 + Math.floor(rnd() * 5);
      const a = Uint8Array.from({ length: w * h }, () => Math.floor(rnd() * 256));
      assert.deepEqual(closing(a, w, h, r), bruteClosing(a, w, h, r), `${w}×${h}, r=${r}`);
    }
  });

  it('a grey band becomes paper, its text stays dark; a black band is left alone', () => {
    const p = rgbaPage(200, 120);
    p.box(0, 20, 200, 50, 170); // grey band
    p.box(40, 30, 43, 42, 20); // a glyph stroke on it
    p.box(0, 80, 200, 110, 10); // black band (inverted header)
    p.box(60, 90, 63, 100, 250); // white text on it
    assert.equal(flattenShading(p.px, 200, { x0: 0, y0: 0, x1: 200, y1: 120 }, 5), true);
    assert.equal(p.at(100, 35), 255, 'grey fill is paper');
    assert.ok(p.at(41, 35) < 60, `the glyph stays dark (${p.at(41, 35)})`);
    assert.equal(p.at(100, 95), 10, 'black fill kept');
    assert.ok(p.at(61, 95) >= 250, 'its white text stays white');
    assert.equal(p.at(100, 5), 255);
  });

  it('a box without shading is not touched', () => {
    const p = rgbaPage(100, 100);
    p.box(10, 10, 13, 40, 0);
    const before = p.px.slice();
    assert.equal(flattenShading(p.px, 100, { x0: 0, y0: 0, x1: 100, y1: 100 }, 4), false);
    assert.deepEqual(p.px, before);
  });
});
