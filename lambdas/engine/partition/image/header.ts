// Image dimensions from headers alone, so enormous images (decompression bombs) are refused
// before any pixel is decoded.
import type { FileType } from '../types';

export interface ImageSize { width: number; height: number; pages?: number }

export { MAX_IMAGE_PIXELS } from '../limits';

export function imageSize(d: Uint8Array, type: FileType): ImageSize | undefined {
  const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
  try {
    switch (type) {
      case 'png':
        return d.length >= 24 ? { width: v.getUint32(16), height: v.getUint32(20) } : undefined;
      case 'bmp':
        return d.length >= 26 ? { width: Math.abs(v.getInt32(18, true)), height: Math.abs(v.getInt32(22, true)) } : undefined;
      case 'jpg':
        return jpegSize(d, v);
      case 'tiff':
        return tiffSize(d, v);
      case 'heic':
        return heicSize(d, v);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

function jpegSize(d: Uint8Array, v: DataView): ImageSize | undefined {
  let p = 2;
  while (p + 9 < d.length) {
    if (d[p] !== 0xff) { p++; continue; }
    const marker = d[p + 1]!;
    if (marker === 0xff) { p++; continue; }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { p += 2; continue; }
    const len = v.getUint16(p + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: v.getUint16(p + 5), width: v.getUint16(p + 7) };
    }
    if (marker === 0xda) return undefined;
    p += 2 + len;
  }
  return undefined;
}

function tiffSize(d: Uint8Array, v: DataView): ImageSize | undefined {
  const le = d[0] === 0x49;
  let ifd = v.getUint32(4, le);
  let first: ImageSize | undefined;
  let pages = 0;
  let maxPixels = 0;
  const seen = new Set<number>();
  while (ifd > 0 && ifd + 2 <= d.length && !seen.has(ifd) && pages < 10_000) {
    seen.add(ifd);
    const n = v.getUint16(ifd, le);
    let width = 0, height = 0;
    for (let i = 0; i < n; i++) {
      const e = ifd + 2 + i * 12;
      if (e + 12 > d.length) break;
      const tag = v.getUint16(e, le);
      const typ = v.getUint16(e + 2, le);
      const val = typ === 3 ? v.getUint16(e + 8, le) : v.getUint32(e + 8, le);
      if (tag === 256) width = val;
      if (tag === 257) height = val;
    }
    pages++;
    if (!first) first = { width, height };
    if (width * height > maxPixels) { maxPixels = width * height; first = first ?? { width, height }; }
    const nextAt = ifd + 2 + n * 12;
    ifd = nextAt + 4 <= d.length ? v.getUint32(nextAt, le) : 0;
  }
  if (!first) return undefined;
  // Report the largest page so the bomb check covers every page.
  const side = Math.sqrt(maxPixels);
  return maxPixels > first.width * first.height ? { width: Math.ceil(side), height: Math.ceil(side), pages } : { ...first, pages };
}

function heicSize(d: Uint8Array, v: DataView): ImageSize | undefined {
  // 'ispe' (image spatial extents) properties: version/flags, width, height. Grid images list their
  // tiles too; the largest is the whole picture.
  let best: ImageSize | undefined;
  for (let i = 4; i + 16 < d.length && i < 1 << 20; i++) {
    if (d[i] === 0x69 && d[i + 1] === 0x73 && d[i + 2] === 0x70 && d[i + 3] === 0x65) {
      const s = { width: v.getUint32(i + 8), height: v.getUint32(i + 12) };
      if (!best || s.width * s.height > best.width * best.height) best = s;
    }
  }
  return best;
}
