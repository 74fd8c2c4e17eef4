// Pages scanned sideways or upside down, as a feeder or a phone gives them: a page of running text and
// a ruled table, rendered at 200 dpi and turned (scan-fixture.ts), partitioned as the service
// partitions a PNG upload or an image-only PDF (real Tesseract). The text reads as on the upright page,
// in order, and coordinates land on the page as uploaded.
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { partitionDocument as partition } from '../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../lambdas/engine/partition/pdf/pool';
import { shutdownOcr } from '../../../lambdas/engine/partition/ocr/tesseract';
import { rgbaToPng } from '../../../lambdas/engine/partition/image/bitmap';
import { turnRgba } from '../../../lambdas/engine/partition/image/orient';
import { asScannedPdf, HEADER, ROWS, tableScan, TEXT_PARAGRAPHS, TEXT_TITLE, textScan } from './scan-fixture';

after(async () => { await shutdownPagePool(); await shutdownOcr(); });

const words = (s: string) => s.toLowerCase().match(/[a-z]+/g) ?? [];
/** Share of the expected words found in order in the output (a longest common subsequence). */
function inOrder(expected: string[], got: string[]): number {
  const prev = new Array<number>(got.length + 1).fill(0);
  for (const e of expected) {
    let diag = 0;
    for (let j = 1; j <= got.length; j++) {
      const up = prev[j]!;
      prev[j] = e === got[j - 1] ? diag + 1 : Math.max(prev[j]!, prev[j - 1]!);
      diag = up;
    }
  }
  return prev[got.length]! / expected.length;
}

async function assertReads(data: Uint8Array, filename: string, strategy: 'hi_res' | 'ocr_only' = 'hi_res') {
  const r = await partition({ data, filename }, { strategy, coordinates: true });
  const got = r.elements.map((e) => e.text).join(' ');
  const share = inOrder(words([TEXT_TITLE, ...TEXT_PARAGRAPHS].join(' ')), words(got));
  assert.ok(share > 0.95, `${(share * 100).toFixed(1)}% of the words in order: ${got.slice(0, 300)}`);
  assert.equal(r.elements[0]!.type, 'Title', r.elements.map((e) => `${e.type}: ${e.text.slice(0, 40)}`).join(' | '));
  assert.equal(r.elements.filter((e) => e.type === 'NarrativeText').length, 3, 'one paragraph each');
  return r;
}

describe('scans turned sideways or upside down', () => {
  it('a PNG upside down reads as upright; the title\'s box is at the bottom right of the upload', async () => {
    const r = await assertReads(await textScan(2), 'upside-down.png');
    const c = r.elements[0]!.metadata.coordinates!;
    assert.deepEqual([c.layout_width, c.layout_height], [1700, 2200]);
    const ys = c.points.map((p) => p[1]), xs = c.points.map((p) => p[0]);
    // upright the title stands 92 pt from the top, 72 pt from the left (200 dpi): upside down, near the bottom right
    assert.ok(Math.min(...ys) > 1800 && Math.max(...xs) > 1450, JSON.stringify(c.points));
  });

  it('a PNG a quarter turned clockwise (ocr_only); its coordinates on the landscape upload', async () => {
    const r = await assertReads(await textScan(1), 'sideways.png', 'ocr_only');
    const c = r.elements[0]!.metadata.coordinates!;
    assert.deepEqual([c.layout_width, c.layout_height], [2200, 1700]);
    // the title's line runs down the right edge
    const xs = c.points.map((p) => p[0]), ys = c.points.map((p) => p[1]);
    assert.ok(Math.min(...xs) > 1800 && Math.max(...ys) - Math.min(...ys) > 3 * (Math.max(...xs) - Math.min(...xs)), JSON.stringify(c.points));
  });

  it('an image-only PDF page three quarters turned', async () => {
    await assertReads(await asScannedPdf(await textScan(3)), 'scan.pdf');
  });

  it('a ruled table scanned upside down keeps its grid', async () => {
    const png = PNG.sync.read(Buffer.from(await tableScan({})));
    const t = turnRgba(new Uint8Array(png.data), png.width, png.height, 2);
    const r = await partition({ data: rgbaToPng(t.rgba, t.width, t.height, (b) => deflateSync(b)), filename: 'table.png' }, { strategy: 'hi_res' });
    const table = r.elements.find((e) => e.type === 'Table');
    assert.ok(table, r.elements.map((e) => `${e.type}: ${e.text.slice(0, 40)}`).join(' | '));
    const rows = [...(table.metadata.text_as_html ?? '').matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((c) => c[1]!.trim()));
    assert.deepEqual(rows, [HEADER, ...ROWS]);
  });
});
