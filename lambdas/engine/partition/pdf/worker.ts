// Page worker: holds open documents by job id and runs text-layer page processing for the pool
// (pool.ts). Messages: open {job, data: SharedArrayBuffer}, pages {job, id, pages, opts}, close {job}.
import { parentPort } from 'node:worker_threads';
import { processPage, type PageJobOptions, type PageResult } from './pages';
import { PdfDocument } from './pdfium';

type Msg =
  | { type: 'open'; job: number; data: SharedArrayBuffer | ArrayBuffer }
  | { type: 'pages'; job: number; id: number; pages: number[]; opts: PageJobOptions }
  | { type: 'close'; job: number };

const docs = new Map<number, Promise<PdfDocument>>();
const port = parentPort;
if (port) {
  port.on('message', async (msg: Msg) => {
    if (msg.type === 'open') {
      const p = PdfDocument.open(new Uint8Array(msg.data));
      p.catch(() => {});
      docs.set(msg.job, p);
    } else if (msg.type === 'close') {
      const p = docs.get(msg.job);
      docs.delete(msg.job);
      p?.then((d) => d.close(), () => {});
    } else if (msg.type === 'pages') {
      try {
        const doc = await docs.get(msg.job);
        if (!doc) throw new Error('document not open');
        const results: PageResult[] = [];
        for (const i of msg.pages) {
          try {
            results.push(processPage(doc, i, msg.opts));
          } catch (err) {
            // A wasm trap leaves the module unusable: report and let the pool replace this worker.
            if ((err as Error)?.constructor?.name === 'RuntimeError') {
              port.postMessage({ id: msg.id, error: `PDFium failed: ${(err as Error).message}` });
              process.exit(1);
            }
            results.push({ page: i + 1, elements: [], textChars: 0, error: String((err as Error)?.message ?? err) } as PageResult);
          }
        }
        port.postMessage({ id: msg.id, results });
      } catch (err) {
        port.postMessage({ id: msg.id, error: String((err as Error)?.message ?? err) });
      }
    }
  });
  port.postMessage({ ready: true });
}
