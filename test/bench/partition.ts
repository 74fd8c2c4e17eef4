// Partition benchmark: pages/second and peak RSS for the large text PDFs (fast strategy, full
// element output, median of several runs) and seconds per page for OCR (one rendered page, and the
// same page upside down: its orientation found, then read upright), all through partition() as the
// service calls it (the sandbox process: document in, elements out over IPC); then the sandbox's
// own cost, a small document in-process vs through a warm sandbox process.
// Peak RSS is this process's (the service side); the sandbox process's is printed beside it.
// First, on DA-619p.pdf in the same run: poppler's `pdftotext` (the reference, skipped with a message
// where it is not installed), the engine through the sandbox, and the same PDF over HTTP, warm
// (POST /general/v0/general, strategy=fast, against `npm start` spawned here): pages/s for each, the
// ratios, and the peak RSS of the service process and of its partition processes.
// Usage: npm run bench:partition [-- --runs N] [-- --no-ocr] [-- --compare-only]
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { partition, shutdownPartitionSandbox } from '../../lambdas/engine/partition/index';
import { partitionDocument } from '../../lambdas/engine/partition/pipeline';
import { sandboxPids } from '../../lambdas/engine/partition/sandbox';
import { shutdownOcr } from '../../lambdas/engine/partition/ocr/tesseract';
import { shutdownPagePool } from '../../lambdas/engine/partition/pdf/pool';
import { PdfDocument } from '../../lambdas/engine/partition/pdf/pdfium';
import { renderPage } from '../../lambdas/engine/partition/pdf/render';
import { rgbaToPng, toGray } from '../../lambdas/engine/partition/image/bitmap';
import { pageTurns, turnRgba } from '../../lambdas/engine/partition/image/orient';
import { startServiceProcess } from '../support/service-process';
import { hugeCsv } from '../support/hostile-docs';

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

const compareOnly = args.includes('--compare-only');
const pdftotext = '/usr/bin/pdftotext';

/** The processes below a process (from /proc). */
const descendants = (pid: number): number[] => {
  const kids = (p: number): number[] => {
    try {
      return readdirSync(`/proc/${p}/task`).flatMap((t) => readFileSync(`/proc/${p}/task/${t}/children`, 'latin1').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      return [];
    }
  };
  const out: number[] = [];
  const stack = kids(pid);
  while (stack.length) {
    const k = stack.pop()!;
    out.push(k);
    stack.push(...kids(k));
  }
  return out;
};
/** Resident memory of a process and of every process below it, bytes. */
const treeRss = (pid: number): { self: number; children: number } => ({ self: childRss(pid), children: descendants(pid).reduce((a, k) => a + childRss(k), 0) });
/** CPU seconds a process has used (all its threads), and, with `waited`, its waited-for children's. */
const cpuSecs = (pid: number | 'self', waited = false): number => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ');
    // -- after the command: state is field 3; utime, stime, cutime, cstime are fields 14-17 --
    const ticks = waited ? Number(f[13]) + Number(f[14]) : Number(f[11]) + Number(f[12]);
    return ticks / 100;
  } catch {
    return 0;
  }
};

