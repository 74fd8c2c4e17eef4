// Image partitioning (jpg, png, tiff, bmp, heic): size check from the header (decompression bombs
// are refused before decoding), decoding where Tesseract cannot read the format itself (HEIC,
// multi-page TIFF: one page at a time; a job splits a long TIFF into page ranges as it does a PDF),
// then OCR and the shared layout. An image with no real text becomes one Image
// element, as the open-source library's hi_res does for photos.
import decodeHeic from 'heic-decode';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import UTIF from 'utif2';
import { BadRequest, PayloadTooLarge, UnprocessableDocument } from '../../../errors';
import { makeElement, type Element } from '../../elements';
import { hasRealText, mergeReadings, ocrPageElements, readsWell, wellReadChars } from '../ocr/layout';
import { availableOcrLanguages, recognize, recognizeBest, type OcrResult } from '../ocr/tesseract';
import type { FormatContext } from '../types';
import { resolveVlmProvider } from '../vlm';
import { deflateSync } from 'node:zlib';
import { rgbaToPng, resizeRgba, toGray } from './bitmap';
import { imageSize, MAX_IMAGE_PIXELS } from './header';
import { deskew, unskewCoordinates } from './deskew';
import { pageTurns, turnRgba, unturnCoordinates, type Turns } from './orient';
import { ocrInputWithLines } from './rules';
import { pageSpan } from '../page-span';
import { cutTiffChain } from './tiff-chain';

interface Decoded {
  /** The bytes Tesseract reads at native size (the upload itself when it can, else a PNG). */
  encoded: Uint8Array;
  /** RGBA pixels when decoded here (needed to upscale and for VLM providers). */
  rgba?: Uint8Array;
  width: number;
  height: number;
}

/** Tesseract reads text best at ~20-30px line height; smaller text gets a second, zoomed pass. */
const MIN_TEXT_HEIGHT = 18;
const TARGET_TEXT_HEIGHT = 28;
const MAX_ZOOM = 3;
const MAX_ZOOMED_PIXELS = 40_000_000;
/** Images whose longer side is under this many pixels are OCR'd zoomed to about SMALL_TARGET_PIXELS. */
const SMALL_IMAGE_SIDE = 1200;
const SMALL_TARGET_PIXELS = 4_000_000;

const MAX_TIFF_PAGES = 50;
const deflate = (b: Uint8Array) => deflateSync(b, { level: 1 });

