// Text-layer processing of a range of pages, shared by the main thread and the page workers:
// extraction, a usability check (does the page need OCR?), layout into elements.
import type { Element } from '../../elements';
import { extractPage } from './extract';
import type { RawPage } from './page-text';
import { layoutPage } from './layout';
import type { PdfDocument } from './pdfium';

export interface PageJobOptions {
  /** Emit Image elements and treat pages without usable text as needing OCR. */
  hiRes: boolean;
  coordinates: boolean;
  /** Find tables (Table elements): ruled ones from the drawn lines, unruled ones from alignment. */
  tables: boolean;
  /** Add each table's cells as metadata.text_as_html (pdf_infer_table_structure). */
  tableHtml: boolean;
  languages: string[];
}

export type PageResult =
  | { page: number; elements: Element[]; textChars: number; warnings?: string[] }
  | { page: number; needsOcr: true; textChars: number };

/** True when a page's text layer is worth using (enough mapped, printable characters). */
export function usableText(raw: RawPage): boolean {
  let printable = 0, total = 0;
  for (const l of raw.lines) {
    for (const s of l.segs) {
      for (const w of s.words) {
        for (const ch of w.t) {
          total++;
          const c = ch.charCodeAt(0);
          if (c >= 0x20 && !(c >= 0xe000 && c <= 0xf8ff) && c !== 0xfffd) printable++;
        }
      }
    }
  }
  if (total < 8) return false;
  if (raw.chars > 0 && raw.unmapped / raw.chars > 0.3) return false;
  return printable / total > 0.7;
}

/** A full-page picture with only a little text on it (a scan with a stamp or a page number). */
function scannedWithStamp(raw: RawPage): boolean {
  if (raw.chars >= 100) return false;
  const pageArea = raw.width * raw.height;
  return raw.images.some((b) => (b.x1 - b.x0) * (b.y1 - b.y0) > 0.5 * pageArea);
}

export function processPage(doc: PdfDocument, index: number, opts: PageJobOptions): PageResult {
  const raw = extractPage(doc, index, { images: opts.hiRes, links: true, rules: opts.tables });
  const page = index + 1;
  if (opts.hiRes && (!usableText(raw) || scannedWithStamp(raw))) return { page, needsOcr: true, textChars: raw.chars };
  const elements = layoutPage(raw, {
    languages: opts.languages,
    coordinates: opts.coordinates ? 'PointSpace' : undefined,
    images: opts.hiRes,
    tables: opts.tables,
    tableHtml: opts.tableHtml,
  });
  return { page, elements, textChars: raw.chars, ...(raw.warnings ? { warnings: raw.warnings.map((w) => `page ${page}: ${w}`) } : {}) };
}
