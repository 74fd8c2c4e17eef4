// PDFium (WebAssembly build from @embedpdf/pdfium, MIT wrapper over BSD/Apache PDFium): one module
// instance per thread, loaded lazily. Documents are copied into the module's heap and closed (and
// their heap freed) by `PdfDocument.close()`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { UnprocessableDocument } from '../../../errors';

let modulePromise: Promise<WrappedPdfiumModule> | undefined;

export function loadPdfium(): Promise<WrappedPdfiumModule> {
  if (!modulePromise) {
    modulePromise = (async () => {
      const require = createRequire(import.meta.url);
      const wasmBinary = readFileSync(require.resolve('@embedpdf/pdfium/pdfium.wasm'));
      const m = await init({ wasmBinary } as never);
      m.PDFiumExt_Init();
      return m;
    })();
    modulePromise.catch(() => { modulePromise = undefined; });
  }
  return modulePromise;
}

/**
 * Drops the module instance after a wasm trap (out of memory, abort): its heap may be left in any
 * state, so the next document gets a fresh instance.
 */
export function resetPdfium(): void {
  modulePromise = undefined;
}

export const FPDF_ERR = { SUCCESS: 0, UNKNOWN: 1, FILE: 2, FORMAT: 3, PASSWORD: 4, SECURITY: 5, PAGE: 6 } as const;

export class PdfDocument {
  private constructor(readonly m: WrappedPdfiumModule, readonly handle: number, private dataPtr: number, readonly pageCount: number) {}

  /** Opens a document; throws UnprocessableDocument for encrypted or unreadable files. */
  static async open(data: Uint8Array): Promise<PdfDocument> {
    const m = await loadPdfium();
    const ptr = m.pdfium.wasmExports.malloc(data.length);
    if (!ptr) throw new UnprocessableDocument('PDF is too large to open.');
    heap(m).HEAPU8.set(data, ptr);
    const handle = m.FPDF_LoadMemDocument(ptr, data.length, '');
    if (!handle) {
      const err = m.FPDF_GetLastError();
      m.pdfium.wasmExports.free(ptr);
      if (err === FPDF_ERR.PASSWORD) throw new UnprocessableDocument('File is encrypted. Please decrypt it with password.');
      if (err === FPDF_ERR.SECURITY) throw new UnprocessableDocument('PDF uses an unsupported security handler.');
      throw new UnprocessableDocument(`Invalid or damaged PDF (PDFium error ${err}).`);
    }
    const pageCount = m.FPDF_GetPageCount(handle);
    return new PdfDocument(m, handle, ptr, pageCount);
  }

  close(): void {
    if (this.dataPtr) {
      this.m.FPDF_CloseDocument(this.handle);
      this.m.pdfium.wasmExports.free(this.dataPtr);
      this.dataPtr = 0;
    }
  }
}

/** Scratch buffer in the wasm heap, grown on demand (one per module instance). */
export class Scratch {
  private ptr = 0;
  private size = 0;
  constructor(private readonly m: WrappedPdfiumModule) {}
  get(bytes: number): number {
    if (bytes > this.size) {
      if (this.ptr) this.m.pdfium.wasmExports.free(this.ptr);
      this.size = Math.max(bytes, this.size * 2, 4096);
      this.ptr = this.m.pdfium.wasmExports.malloc(this.size);
    }
    return this.ptr;
  }
}

/** The module's heap views (typed here: the package's emscripten typings are not installed). Read them
 * fresh after any allocation — growing memory replaces the views. */
export interface Heaps { HEAPU8: Uint8Array; HEAP32: Int32Array; HEAPF32: Float32Array; HEAPF64: Float64Array }
export const heap = (m: WrappedPdfiumModule): Heaps => m.pdfium as unknown as Heaps;

/**
 * The module's raw wasm exports. The wrapper's functions go through emscripten's ccall (argument
 * conversion, stack save/restore) at ~10 µs a call; hot loops call the exports directly.
 * Booleans come back as 0/1.
 */
export type RawExports = Record<string, (...args: number[]) => number>;
export const rawExports = (m: WrappedPdfiumModule): RawExports => (m.pdfium as unknown as { wasmExports: RawExports }).wasmExports;
