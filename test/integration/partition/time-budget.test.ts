// Issue 31: a synchronous partition whose OCR cannot fit the document's time budget is refused up front
// (a 413 saying to send it as a job or split its pages), instead of failing when the budget runs out.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, rgb } from 'pdf-lib';
import { partitionInSandbox, shutdownPartitionSandbox } from '../../../lambdas/engine/partition/sandbox';
import { PayloadTooLarge } from '../../../lambdas/errors';

after(() => shutdownPartitionSandbox());

/** A PDF of `n` pages without a text layer (each a drawn box: every page needs OCR). */
async function scannedPdf(n: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < n; i++) doc.addPage([300, 300]).drawRectangle({ x: 40, y: 40, width: 200, height: 120, borderColor: rgb(0, 0, 0), borderWidth: 2 });
  return doc.save();
}

test('OCR of more pages than the time budget holds is a 413 at once, naming the way out', async () => {
  const data = await scannedPdf(12);
  const started = Date.now();
  await assert.rejects(
    partitionInSandbox({ data, filename: 'scan.pdf' }, { strategy: 'ocr_only' }, { timeoutSeconds: 10 }),
    (err: Error) => err instanceof PayloadTooLarge && /12 pages to OCR take about 24 s, more than the time budget of 10 s.*POST \/api\/v1\/jobs\/.*split_pdf_page=true/.test(err.message),
  );
  // refused before any OCR: reading 12 pages takes well over 20 s (more on a busy machine, as does
  // starting the sandbox), so this tells the two apart without being a speed test
  assert.ok(Date.now() - started < 20_000, `refused after ${Date.now() - started} ms`);
  // -- within the budget it runs --
  const ok = await partitionInSandbox({ data: await scannedPdf(2), filename: 'two.pdf' }, { strategy: 'ocr_only' }, { timeoutSeconds: 60 });
  assert.ok(Array.isArray(JSON.parse(Buffer.from(ok.elementsJson).toString('utf8'))));
});
