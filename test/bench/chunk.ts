// npm run bench:chunk — chunking throughput (elements per second) for by_title (and basic, by_page
// for reference) over the largest corpus documents. Elements come from our partition engine (fast
// strategy; its time is not counted); a document it cannot read is skipped with a note. The figure
// that matters: by_title with defaults through chunkElementsAsync, the path the partition endpoint and
// the chunk job node run (orig_elements deflated on worker threads), target ≥ 50,000 elements/s.
// The synchronous chunkElements (everything on one thread) is shown for reference.
// Usage: node --import tsx test/bench/chunk.ts [--rounds N]
import { readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chunkElements, chunkElementsAsync, type ChunkingOptions } from '../../lambdas/engine/chunking/index';
import { deflateWorkerCount, shutdownDeflatePool } from '../../lambdas/engine/chunking/deflate-pool';
import type { Element } from '../../lambdas/engine/elements';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const docsDir = path.resolve(repoRoot, '../shared/corpus/docs');
const DOCS = ['DA-619p.pdf', 'pdf2image-memory-error-test-400p.pdf', 'failure-after-repair.pdf', 'handbook-872p.docx', 'example-10k.html'];
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 5;

const CONFIGS: [string, ChunkingOptions, boolean?][] = [
  ['by_title (defaults: max 500, orig_elements on), server path (chunkElementsAsync)', { strategy: 'by_title' }, true],
  ['by_title (defaults), one thread (chunkElements)', { strategy: 'by_title' }],
  ['by_title (max 1500, orig_elements off), server path', { strategy: 'by_title', max_characters: 1500, include_orig_elements: false }, true],
  ['basic (defaults), server path', { strategy: 'basic' }, true],
  ['by_page (defaults), server path', { strategy: 'by_page' }, true],
];

async function loadElements(file: string): Promise<Element[] | string> {
  const p = path.join(docsDir, file);
  if (!existsSync(p)) return 'not in corpus';
  try {
    const { partition } = await import('../../lambdas/engine/partition/index');
    const t = performance.now();
    const res = await partition({ data: readFileSync(p), filename: file }, { strategy: 'fast' });
    console.log(`  partitioned ${file}: ${res.elements.length} elements in ${((performance.now() - t) / 1000).toFixed(1)} s (not counted)`);
    return res.elements;
  } catch (err) {
    return `partition failed: ${(err as Error).message.slice(0, 120)}`;
  }
}

/**
 * Elements per second of wall time, and per second of this process's CPU time (less sensitive to a busy
 * machine; for the async path it includes the zlib thread-pool time, so it is not a wall-clock figure).
 */
async function measure(elements: Element[], options: ChunkingOptions, useAsync = false): Promise<{ perSec: number; perCpuSec: number; chunks: number }> {
  const run = async () => (useAsync ? await chunkElementsAsync(elements, options) : chunkElements(elements, options)).length;
  await run(); // warm-up
  let chunks = 0;
  const t = performance.now();
  const c0 = process.cpuUsage();
  for (let r = 0; r < ROUNDS; r++) chunks = await run();
  const cpu = process.cpuUsage(c0);
  const secs = (performance.now() - t) / 1000;
  const n = elements.length * ROUNDS;
  return { perSec: n / secs, perCpuSec: n / ((cpu.user + cpu.system) / 1e6), chunks };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  console.log(`bench:chunk — Node ${process.version}, ${ROUNDS} rounds per figure, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs, ${deflateWorkerCount()} deflate workers on the server path`);
  console.log('  el/s wall: elements over elapsed time; el/s cpu: over the CPU time of all threads');
  const docs: [string, Element[]][] = [];
  for (const f of DOCS) {
    const els = await loadElements(f);
    if (typeof els === 'string') console.log(`  skipped ${f}: ${els}`);
    else if (els.length) docs.push([f, els]);
  }
  if (!docs.length) {
    console.log('no document could be partitioned; nothing to measure');
    return;
  }
  for (const [label, options, useAsync] of CONFIGS) {
    console.log(`\n${label}`);
    let totalEls = 0;
    let totalSecs = 0;
    let totalCpu = 0;
    for (const [f, els] of docs) {
      const { perSec, perCpuSec, chunks } = await measure(els, options, useAsync);
      totalEls += els.length;
      totalSecs += els.length / perSec;
      totalCpu += els.length / perCpuSec;
      console.log(`  ${f.padEnd(38)} ${String(els.length).padStart(6)} elements → ${String(chunks).padStart(5)} chunks ${fmt(perSec).padStart(9)} el/s wall ${fmt(perCpuSec).padStart(9)} el/s cpu`);
    }
    const wall = totalEls / totalSecs;
    const cpu = totalEls / totalCpu;
    const verdict = label.startsWith('by_title') && useAsync ? `  (target 50,000: ${wall >= 50_000 ? 'met' : 'NOT met'})` : '';
    console.log(`  ${'all'.padEnd(38)} ${String(totalEls).padStart(6)} elements               ${fmt(wall).padStart(9)} el/s wall ${fmt(cpu).padStart(9)} el/s cpu${verdict}`);
  }
}

await main();
await shutdownDeflatePool();