export async function partitionImage(data: Uint8Array, ctx: FormatContext): Promise<Element[]> {
  const { options, filetype } = ctx;
  if (options.strategy === 'fast') throw new BadRequest('The fast strategy is not available for image files');
  const size = imageSize(data, filetype);
  if (!size || !size.width || !size.height) throw new UnprocessableDocument(`Cannot read the ${filetype} image header: the file is corrupt or truncated.`);
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new PayloadTooLarge(`Image size (${size.width}x${size.height} = ${size.width * size.height} pixels) exceeds the limit of ${MAX_IMAGE_PIXELS} pixels.`);
  }
  const pages = imagePages(data, filetype, size.width, size.height);
  if (pages.warning) ctx.warn(pages.warning);
  // a job splits a longer multi-page TIFF into page ranges (domain/job-pages.ts): nothing to read here
  const span = pageSpan(ctx, pages.count);
  if (!span) return [];
  // one pass reads at most MAX_TIFF_PAGES (OCR costs seconds a page); a job's range is bounded by its size
  const last = span.inRange ? span.last : Math.min(span.last, MAX_TIFF_PAGES);
  if (last < span.last) ctx.warn(`only the first ${MAX_TIFF_PAGES} of ${pages.count} pages were read`);
  const { langs, missing } = availableOcrLanguages(options.ocrLanguages);
  if (missing.length) ctx.warn(`OCR language data not installed: ${missing.join(', ')}; using ${langs.join(', ')}`);
  let note: string | undefined;
  const vlm = options.strategy === 'vlm' ? resolveVlmProvider(options.vlm) : undefined;
  if (options.strategy === 'vlm' && !vlm) {
    note = 'VLM strategy requested but no provider is configured; used local OCR instead.';
    ctx.warn(note);
  }
  /** One page straightened, its table lines found and painted out, and OCR'd. */
  const readPage = async (page: Decoded): Promise<PageReading> => {
    const straight = straighten(page, data, filetype);
    const p = straight?.page ?? page;
    // Table lines are found first and painted out of the image OCR reads (cells read better).
    const lines = tableLinesOf(p, data, filetype);
    const q: Decoded = lines?.cleaned ? { encoded: lines.png, rgba: lines.cleaned, width: p.width, height: p.height } : p;
    // Small images (screenshots, 72-dpi scans) go straight to a zoomed pass; larger ones get a
    // native pass and a zoomed one only when their text turns out small.
    const small = Math.max(p.width, p.height) < SMALL_IMAGE_SIDE;
    const chose = options.languages.length > 0;
    const read = async (d: Decoded): Promise<OcrResult> => {
      let r = small ? await zoomedOcr(d, data, filetype, langs, Math.sqrt(SMALL_TARGET_PIXELS / (p.width * p.height)), chose) : await recognizeBest(d.encoded, langs, chose);
      const h = medianLineHeight(r);
      if (!small && h > 0 && h < MIN_TEXT_HEIGHT) {
        const zoomed = await zoomedOcr(d, data, filetype, langs, TARGET_TEXT_HEIGHT / h);
        if (zoomed.confidence >= r.confidence - 5) r = zoomed;
      }
      return r;
    };
    const ocr = q === p ? await read(p) : mergeReadings(await read(q), await read(p), lines?.rules);
    return { p, straight, lines, ocr };
  };
  const out: Element[] = [];
  const spanPages = last - span.first + 1;
  for (let pageNumber = span.first; pageNumber <= last; pageNumber++) {
    if (spanPages > 1) ctx.progress?.(pageNumber - span.first, spanPages);
    const page = await pages.page(pageNumber);
    if (vlm) {
      try {
        const rgba = page.rgba ?? decodeRgba(data, filetype);
        out.push(...(await vlm.partitionPage({ gray: toGray(rgba, page.width, page.height), width: page.width, height: page.height, page: pageNumber }, options)));
        continue;
      } catch (err) {
        ctx.warn(`page ${pageNumber}: VLM provider failed (${(err as Error).message}); used local OCR`);
      }
    }
    // A page scanned sideways or upside down is turned upright (image/orient.ts), a skewed one then
    // straightened (image/deskew.ts); coordinates are mapped back onto the upload at the end.
    const upright = turnUpright(page, data, filetype);
    let reading: PageReading;
    try {
      reading = await readPage(upright?.page ?? page);
      // a turned page that reads badly is read as it came too, and the better reading kept
      if (upright && !readsWell(reading.ocr)) {
        const asIs = await readPage(page);
        if (wellReadChars(asIs.ocr) > wellReadChars(reading.ocr)) { reading = asIs; upright.turns = 0; }
      }
    } catch (err) {
      if (err instanceof UnprocessableDocument) throw err;
      throw new UnprocessableDocument(`Cannot decode the ${filetype} image: ${(err as Error)?.message ?? err}`);
    }
    const { p, straight, lines, ocr } = reading;
    const extra = note ? { partitioner_note: note } : undefined;
    if (!hasRealText(ocr)) {
      const md: Record<string, unknown> = { page_number: pageNumber, ...extra };
      if (options.coordinates) md.coordinates = { points: [[0, 0], [0, page.height], [page.width, page.height], [page.width, 0]], system: 'PixelSpace', layout_width: page.width, layout_height: page.height };
      out.push(makeElement('Image', '', md));
      continue;
    }
    const blockTypes = new Set(options.extractImageBlockTypes);
    const els = ocrPageElements(ocr, pageNumber, p.width, p.height, {
      coordinates: options.coordinates || blockTypes.size > 0,
      languages: options.languages,
      tableHtml: options.pdfInferTableStructure !== false && !options.skipInferTableTypes.includes(filetype),
      extra,
      rules: lines?.rules,
      dots: lines?.dots,
      warn: (w) => ctx.warn(`page ${pageNumber}: ${w}`),
    });
    if (blockTypes.size) {
      const rgba = p.rgba ?? decodeRgba(data, filetype);
      for (const el of els) {
        const c = el.metadata.coordinates;
        if (blockTypes.has(el.type) && c) embedCrop(el, rgba, p.width, p.height, c.points);
      }
    }
    if (straight) unskewCoordinates(els, p.width, p.height, straight.angle);
    if (upright?.turns) unturnCoordinates(els, page.width, page.height, upright.turns);
    if (blockTypes.size && !options.coordinates) for (const el of els) delete el.metadata.coordinates;
    out.push(...els);
  }
  return out;
}

