// PDF partitioning. Strategies:
// - fast: the text layer only (pages without text yield nothing, with a warning).
// - auto / hi_res: the text layer where it is usable, plus Image elements for large pictures;
//   pages without usable text are rendered and OCR'd.
// - ocr_only: every page rendered and OCR'd.
// - vlm: a hosted vision model per page (vlm/), pages with a good text layer skip it with
//   allowFast; with no provider configured, local OCR with metadata.partitioner_note.
// Long documents spread text-layer pages over worker threads (pool.ts); results stream page by
// page so memory stays bounded by one page plus the elements.
import { deflateSync } from 'node:zlib';
import type { Element } from '../../elements';
import { appendAll, makeElement, provisionalId } from '../../elements';
import { PayloadTooLarge, UnprocessableDocument } from '../../../errors';
import type { FormatContext } from '../types';
import { availableOcrLanguages, recognizeBest } from '../ocr/tesseract';
import { hasRealText, mergeReadings, ocrPageElements, readsWell, wellReadChars } from '../ocr/layout';
import { processPage, type PageJobOptions, type PageResult } from './pages';
import { PdfDocument, resetPdfium } from './pdfium';
import { pagePoolReady, processPagesInPool, warmPagePool } from './pool';
import { cropPng, renderPage } from './render';
import { resolveVlmProvider, type VlmProvider } from '../vlm';
import { ocrInputWithLines } from '../image/rules';
import { deskew, unskewCoordinates } from '../image/deskew';
import { rgbaToPng, toGray } from '../image/bitmap';
import { pageTurns, turnRgba, unturnCoordinates } from '../image/orient';
import { pageSpan } from '../page-span';

/** Page count from which text-layer pages go to the worker pool once it is running... */
const POOL_MIN_PAGES = 24;
/** ...and from which it is worth waiting for a cold pool to start. */
const POOL_COLD_MIN_PAGES = 150;
/** Upper bound on pages OCR'd in one request (OCR costs seconds per page); a job's page range has none. */
const MAX_OCR_PAGES = Number(process.env.PARTITION_MAX_OCR_PAGES) || 100;
/** The least time one page's OCR takes here (two workers, a quiet machine): what the up-front budget check counts. */
const OCR_SECONDS_PER_PAGE = 2;
/** Time budget for OCR of one document; later pages are skipped with a warning. */
const OCR_BUDGET_MS = Number(process.env.PARTITION_OCR_BUDGET_MS) || 10 * 60_000;

/** Adds image_base64 (PNG) to elements of the requested types, cropped from a page rendering. */
function embedBlockImages(doc: PdfDocument, elements: Element[], types: Set<string>, ctx: FormatContext): void {
  const byPage = new Map<number, Element[]>();
  for (const el of elements) {
    if (!types.has(el.type) || !el.metadata.coordinates || !el.metadata.page_number) continue;
    const list = byPage.get(el.metadata.page_number) ?? [];
    list.push(el);
    byPage.set(el.metadata.page_number, list);
  }
  for (const [page, els] of byPage) {
    const rendered = renderPage(doc, page - 1, 150);
    if (!rendered) { ctx.warn(`page ${page}: could not be rendered for image extraction`); continue; }
    for (const el of els) {
      const c = el.metadata.coordinates!;
      const [p0, p1, p2] = c.points;
      if (!p0 || !p1 || !p2) continue;
      const top = c.system === 'PointSpace' ? c.layout_height - p0[1] : p0[1];
      const bottom = c.system === 'PointSpace' ? c.layout_height - p1[1] : p1[1];
      const png = cropPng(rendered, p0[0] / c.layout_width, top / c.layout_height, p2[0] / c.layout_width, bottom / c.layout_height);
      if (!png) continue;
      el.metadata.image_base64 = Buffer.from(png).toString('base64');
      el.metadata.image_mime_type = 'image/png';
    }
  }
}

const WasmRuntimeError = (globalThis as unknown as { WebAssembly?: { RuntimeError: abstract new () => Error } }).WebAssembly?.RuntimeError;
/** A trap inside PDFium's wasm (abort, out of memory, unreachable). */
function isWasmTrap(err: unknown): err is Error {
  return !!WasmRuntimeError && err instanceof WasmRuntimeError;
}

export async function partitionPdf(data: Uint8Array, ctx: FormatContext): Promise<Element[]> {
  try {
    return await partitionPdfDocument(data, ctx);
  } catch (err) {
    if (isWasmTrap(err)) {
      resetPdfium();
      throw new UnprocessableDocument(`PDF could not be processed (${err.message}).`);
    }
    throw err;
  }
}

