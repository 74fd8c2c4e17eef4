import assert from 'node:assert/strict';
import jpeg from 'jpeg-js';
import { after, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { BadRequest, PayloadTooLarge, UnprocessableDocument } from '../../../lambdas/errors';
import { partitionDocument as partition } from '../../../lambdas/engine/partition/pipeline';
import { imageSize, MAX_IMAGE_PIXELS } from '../../../lambdas/engine/partition/image/header';
import { grayToPng } from '../../../lambdas/engine/partition/image/bitmap';
import { shutdownOcr } from '../../../lambdas/engine/partition/ocr/tesseract';
import { multiPageTiff } from '../../support/tiff';

const repoRoot = resolve(import.meta.dirname, '../../..');
const corpus = resolve(repoRoot, '../shared/corpus/docs');
const doc = (name: string) => new Uint8Array(readFileSync(resolve(corpus, name)));

after(async () => { await shutdownOcr(); });

/** A PNG whose header claims the given size (only a few bytes of data follow). */
function pngClaiming(width: number, height: number): Uint8Array {
  const small = grayToPng(new Uint8Array(4), 2, 2, (b) => deflateSync(b));
  const out = small.slice();
  const v = new DataView(out.buffer);
  v.setUint32(16, width);
  v.setUint32(20, height);
  return out;
}

describe('image partitioning', () => {
  it('reads sizes from headers without decoding', () => {
    assert.deepEqual(imageSize(pngClaiming(123, 45), 'png'), { width: 123, height: 45 });
    // the header reader against a full decode of the same file (jpeg-js): the sizes must agree
    const decoded = jpeg.decode(doc('example.jpg'), { useTArray: true });
    assert.deepEqual(imageSize(doc('example.jpg'), 'jpg'), { width: decoded.width, height: decoded.height });
    assert.deepEqual({ width: decoded.width, height: decoded.height }, { width: 480, height: 360 });
    const heic = imageSize(doc('DA-1p.heic'), 'heic')!;
    assert.deepEqual(heic, { width: 596, height: 842 });
    assert.equal(imageSize(doc('layout-parser-paper-fast.tiff'), 'tiff')!.width, 612);
  });

  it('refuses a decompression bomb before decoding it', async () => {
    await assert.rejects(partition({ data: pngClaiming(100_000, 100_000), filename: 'bomb.png' }), (err: unknown) => {
      assert.ok(err instanceof PayloadTooLarge);
      assert.equal(err.status, 413);
      assert.match(err.message, new RegExp(`exceeds the limit of ${MAX_IMAGE_PIXELS} pixels`));
      return true;
    });
  });

  it('refuses the fast strategy on images like the open-source server', async () => {
    await assert.rejects(partition({ data: doc('example.jpg'), filename: 'example.jpg' }, { strategy: 'fast' }), (err: unknown) => {
      assert.ok(err instanceof BadRequest);
      assert.match(err.message, /fast strategy is not available for image files/);
      return true;
    });
  });

  it('reports truncated and corrupt images clearly', async () => {
    const png = doc('table-multi-row-column-cells.png');
    await assert.rejects(partition({ data: png.subarray(0, 2000), filename: 't.png' }), UnprocessableDocument);
    await assert.rejects(partition({ data: png.subarray(0, 20), filename: 't.png' }), UnprocessableDocument);
    const jpg = doc('example.jpg');
    await assert.rejects(partition({ data: jpg.subarray(0, 4), filename: 't.jpg' }), UnprocessableDocument);
  });

  it('turns a photo without text into one Image element', async () => {
    const r = await partition({ data: doc('example.jpg'), filename: 'example.jpg' });
    assert.equal(r.elements.length, 1);
    assert.equal(r.elements[0]!.type, 'Image');
    assert.equal(r.elements[0]!.text, '');
    assert.equal(r.elements[0]!.metadata.filetype, 'image/jpeg');
  });

  it('OCRs a table image into a Table with cells', async () => {
    const r = await partition({ data: doc('table-multi-row-column-cells.png'), filename: 'table.png' }, { strategy: 'hi_res', coordinates: true, extractImageBlockTypes: ['Table'] });
    const table = r.elements.find((e) => e.type === 'Table');
    assert.ok(table, JSON.stringify(r.elements.map((e) => [e.type, e.text])));
    for (const w of ['Participants', 'Blind', 'Dexterity', 'Mobility', '1199']) assert.ok(table.text.includes(w), w);
    assert.match(table.metadata.text_as_html!, /<td>Mobility<\/td>/);
    assert.equal(table.metadata.coordinates!.system, 'PixelSpace');
    assert.equal(table.metadata.coordinates!.layout_width, 1377);
    assert.equal(table.metadata.page_number, 1);
    assert.match(String(table.metadata.image_base64), /^iVBORw0KGgo/);
    assert.equal(table.metadata.image_mime_type, 'image/png');
  });

  it('pages a multi-page TIFF: one pass reads 50 pages and says so, a job range its own pages, above the split threshold none', async () => {
    const blank = { rgba: new Uint8Array(16 * 16 * 4).fill(255), width: 16, height: 16 };
    const tiff = { data: multiPageTiff(Array.from({ length: 52 }, () => blank)), filename: 'scan.tiff' };
    const pagesOf = (r: { elements: { metadata: { page_number?: number } }[] }) => r.elements.map((e) => e.metadata.page_number);
    const one = await partition(tiff);
    assert.deepEqual(pagesOf(one), Array.from({ length: 50 }, (_, i) => i + 1), 'a blank page is one Image element');
    assert.deepEqual(one.warnings, ['only the first 50 of 52 pages were read']);
    assert.equal(one.pageCount, 52);
    const range = await partition(tiff, {}, { pages: { first: 49, last: 52 }, raw: true });
    assert.deepEqual(pagesOf(range), [49, 50, 51, 52]);
    assert.deepEqual(range.warnings, []);
    const probe = await partition(tiff, {}, { splitAbove: 51 });
    assert.deepEqual([probe.elements.length, probe.pageCount], [0, 52]);
  });

  it('reads the pages of a TIFF whose directory chain loops back or leaves the file up to that point, with a warning', async () => {
    const blank = { rgba: new Uint8Array(16 * 16 * 4).fill(255), width: 16, height: 16 };
    const data = multiPageTiff([blank, blank, blank]);
    const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const le = data[0] === 0x49; // "II" or "MM"
    // the directories: the first at the header's offset, each next one where the previous points
    const chain: number[] = [];
    for (let at = v.getUint32(4, le); at; at = v.getUint32(at + 2 + v.getUint16(at, le) * 12, le)) chain.push(at);
    assert.equal(chain.length, 3);
    const nextOf = (ifd: number) => ifd + 2 + v.getUint16(ifd, le) * 12;
    v.setUint32(nextOf(chain[2]!), chain[1]!, le); // page 3 → page 2 again
    const looped = await partition({ data, filename: 'loop.tiff' });
    assert.deepEqual(looped.elements.map((e) => e.metadata.page_number), [1, 2, 3]);
    assert.deepEqual(looped.warnings, ["the TIFF's page directories loop back after page 3; only the 3 page(s) before it were read"]);
    v.setUint32(nextOf(chain[0]!), data.length + 100, le); // page 1 → past the end of the file
    const cut = await partition({ data, filename: 'cut.tiff' });
    assert.deepEqual(cut.elements.map((e) => e.metadata.page_number), [1]);
    assert.deepEqual(cut.warnings, ["the TIFF's page directory 2 lies outside the file; only the 1 page(s) before it were read"]);
    v.setUint32(4, data.length - 4, le); // no directory at all inside the file: refused by the header check
    await assert.rejects(partition({ data, filename: 'none.tiff' }), UnprocessableDocument);
  });
});
