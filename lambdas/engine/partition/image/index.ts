// Image partitioning (jpg, png, tiff, bmp, heic): size check from the header (decompression bombs
// are refused before decoding), decoding where Tesseract cannot read the format itself (HEIC,
// multi-page TIFF), then OCR and the shared layout. An image with no real text becomes one Image
// element, as the open-source library's hi_res does for photos.
import decodeHeic from 'heic-decode';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import UTIF from 'utif2';
import { BadRequest, PayloadTooLarge, UnprocessableDocument } from '../../../domain/errors';
import { makeElement, type Element } from '../../elements';
import { hasRealText, ocrPageElements } from '../ocr/layout';
import { availableOcrLanguages, recognize } from '../ocr/tesseract';
import type { FormatContext } from '../types';
import { resolveVlmProvider } from '../vlm';
import { grayToBmp, resizeGray, toGray } from './bitmap';
import { imageSize, MAX_IMAGE_PIXELS } from './header';

interface Decoded { bmp: Uint8Array; gray?: Uint8Array; width: number; height: number }

/** Images smaller than this (pixels) are upscaled before OCR: Tesseract wants ~20px text. */
const OCR_TARGET_PIXELS = 3_500_000;
const MAX_UPSCALE = 3;

const MAX_TIFF_PAGES = 50;

export async function partitionImage(data: Uint8Array, ctx: FormatContext): Promise<Element[]> {
  const { options, filetype } = ctx;
  if (options.strategy === 'fast') throw new BadRequest('The fast strategy is not available for image files');
  const size = imageSize(data, filetype);
  if (!size || !size.width || !size.height) throw new UnprocessableDocument(`Cannot read the ${filetype} image header: the file is corrupt or truncated.`);
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new PayloadTooLarge(`Image size (${size.width}x${size.height} = ${size.width * size.height} pixels) exceeds the limit of ${MAX_IMAGE_PIXELS} pixels.`);
  }
  const pages = await decodePages(data, filetype, size.width, size.height);
  const { langs, missing } = availableOcrLanguages(options.ocrLanguages);
  if (missing.length) ctx.warn(`OCR language data not installed: ${missing.join(', ')}; using ${langs.join(', ')}`);
  let note: string | undefined;
  const vlm = options.strategy === 'vlm' ? resolveVlmProvider(options.vlm) : undefined;
  if (options.strategy === 'vlm' && !vlm) {
    note = 'VLM strategy requested but no provider is configured; used local OCR instead.';
    ctx.warn(note);
  }
  const out: Element[] = [];
  for (let i = 0; i < pages.length; i++) {
    const p = pages[i]!;
    const pageNumber = i + 1;
    if (vlm && p.gray) {
      try {
        out.push(...(await vlm.partitionPage({ gray: p.gray, width: p.width, height: p.height, page: pageNumber }, options)));
        continue;
      } catch (err) {
        ctx.warn(`page ${pageNumber}: VLM provider failed (${(err as Error).message}); used local OCR`);
      }
    }
    let ocr;
    try {
      ocr = await recognize(ocrInput(p), langs);
    } catch (err) {
      throw new UnprocessableDocument(`Cannot decode the ${filetype} image: ${(err as Error)?.message ?? err}`);
    }
    const k = ocrScale(p);
    if (k !== 1) for (const l of ocr.lines) { scaleBox(l, 1 / k); for (const w of l.words) scaleBox(w, 1 / k); }
    const extra = note ? { partitioner_note: note } : undefined;
    if (!hasRealText(ocr)) {
      const md: Record<string, unknown> = { page_number: pageNumber, ...extra };
      if (options.coordinates) md.coordinates = { points: [[0, 0], [0, p.height], [p.width, p.height], [p.width, 0]], system: 'PixelSpace', layout_width: p.width, layout_height: p.height };
      out.push(makeElement('Image', '', md));
      continue;
    }
    out.push(...ocrPageElements(ocr, pageNumber, p.width, p.height, {
      coordinates: options.coordinates,
      languages: options.languages,
      tables: options.pdfInferTableStructure !== false && !options.skipInferTableTypes.includes(filetype),
      extra,
    }));
  }
  return out;
}

function ocrScale(p: Decoded): number {
  const px = p.width * p.height;
  if (!p.gray || px >= OCR_TARGET_PIXELS) return 1;
  return Math.min(MAX_UPSCALE, Math.sqrt(OCR_TARGET_PIXELS / px));
}

/** The image Tesseract sees: small images upscaled (bilinear) so text reaches a readable height. */
function ocrInput(p: Decoded): Uint8Array {
  const k = ocrScale(p);
  if (k === 1 || !p.gray) return p.bmp;
  const w = Math.round(p.width * k), h = Math.round(p.height * k);
  return grayToBmp(resizeGray(p.gray, p.width, p.height, w, h), w, h);
}

function scaleBox(b: { x0: number; y0: number; x1: number; y1: number }, k: number): void {
  b.x0 *= k; b.y0 *= k; b.x1 *= k; b.y1 *= k;
}

function grayPage(rgba: Uint8Array, w: number, h: number): Decoded {
  const gray = toGray(rgba, w, h);
  return { bmp: grayToBmp(gray, w, h), gray, width: w, height: h };
}

async function decodePages(data: Uint8Array, filetype: string, width: number, height: number): Promise<Decoded[]> {
  try {
    if (filetype === 'heic') {
      const img = await decodeHeic({ buffer: data });
      const gray = toGray(new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength), img.width, img.height);
      return [{ bmp: grayToBmp(gray, img.width, img.height), gray, width: img.width, height: img.height }];
    }
    if (filetype === 'tiff') {
      const buf = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
      const ifds = UTIF.decode(buf).filter((ifd) => ifd['t256'] && ifd['t257']).slice(0, MAX_TIFF_PAGES);
      const pages: Decoded[] = [];
      for (const ifd of ifds) {
        UTIF.decodeImage(buf, ifd);
        const rgba = UTIF.toRGBA8(ifd);
        const w = ifd.width, h = ifd.height;
        const gray = toGray(rgba, w, h);
        pages.push({ bmp: grayToBmp(gray, w, h), gray, width: w, height: h });
      }
      if (pages.length) return pages;
      throw new Error('no readable page');
    }
    if (filetype === 'jpg') {
      const img = jpeg.decode(data, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_IMAGE_PIXELS / 1e6, maxMemoryUsageInMB: 1024 });
      return [grayPage(img.data, img.width, img.height)];
    }
    if (filetype === 'png') {
      const img = PNG.sync.read(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      return [grayPage(new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength), img.width, img.height)];
    }
  } catch (err) {
    throw new UnprocessableDocument(`Cannot decode the ${filetype} image: ${(err as Error)?.message ?? err}`);
  }
  // BMP: Tesseract (Leptonica) decodes it itself.
  return [{ bmp: data, width, height }];
}