{
  // -- the reference and the two service paths on one document, in one run: their ratios hold on a shared machine --
  const file = 'DA-619p.pdf';
  const pages = 619;
  const path = resolve(corpus, file);
  const data = readFileSync(path);
  const rate = (secs: number) => `${(pages / secs).toFixed(0).padStart(5)} pages/s  median ${secs.toFixed(2)} s`;
  console.log(`${file}, ${pages} pages, fast, median of ${runs} warm runs each; ${availableParallelism()} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const service = await startServiceProcess({ authMode: 'none' });
  let peak = { self: 0, children: 0, sum: 0 };
  const sample = setInterval(() => {
    const r = treeRss(service.pid);
    peak = { self: Math.max(peak.self, r.self), children: Math.max(peak.children, r.children), sum: Math.max(peak.sum, r.self + r.children) };
  }, 20);
  let bytes = 0;
  // -- the three interleaved, round by round (one warm-up round first): on a shared machine a load
  // -- swing then hits each of them alike, and their ratios stay meaningful --
  // -- each with the CPU seconds used so far by the processes doing its work (CPU per run holds
  // -- better than wall time when other engineers load the machine) --
  const ways: [string, () => Promise<unknown> | unknown, () => number][] = [];
  if (existsSync(pdftotext)) ways.push(['pdftotext (poppler)', () => execFileSync(pdftotext, [path, '/dev/null']), () => cpuSecs('self', true)]);
  else console.log(`  pdftotext: not installed at ${pdftotext} (poppler-utils); no reference figure`);
  ways.push([
    'engine through the sandbox',
    () => partition({ data: new Uint8Array(data), filename: file }, { strategy: 'fast' }),
    () => cpuSecs('self') + sandboxPids().reduce((a, p) => a + cpuSecs(p), 0),
  ]);
  ways.push([
    'HTTP POST /general/v0/general',
    async () => {
      const form = new FormData();
      form.append('files', new Blob([data], { type: 'application/pdf' }), file);
      form.append('strategy', 'fast');
      const res = await fetch(`${service.url}/general/v0/general`, { method: 'POST', body: form });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${Buffer.from(body).toString('utf8').slice(0, 300)}`);
      bytes = body.byteLength;
    },
    () => cpuSecs(service.pid) + descendants(service.pid).reduce((a, p) => a + cpuSecs(p), 0),
  ]);
  const times = new Map<string, number[]>(ways.map(([name]) => [name, []]));
  const cpu = new Map<string, number[]>(ways.map(([name]) => [name, []]));
  try {
    for (let round = 0; round <= runs; round++) {
      for (const [name, fn, used] of ways) {
        const c0 = used();
        const t0 = performance.now();
        await fn();
        if (round > 0) {
          times.get(name)!.push((performance.now() - t0) / 1000);
          cpu.get(name)!.push(used() - c0);
        }
      }
    }
    const secs = (name: string) => (times.get(name)?.length ? median(times.get(name)!) : undefined);
    for (const [name] of ways) console.log(`  ${name.padEnd(32)} ${rate(secs(name)!)}  CPU ${median(cpu.get(name)!).toFixed(2)} s a run`);
    console.log(`  (HTTP answer: ${(bytes / 1e6).toFixed(1)} MB of JSON)`);
    const ref = secs('pdftotext (poppler)');
    const engine = secs('engine through the sandbox');
    const http = secs('HTTP POST /general/v0/general')!;
    if (ref) console.log(`  HTTP / pdftotext: ${(ref / http).toFixed(2)}×${engine ? `   engine / pdftotext: ${(ref / engine).toFixed(2)}×` : ''}`);
    if (engine) console.log(`  HTTP / engine: ${(engine / http).toFixed(2)}×`);
    console.log(`  peak RSS: service ${mib(peak.self)}, its partition processes ${mib(peak.children)}, together ${mib(peak.sum)}; this process's partition processes ${mib(peakChild)}`);
  } finally {
    clearInterval(sample);
    await service.stop();
  }
  {
    // -- the sections below start their own (a ref'd timer: the children's exits alone keep nothing alive) --
    const keep = setInterval(() => undefined, 1000);
    await shutdownPartitionSandbox();
    clearInterval(keep);
  }
  console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  if (compareOnly) process.exit(0);
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

{
  // A 49 MB CSV (725,000 rows of six cells): one Table, its text and text_as_html built in the sandbox.
  const data = new Uint8Array(hugeCsv());
  const times: number[] = [];
  let chars = 0;
  for (let i = 0; i < Math.max(1, runs); i++) {
    const t0 = performance.now();
    const r = await partition({ data, filename: 'big.csv', contentType: 'text/csv' }, { strategy: 'fast' });
    times.push((performance.now() - t0) / 1000);
    chars = r.elements.reduce((n, e) => n + e.text.length + String(e.metadata.text_as_html ?? '').length, 0);
  }
  console.log(`CSV 49 MB (725,000 rows, one Table)      ${(data.byteLength / 1e6 / median(times)).toFixed(1).padStart(6)} MB/s     median ${median(times).toFixed(2)} s  ${(chars / 1e6).toFixed(0)} M characters of text and HTML`);
}

if (withOcr) {
  // One scanned page (no text layer): render + OCR.
  peakRss = process.memoryUsage().rss;
  peakChild = 0;
  const warm = await timeOne('loremipsum-flat.pdf', 'ocr_only');
  const r = await timeOne('loremipsum-flat.pdf', 'ocr_only');
  console.log(`OCR loremipsum-flat.pdf (1 page, 200 dpi)            ${r.secs.toFixed(2)} s/page (cold ${warm.secs.toFixed(2)} s)  ${r.elements} elements  peak RSS ${mib(peakRss)} (sandbox ${mib(peakChild)})`);
  // The same page scanned upside down (a PNG): finding its orientation, then reading it turned upright.
  const doc = await PdfDocument.open(new Uint8Array(readFileSync(resolve(corpus, 'loremipsum-flat.pdf'))));
  const page = renderPage(doc, 0)!;
  doc.close();
  const turned = turnRgba(page.rgba, page.width, page.height, 2);
  const t0 = performance.now();
  const turns = pageTurns(toGray(turned.rgba, turned.width, turned.height), turned.width, turned.height);
  const find = performance.now() - t0;
  const png = rgbaToPng(turned.rgba, turned.width, turned.height, (b) => deflateSync(b, { level: 1 }));
  const t1 = performance.now();
  const up = await partition({ data: png, filename: 'upside-down.png' }, { strategy: 'ocr_only' });
  console.log(`OCR the same page upside down (PNG)                 ${((performance.now() - t1) / 1000).toFixed(2)} s/page  ${up.elements.length} elements  orientation found in ${find.toFixed(0)} ms (turns ${turns})`);
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
