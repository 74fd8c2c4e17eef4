// Partition benchmark: pages/second and peak RSS for the large text PDFs (fast strategy, full
// element output, median of several runs) and seconds per page for OCR (one rendered page), all
// through partition() as the service calls it (the sandbox process: document in, elements out over
// IPC); then the sandbox's own cost, a small document in-process vs through a warm sandbox process.
// Peak RSS is this process's (the service side); the sandbox process's is printed beside it.
// Usage: npm run bench:partition [-- --runs N] [-- --no-ocr]
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { partition, shutdownPartitionSandbox } from '../../lambdas/engine/partition/index';
import { partitionDocument } from '../../lambdas/engine/partition/pipeline';
import { sandboxPids } from '../../lambdas/engine/partition/sandbox';
import { shutdownOcr } from '../../lambdas/engine/partition/ocr/tesseract';
import { shutdownPagePool } from '../../lambdas/engine/partition/pdf/pool';

const repoRoot = resolve(import.meta.dirname, '../..');
const corpus = resolve(repoRoot, '../shared/corpus/docs');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const withOcr = !args.includes('--no-ocr');

let peakRss = 0;
let peakChild = 0;
const childRss = (pid: number) => {
  try { return Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * 4096; } catch { return 0; }
};
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  for (const pid of sandboxPids()) peakChild = Math.max(peakChild, childRss(pid));
}, 20);
sampler.unref();
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;

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
  peakChild = 0;
  await timeOne(file, 'fast');
  const times: number[] = [];
  let elements = 0;
  for (let i = 0; i < runs; i++) {
    const r = await timeOne(file, 'fast');
    times.push(r.secs);
    elements = r.elements;
  }
  const secs = median(times);
  console.log(`${file.padEnd(40)} ${pages} pages  ${(pages / secs).toFixed(1).padStart(6)} pages/s  median ${secs.toFixed(2)} s  ${elements} elements  peak RSS ${mib(peakRss)} (sandbox ${mib(peakChild)})`);
}


if (withOcr) {
  // One scanned page (no text layer): render + OCR.
  peakRss = process.memoryUsage().rss;
  peakChild = 0;
  const warm = await timeOne('loremipsum-flat.pdf', 'ocr_only');
  const r = await timeOne('loremipsum-flat.pdf', 'ocr_only');
  console.log(`OCR loremipsum-flat.pdf (1 page, 200 dpi)            ${r.secs.toFixed(2)} s/page (cold ${warm.secs.toFixed(2)} s)  ${r.elements} elements  peak RSS ${mib(peakRss)} (sandbox ${mib(peakChild)})`);
}

{
  // The sandbox's cost per document: in-process vs through the warm sandbox process, for a small
  // result and a large one (4,368 elements come back as 1.6 MB of JSON).
  const measure = async (fn: () => Promise<unknown>, rounds: number) => {
    await fn();
    const xs: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      await fn();
      xs.push(performance.now() - t0);
    }
    return median(xs);
  };
  for (const [file, rounds] of [['layout-parser-paper-fast.pdf', Math.max(10, runs * 4)], ['pdf2image-memory-error-test-400p.pdf', runs]] as const) {
    const data = new Uint8Array(readFileSync(resolve(corpus, file)));
    const inProcess = await measure(() => partitionDocument({ data, filename: file }, { strategy: 'fast' }), rounds);
    const sandboxed = await measure(() => partition({ data, filename: file }, { strategy: 'fast' }), rounds);
    console.log(`sandbox cost ${file.padEnd(38)} median of ${rounds}: in-process ${inProcess.toFixed(0)} ms, sandbox ${sandboxed.toFixed(0)} ms (${sandboxed >= inProcess ? '+' : ''}${(sandboxed - inProcess).toFixed(0)} ms)`);
  }
}
await shutdownPartitionSandbox();
await shutdownOcr(); // the in-process runs above
await shutdownPagePool();
