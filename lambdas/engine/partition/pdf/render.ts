// Renders a PDF page with PDFium into an RGB PNG for OCR (Tesseract thresholds colour channels
// separately, which keeps text on tinted backgrounds) plus gray pixels for vision models. The pixel count is capped so a
// huge page size cannot exhaust memory.
import { deflateSync } from 'node:zlib';
import { bgrxToRgba, rgbaToPng, toGray } from '../image/bitmap';
import { heap, type PdfDocument } from './pdfium';

export const OCR_DPI = 200;
const MAX_PIXELS = 5000 * 5000;

export interface RenderedPage { png: Uint8Array; gray: Uint8Array; rgba: Uint8Array; width: number; height: number; scale: number }

export function renderPage(doc: PdfDocument, index: number, dpi = OCR_DPI): RenderedPage | undefined {
  const m = doc.m;
  const page = m.FPDF_LoadPage(doc.handle, index);
  if (!page) return undefined;
  try {
    const wPt = m.FPDF_GetPageWidthF(page);
    const hPt = m.FPDF_GetPageHeightF(page);
    let scale = dpi / 72;
    if (wPt * hPt * scale * scale > MAX_PIXELS) scale = Math.sqrt(MAX_PIXELS / (wPt * hPt));
    const width = Math.max(1, Math.round(wPt * scale));
    const height = Math.max(1, Math.round(hPt * scale));
    const bitmap = m.FPDFBitmap_Create(width, height, 0);
    if (!bitmap) return undefined;
    try {
      m.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
      m.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, 0x01);
      const stride = m.FPDFBitmap_GetStride(bitmap);
      const ptr = m.FPDFBitmap_GetBuffer(bitmap);
      const px = heap(m).HEAPU8.subarray(ptr, ptr + stride * height);
      const gray = toGray(px, width, height, stride, true);
      const rgba = bgrxToRgba(px, width, height, stride);
      const png = rgbaToPng(rgba, width, height, (b) => deflateSync(b, { level: 1 }));
      return { png, gray, rgba, width, height, scale };
    } finally {
      m.FPDFBitmap_Destroy(bitmap);
    }
  } finally {
    m.FPDF_ClosePage(page);
  }
}

/** A crop of a rendered page as PNG, the box given as fractions of the page (0..1). */
export function cropPng(r: RenderedPage, fx0: number, fy0: number, fx1: number, fy1: number): Uint8Array | undefined {
  const x0 = Math.max(0, Math.floor(fx0 * r.width)), x1 = Math.min(r.width, Math.ceil(fx1 * r.width));
  const y0 = Math.max(0, Math.floor(fy0 * r.height)), y1 = Math.min(r.height, Math.ceil(fy1 * r.height));
  const w = x1 - x0, h = y1 - y0;
  if (w <= 0 || h <= 0) return undefined;
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) out.set(r.rgba.subarray(((y0 + y) * r.width + x0) * 4, ((y0 + y) * r.width + x1) * 4), y * w * 4);
  return rgbaToPng(out, w, h, (b) => deflateSync(b, { level: 6 }));
}
