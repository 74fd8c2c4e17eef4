// Partition benchmark: pages/second and peak RSS for the large text PDFs (fast strategy, full
// element output, median of several runs) and seconds per page for OCR (one rendered page).
// Usage: npm run bench:partition [-- --runs N] [-- --no-ocr]
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { partition } from '../../lambdas/engine/partition/index';
import { shutdownOcr } from '../../lambdas/engine/partition/ocr/tesseract';
import { shutdownPagePool } from '../../lambdas/engine/partition/pdf/pool';

const repoRoot = resolve(import.meta.dirname, '../..');
const corpus = resolve(repoRoot, '../shared/corpus/docs');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const withOcr = !args.includes('--no-ocr');

let peakRss = 0;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 20);
sampler.unref();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function timeOne(file: string, strategy: 'fast' | 'hi_res' | 'ocr_only'): Promise<{ secs: number; elements: number }> {
  const data = new Uint8Array(readFileSync(resolve(corpus, file)));
  const t0 = performance.now();
  const r = await partition({ data, filename: file }, { strategy });
  return { secs: (performance.now() - t0) / 1000, elements: r.elements.length };
}

const PDFS: [string, number][] = [['DA-619p.pdf', 619], ['pdf2image-memory-error-test-400p.pdf', 400], ['failure-after-repair.pdf', 76]];
console.log(`fast strategy, median of ${runs} runs (first run warms the page workers and is excluded); ${availableParallelism()} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const [file, pages] of PDFS) {
  peakRss = process.memoryUsage().rss;
  await timeOne(file, 'fast');
  const times: number[] = [];
  let elements = 0;
  for (let i = 0; i < runs; i++) {
    const r = await timeOne(file, 'fast');
    times.push(r.secs);
    elements = r.elements;
  }
  const secs = median(times);
  console.log(`${file.padEnd(40)} ${pages} pages  ${(pages / secs).toFixed(1).padStart(6)} pages/s  median ${secs.toFixed(2)} s  ${elements} elements  peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
}

if (withOcr) {
  // One scanned page (no text layer): render + OCR.
  peakRss = process.memoryUsage().rss;
  const warm = await timeOne('loremipsum-flat.pdf', 'ocr_only');
  const r = await timeOne('loremipsum-flat.pdf', 'ocr_only');
  console.log(`OCR loremipsum-flat.pdf (1 page, 200 dpi)            ${r.secs.toFixed(2)} s/page (cold ${warm.secs.toFixed(2)} s)  ${r.elements} elements  peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
}
await shutdownOcr();
await shutdownPagePool();