/** image_base64 (PNG) of an element's box, cropped from the page pixels. */
function embedCrop(el: Element, rgba: Uint8Array, width: number, height: number, points: [number, number][]): void {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs))), x1 = Math.min(width, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys))), y1 = Math.min(height, Math.ceil(Math.max(...ys)));
  const w = x1 - x0, h = y1 - y0;
  if (w <= 0 || h <= 0) return;
  const crop = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) crop.set(rgba.subarray(((y0 + y) * width + x0) * 4, ((y0 + y) * width + x1) * 4), y * w * 4);
  el.metadata.image_base64 = Buffer.from(rgbaToPng(crop, w, h, (b) => deflateSync(b, { level: 6 }))).toString('base64');
  el.metadata.image_mime_type = 'image/png';
}

/** A page's RGBA pixels, or undefined for a BMP flavour only Tesseract reads (it is then read as it is). */
function pixelsOf(p: Decoded, data: Uint8Array, filetype: string): Uint8Array | undefined {
  try {
    return p.rgba ?? decodeRgba(data, filetype);
  } catch {
    return undefined;
  }
}

/** The page straightened when it is scanned askew (and its skew), else undefined. */
function straighten(p: Decoded, data: Uint8Array, filetype: string): { page: Decoded; angle: number } | undefined {
  const rgba = pixelsOf(p, data, filetype);
  if (!rgba) return undefined;
  const d = deskew(rgba, toGray(rgba, p.width, p.height), p.width, p.height);
  return d && { page: { encoded: rgbaToPng(d.rgba, p.width, p.height, deflate), rgba: d.rgba, width: p.width, height: p.height }, angle: d.angle };
}

interface PageReading {
  /** The page as read (turned and straightened). */
  p: Decoded;
  straight?: { page: Decoded; angle: number };
  lines?: ReturnType<typeof ocrInputWithLines>;
  ocr: OcrResult;
}

/** The page turned upright when it was scanned sideways or upside down (and the quarter turns), else undefined. */
function turnUpright(p: Decoded, data: Uint8Array, filetype: string): { page: Decoded; turns: Turns } | undefined {
  const rgba = pixelsOf(p, data, filetype);
  if (!rgba) return undefined;
  const turns = pageTurns(toGray(rgba, p.width, p.height), p.width, p.height);
  if (!turns) return undefined;
  const t = turnRgba(rgba, p.width, p.height, turns);
  return { page: { encoded: rgbaToPng(t.rgba, t.width, t.height, deflate), rgba: t.rgba, width: t.width, height: t.height }, turns };
}

/** Table lines of a page at its native size, when its pixels can be decoded here. */
function tableLinesOf(p: Decoded, data: Uint8Array, filetype: string): ReturnType<typeof ocrInputWithLines> | undefined {
  try {
    return ocrInputWithLines(p.rgba ?? decodeRgba(data, filetype), p.width, p.height, p.encoded);
  } catch {
    return undefined; // a BMP flavour only Tesseract reads: no ruling lines, text and alignment still work
  }
}

/** OCR of the image scaled by k (clamped to MAX_ZOOM and MAX_ZOOMED_PIXELS); boxes in original pixels. */
async function zoomedOcr(p: Decoded, data: Uint8Array, filetype: string, langs: string[], k: number, callerChoseLanguages = true): Promise<OcrResult> {
  const zoom = Math.max(1, Math.min(MAX_ZOOM, k, Math.sqrt(MAX_ZOOMED_PIXELS / (p.width * p.height))));
  if (zoom < 1.2) return recognizeBest(p.encoded, langs, callerChoseLanguages);
  const rgba = p.rgba ?? decodeRgba(data, filetype);
  const w = Math.round(p.width * zoom), h = Math.round(p.height * zoom);
  const ocr = await recognizeBest(rgbaToPng(resizeRgba(rgba, p.width, p.height, w, h), w, h, deflate), langs, callerChoseLanguages);
  for (const l of ocr.lines) { scaleBox(l, 1 / zoom); for (const wd of l.words) scaleBox(wd, 1 / zoom); }
  return ocr;
}

function medianLineHeight(ocr: OcrResult): number {
  const hs = ocr.lines.map((l) => l.y1 - l.y0).filter((h) => h > 0).sort((x, y) => x - y);
  return hs.length ? hs[hs.length >> 1]! : 0;
}

function scaleBox(b: { x0: number; y0: number; x1: number; y1: number }, k: number): void {
  b.x0 *= k; b.y0 *= k; b.x1 *= k; b.y1 *= k;
}