async function partitionPdfDocument(data: Uint8Array, ctx: FormatContext): Promise<Element[]> {
  const { options } = ctx;
  const strategy = options.strategy === 'od_only' ? 'hi_res' : options.strategy;
  const doc = await PdfDocument.open(data);
  try {
    if (doc.pageCount <= 0) throw new UnprocessableDocument('PDF has no pages.');
    // a job splits a longer document into page ranges (domain/job-pages.ts): nothing to do here
    const span = pageSpan(ctx, doc.pageCount);
    if (!span) return [];
    const { first, last } = span;
    if (last - first + 1 >= 8) warmPagePool();
    const blockTypes = new Set(options.extractImageBlockTypes);
    const jobOpts: PageJobOptions = {
      hiRes: strategy !== 'fast',
      // Image extraction needs every element's box; coordinates are dropped again unless asked for.
      coordinates: options.coordinates || blockTypes.size > 0,
      // Tables are always looked for (as the library's layout model always labels them); their cell
      // structure is added when asked for.
      tables: true,
      tableHtml: options.pdfInferTableStructure !== false && !options.skipInferTableTypes.includes('pdf'),
      languages: options.languages,
    };
    let vlm: VlmProvider | undefined;
    let note: string | undefined;
    if (strategy === 'vlm') {
      vlm = resolveVlmProvider(options.vlm);
      if (!vlm) {
        note = `VLM strategy requested but no provider is configured${options.vlm?.provider ? ` for "${options.vlm.provider}"` : ''}; used the local text layer and OCR instead.`;
        ctx.warn(note);
      }
    }
    const pages = Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first - 1 + i);
    const byPage = new Map<number, Element[]>();
    const toOcr: number[] = [];
    const useTextLayer = strategy !== 'ocr_only' && !(strategy === 'vlm' && !options.vlm?.allowFast && vlm);

    if (useTextLayer) {
      const collect = (r: PageResult) => {
        if ('needsOcr' in r) toOcr.push(r.page - 1);
        else {
          byPage.set(r.page, r.elements);
          for (const w of r.warnings ?? []) ctx.warn(w);
        }
      };
      let results: PageResult[] | undefined;
      if (pages.length >= POOL_COLD_MIN_PAGES || (pages.length >= POOL_MIN_PAGES && pagePoolReady())) {
        try {
          results = await processPagesInPool(data, pages, jobOpts);
        } catch (err) {
          ctx.warn(`page workers failed (${(err as Error).message}); continuing in-process`);
          results = undefined;
        }
      }
      if (results) {
        // Worker-made provisional ids come from another counter: re-issue them here.
        for (const r of results) {
          if ('elements' in r) for (const e of r.elements) e.element_id = provisionalId();
          collect(r);
        }
      } else {
        for (const i of pages) {
          try {
            collect(processPage(doc, i, jobOpts));
          } catch (err) {
            if (isWasmTrap(err)) throw err;
            ctx.warn(`page ${i + 1}: text extraction failed (${(err as Error).message})`);
            if (jobOpts.hiRes) toOcr.push(i);
          }
          if (i % 16 === 15) await new Promise((r) => setImmediate(r));
        }
      }
      if (strategy === 'fast' && byPage.size > 0 && [...byPage.values()].every((e) => e.length === 0)) {
        ctx.warn('PDF has no text layer; use strategy hi_res or ocr_only to OCR it.');
      }
    } else {
      toOcr.push(...pages);
    }

    // -- progress: the pages read from the text layer now, each OCR'd page as it finishes --
    const spanPages = last - first + 1;
    let pagesDone = Math.max(0, spanPages - toOcr.length);
    ctx.progress?.(pagesDone, spanPages);
    if (toOcr.length) {
      toOcr.sort((a, b) => a - b);
      // a page range of a job (ctx.pages) is bounded by its range size instead: no cap there
      const limited = span.inRange ? toOcr : toOcr.slice(0, MAX_OCR_PAGES);
      // -- OCR that cannot fit the document's time budget is refused now, not after the budget is spent --
      const needs = Math.round(limited.length * OCR_SECONDS_PER_PAGE);
      if (ctx.timeBudgetS && needs > ctx.timeBudgetS) {
        throw new PayloadTooLarge(
          `${limited.length} pages to OCR take about ${needs} s, more than the time budget of ${ctx.timeBudgetS} s for one document: ` +
            'send it as a job (POST /api/v1/jobs/, which splits it into page ranges), or split its pages with the SDK (split_pdf_page=true)',
        );
      }
      if (toOcr.length > limited.length) ctx.warn(`only the first ${MAX_OCR_PAGES} pages without text were OCR'd`);
      const { langs, missing } = availableOcrLanguages(options.ocrLanguages);
      if (missing.length) ctx.warn(`OCR language data not installed: ${missing.join(', ')}; using ${langs.join(', ')}`);
      const extra = note ? { partitioner_note: note } : undefined;
      /** A page's pixels straightened, its table lines painted out, and OCR'd (`rendered`: the rendering itself, unturned). */
      const readScan = async (rgba: Uint8Array, width: number, height: number, rendered?: { gray: Uint8Array; png: Uint8Array }) => {
        const straight = deskew(rgba, rendered?.gray ?? toGray(rgba, width, height), width, height);
        const px = straight?.rgba ?? rgba;
        const png = rendered && !straight ? rendered.png : rgbaToPng(px, width, height, (b) => deflateSync(b, { level: 1 }));
        // Table lines are found first and painted out of the image OCR reads (cells read better).
        const lines = ocrInputWithLines(px, width, height, png, straight ? undefined : rendered?.gray);
        const read = (png: Uint8Array) => recognizeBest(png, langs, options.languages.length > 0);
        const ocr = lines.cleaned ? mergeReadings(await read(lines.png), await read(png), lines.rules) : await read(png);
        return { ocr, lines, straight, width, height };
      };
      // Two pages in flight keeps both OCR workers busy while the next page renders.
      const inflight: Promise<void>[] = [];
      const started = Date.now();
      for (const i of limited) {
        if (Date.now() - started > OCR_BUDGET_MS) {
          ctx.warn(`OCR time budget exhausted: pages from ${i + 1} on were not OCR'd`);
          break;
        }
        const rendered = renderPage(doc, i);
        if (!rendered) { ctx.warn(`page ${i + 1}: could not be rendered`); continue; }
        const task = (async () => {
          try {
            await ocrOne();
          } catch (err) {
            ctx.warn(`page ${i + 1}: OCR failed (${(err as Error).message})`);
          }
          ctx.progress?.(Math.min(spanPages, ++pagesDone), spanPages);
        })();
        async function ocrOne(): Promise<void> {
          if (!rendered) return;
          if (vlm) {
            try {
              byPage.set(i + 1, await vlm.partitionPage({ gray: rendered.gray, width: rendered.width, height: rendered.height, page: i + 1 }, options));
              return;
            } catch (err) {
              ctx.warn(`page ${i + 1}: VLM provider failed (${(err as Error).message}); used local OCR`);
            }
          }
          // A page scanned sideways or upside down is turned upright (image/orient.ts), one scanned
          // askew straightened (image/deskew.ts); coordinates are mapped back onto the page.
          const turns = pageTurns(rendered.gray, rendered.width, rendered.height);
          const t = turnRgba(rendered.rgba, rendered.width, rendered.height, turns);
          let r = await readScan(t.rgba, t.width, t.height, turns ? undefined : rendered);
          let turned = turns;
          // a turned page that reads badly is read as it came too, and the better reading kept
          if (turns && !readsWell(r.ocr)) {
            const asIs = await readScan(rendered.rgba, rendered.width, rendered.height, rendered);
            if (wellReadChars(asIs.ocr) > wellReadChars(r.ocr)) { r = asIs; turned = 0; }
          }
          const { ocr, lines, straight, width, height } = r;
          const els = hasRealText(ocr)
            ? ocrPageElements(ocr, i + 1, width, height, { coordinates: options.coordinates || blockTypes.size > 0, languages: options.languages, tableHtml: jobOpts.tableHtml, extra, rules: lines.rules, dots: lines.dots, warn: (w) => ctx.warn(`page ${i + 1}: ${w}`), sizeScale: 1 / rendered.scale })
            : [];
          if (straight) unskewCoordinates(els, width, height, straight.angle);
          if (turned) unturnCoordinates(els, rendered.width, rendered.height, turned);
          byPage.set(i + 1, els.length ? els : [makeElement('Image', '', { page_number: i + 1, ...extra })].filter(() => ocr.lines.length > 0));
        }
        inflight.push(task);
        if (inflight.length >= 2) await inflight.shift();
      }
      await Promise.all(inflight);
    }
    const out: Element[] = [];
    for (let p = first; p <= last; p++) {
      const els = byPage.get(p);
      if (els) appendAll(out, els);
    }
    if (note) for (const el of out) el.metadata.partitioner_note ??= note;
    if (blockTypes.size) {
      embedBlockImages(doc, out, blockTypes, ctx);
      if (!options.coordinates) for (const el of out) delete el.metadata.coordinates;
    }
    return out;
  } finally {
    doc.close();
  }
}
