// Raw pixel helpers: grayscale conversion, RGBA/BGRx buffers and gray pixels to PNG, and resizing.

/**
 * 4-byte pixels to gray; `bgr` for PDFium's BGRx order (no alpha), else RGBA composited over white
 * (transparent pixels are often stored as black).
 */
export function toGray(px: Uint8Array, width: number, height: number, stride = width * 4, bgr = false): Uint8Array {
  const gray = new Uint8Array(width * height);
  const [ri, bi] = bgr ? [2, 0] : [0, 2];
  for (let y = 0; y < height; y++) {
    let s = y * stride;
    const d = y * width;
    for (let x = 0; x < width; x++, s += 4) {
      const g = (px[s + ri]! * 77 + px[s + 1]! * 150 + px[s + bi]! * 29) >> 8;
      if (bgr) { gray[d + x] = g; continue; }
      const a = px[s + 3]!;
      gray[d + x] = a === 255 ? g : (g * a + 255 * (255 - a) + 127) / 255;
    }
  }
  return gray;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Encodes 8-bit gray pixels as PNG (for hosted vision models, which take PNG/JPEG). */
export function grayToPng(gray: Uint8Array, width: number, height: number, deflate: (b: Uint8Array) => Uint8Array): Uint8Array {
  return pixelsToPng(gray, width, height, 1, deflate);
}

/** RGBA pixels (alpha composited over white) as an RGB PNG. */
export function rgbaToPng(rgba: Uint8Array, width: number, height: number, deflate: (b: Uint8Array) => Uint8Array): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    const a = rgba[i * 4 + 3]!;
    for (let c = 0; c < 3; c++) {
      const v = rgba[i * 4 + c]!;
      rgb[j + c] = a === 255 ? v : (v * a + 255 * (255 - a) + 127) / 255;
    }
  }
  return pixelsToPng(rgb, width, height, 3, deflate);
}

/** BGRx pixels (PDFium bitmaps) to RGBA. */
export function bgrxToRgba(px: Uint8Array, width: number, height: number, stride: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    let s = y * stride;
    let d = y * width * 4;
    for (let x = 0; x < width; x++, s += 4, d += 4) {
      out[d] = px[s + 2]!; out[d + 1] = px[s + 1]!; out[d + 2] = px[s]!; out[d + 3] = 255;
    }
  }
  return out;
}

/** Bilinear resize of interleaved 8-bit pixels with `channels` samples each. */
function resizeInterleaved(px: Uint8Array, width: number, height: number, newW: number, newH: number, channels: number): Uint8Array {
  const out = new Uint8Array(newW * newH * channels);
  const sx = width / newW, sy = height / newH;
  for (let y = 0; y < newH; y++) {
    const fy = Math.max(0, (y + 0.5) * sy - 0.5);
    const y0 = Math.min(height - 1, Math.floor(fy));
    const y1 = Math.min(height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < newW; x++) {
      const fx = Math.max(0, (x + 0.5) * sx - 0.5);
      const x0 = Math.min(width - 1, Math.floor(fx));
      const x1 = Math.min(width - 1, x0 + 1);
      const wx = fx - x0;
      const a = (y0 * width + x0) * channels, b = (y0 * width + x1) * channels, c = (y1 * width + x0) * channels, d = (y1 * width + x1) * channels;
      const o = (y * newW + x) * channels;
      for (let k = 0; k < channels; k++) {
        out[o + k] = (px[a + k]! * (1 - wx) * (1 - wy) + px[b + k]! * wx * (1 - wy) + px[c + k]! * (1 - wx) * wy + px[d + k]! * wx * wy + 0.5) | 0;
      }
    }
  }
  return out;
}

/** Bilinear resize of RGBA pixels. */
export function resizeRgba(px: Uint8Array, width: number, height: number, newW: number, newH: number): Uint8Array {
  return resizeInterleaved(px, width, height, newW, newH, 4);
}

function pixelsToPng(pixels: Uint8Array, width: number, height: number, channels: 1 | 3, deflate: (b: Uint8Array) => Uint8Array): Uint8Array {
  const rowLen = width * channels;
  const raw = new Uint8Array((rowLen + 1) * height);
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * rowLen, (y + 1) * rowLen), y * (rowLen + 1) + 1);
  const idat = deflate(raw);
  const chunk = (type: string, data: Uint8Array): Uint8Array => {
    const out = new Uint8Array(12 + data.length);
    const v = new DataView(out.buffer);
    v.setUint32(0, data.length);
    for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
    out.set(data, 8);
    v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  const hv = new DataView(ihdr.buffer);
  hv.setUint32(0, width); hv.setUint32(4, height);
  ihdr[8] = 8; ihdr[9] = channels === 3 ? 2 : 0; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))];
  const total = parts.reduce((s, p) => s + p.length, 0);
  const png = new Uint8Array(total);
  let o = 0;
  for (const p of parts) { png.set(p, o); o += p.length; }
  return png;
}

/** Bilinear resize of 8-bit gray pixels. */
export function resizeGray(gray: Uint8Array, width: number, height: number, newW: number, newH: number): Uint8Array {
  return resizeInterleaved(gray, width, height, newW, newH, 1);
}