/** RGBA pixels of a single-page image (PNG, JPEG, BMP). */
function decodeRgba(data: Uint8Array, filetype: string): Uint8Array {
  if (filetype === 'jpg') return jpeg.decode(data, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_IMAGE_PIXELS / 1e6, maxMemoryUsageInMB: 1024 }).data;
  if (filetype === 'png') {
    const img = PNG.sync.read(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    return new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  }
  if (filetype === 'bmp') return decodeBmp(data).rgba;
  throw new UnprocessableDocument(`Cannot decode the ${filetype} image.`);
}

/** Uncompressed 24/32-bit BMP to RGBA (other BMP flavours go to Tesseract as they are). */
function decodeBmp(d: Uint8Array): { rgba: Uint8Array; width: number; height: number } {
  const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const offset = v.getUint32(10, true);
  const width = v.getInt32(18, true);
  const rawH = v.getInt32(22, true);
  const height = Math.abs(rawH);
  const bpp = v.getUint16(28, true);
  const compression = v.getUint32(30, true);
  if ((bpp !== 24 && bpp !== 32) || (compression !== 0 && compression !== 3)) throw new UnprocessableDocument(`Unsupported BMP format (${bpp} bits, compression ${compression}).`);
  const bytes = bpp / 8;
  const stride = (width * bytes + 3) & ~3;
  if (offset + stride * height > d.length) throw new UnprocessableDocument('BMP file is truncated.');
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const src = offset + (rawH > 0 ? height - 1 - y : y) * stride;
    for (let x = 0; x < width; x++) {
      const s = src + x * bytes, o = (y * width + x) * 4;
      rgba[o] = d[s + 2]!; rgba[o + 1] = d[s + 1]!; rgba[o + 2] = d[s]!; rgba[o + 3] = 255;
    }
  }
  return { rgba, width, height };
}

interface ImagePages {
  count: number;
  /** Why pages of the file were left out (a damaged or hostile TIFF directory chain). */
  warning?: string;
  /** Decodes one page (1-based) when it is read, so memory holds one page's pixels at a time. */
  page(pageNumber: number): Promise<Decoded>;
}

/** The pages of an image: a TIFF's directories with pixels (read from the headers alone), else one. */
function imagePages(data: Uint8Array, filetype: string, width: number, height: number): ImagePages {
  const failed = (err: unknown) =>
    err instanceof UnprocessableDocument ? err : new UnprocessableDocument(`Cannot decode the ${filetype} image: ${(err as Error)?.message ?? err}`);
  const one = (decode: () => Decoded | Promise<Decoded>): ImagePages => ({
    count: 1,
    page: async () => {
      try {
        return await decode();
      } catch (err) {
        throw failed(err);
      }
    },
  });
  if (filetype === 'heic') {
    return one(async () => {
      const img = await decodeHeic({ buffer: data });
      const rgba = new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength);
      return { encoded: rgbaToPng(rgba, img.width, img.height, deflate), rgba, width: img.width, height: img.height };
    });
  }
  if (filetype === 'tiff') {
    const buf = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
    let ifds: UTIF.IFD[];
    const cut = cutTiffChain(buf);
    try {
      ifds = UTIF.decode(buf).filter((ifd) => ifd['t256'] && ifd['t257']);
    } catch (err) {
      throw failed(err);
    }
    if (!ifds.length) throw failed(new Error(cut ?? 'no readable page'));
    return {
      count: ifds.length,
      warning: cut,
      page: async (pageNumber) => {
        const ifd = ifds[pageNumber - 1]!;
        try {
          UTIF.decodeImage(buf, ifd);
          const rgba = UTIF.toRGBA8(ifd);
          const w = ifd.width, h = ifd.height;
          return { encoded: rgbaToPng(rgba, w, h, deflate), rgba, width: w, height: h };
        } catch (err) {
          throw failed(err);
        } finally {
          (ifd as { data?: Uint8Array }).data = undefined; // the decoded strips: one page at a time
        }
      },
    };
  }
  // Decoding here validates the file (a truncated upload is a clear 422, not an OCR failure).
  if (filetype === 'jpg' || filetype === 'png') return one(() => ({ encoded: data, rgba: decodeRgba(data, filetype), width, height }));
  // BMP: Tesseract (Leptonica) reads every BMP flavour itself.
  return one(() => ({ encoded: data, width, height }));
}
