// Multi-page TIFFs for tests (the corpus holds a single-page one only): pages of RGBA pixels written as
// deflate-compressed strips behind utif2's directory encoder, from corpus images with text.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import UTIF from 'utif2';

export interface RgbaPage {
  rgba: Uint8Array;
  width: number;
  height: number;
}

/** The pixels of a corpus PNG or JPEG. */
export function corpusPage(corpusDir: string, name: string): RgbaPage {
  const data = readFileSync(resolve(corpusDir, name));
  if (/\.png$/i.test(name)) {
    const img = PNG.sync.read(data);
    return { rgba: new Uint8Array(img.data), width: img.width, height: img.height };
  }
  const img = jpeg.decode(data, { useTArray: true, formatAsRGBA: true });
  return { rgba: img.data, width: img.width, height: img.height };
}

/** A TIFF with one directory (page) per entry, in order: RGBA strips, deflate-compressed as scans are. */
export function multiPageTiff(pages: RgbaPage[]): Uint8Array {
  const strips = pages.map((p) => deflateSync(p.rgba));
  const directories = (offsets: number[]) =>
    new Uint8Array(UTIF.encode(pages.map((p, i) => ({
      t256: [p.width], t257: [p.height], t258: [8, 8, 8, 8], t259: [8], t262: [2], t273: [offsets[i]!],
      t277: [4], t278: [p.height], t279: [strips[i]!.length], t284: [1], t338: [1],
    }) as unknown as UTIF.IFD)));
  // offsets are written at a fixed width: the directories take as many bytes with the real ones
  const start = (directories(pages.map(() => 0)).length + 3) & ~3;
  const offsets: number[] = [];
  let end = start;
  for (const strip of strips) { offsets.push(end); end += strip.length; }
  const out = new Uint8Array(end);
  out.set(directories(offsets));
  strips.forEach((strip, i) => out.set(strip, offsets[i]!));
  return out;
}
