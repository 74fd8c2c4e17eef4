// npm run bench:scale — the job engine at scale on the local stack (in this process; issue 12):
// 1. a workflow job over a local source of N tiny text files (default 10,000): the Distributed Map over
//    the manifest, one child per file;
// 2. an on-demand job over one generated 600-page text PDF, strategy hi_res: page fan-out into ranges
//    of PAGE_RANGE_PAGES (40) merged into one output;
// 3. the same over a scanned multi-page TIFF (default 80 pages of corpus images, OCR'd): TIFF ranges
//    decode and OCR only their own pages (--tiff-pages 0 skips it).
// Prints wall time, files/s (pages/s), peak RSS (this process, and with the partition sandbox's
// processes), and the Step Functions history events the stand-in logged: per Distributed Map item
// (what a child execution's history holds on AWS) and outside the items (the parent's), showing the
// history is bounded per child, not per job. Figures, not a test.
// Usage: npm run bench:scale [-- --files 10000 --pages 600 --tiff-pages 80]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startLocalStack } from '../../local/stack';
import { executionHistory } from '../../local/emulators/stepfunctions';
import { sandboxPids } from '../../lambdas/engine/partition/sandbox';
import { corpusPage, multiPageTiff } from '../support/tiff';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return Number(i > 0 ? process.argv[i + 1] : dflt);
};
const FILES = arg('--files', 10_000);
const PAGES = arg('--pages', 600);
const TIFF_PAGES = arg('--tiff-pages', 80);
const base = mkdtempSync(join(tmpdir(), 'wps-bench-scale-'));

/** Resident memory of this process plus the sandbox's processes, sampled (MB). */
function rssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return kb / 1024;
}
let peakTotal = 0;
const sampler = setInterval(() => (peakTotal = Math.max(peakTotal, rssMb([process.pid, ...sandboxPids()]))), 250);
sampler.unref();
const peakOwnMb = () => process.resourceUsage().maxRSS / 1024;

async function textPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Chapter ${p}`, { x: 72, y: 720, size: 18, font });
    for (let l = 0; l < 30; l++) {
      page.drawText(`Line ${l + 1} of page ${p}: a sentence of plain text that makes a narrative paragraph here.`, { x: 72, y: 690 - l * 20, size: 10, font });
    }
  }
  return doc.save();
}

function historyLine(executionArn: string): string {
  const h = executionHistory(executionArn);
  if (!h) return 'history: not recorded';
  const per = [...h.perItem.values()];
  const max = per.length ? Math.max(...per) : 0;
  const mean = per.length ? per.reduce((a, b) => a + b, 0) / per.length : 0;
  return `history events: ${h.total} in all; per file (child) max ${max}, mean ${mean.toFixed(1)} over ${per.length} files` +
    `${h.nestedIterations ? ` + ${h.nestedIterations} page-range iterations` : ''}; outside the files (parent) ${h.parent}`;
}

async function main() {
  process.env.LOG_LEVEL ??= 'warn';
  const inDir = join(base, 'in');
  for (let i = 0; i < FILES; i++) {
    const dir = join(inDir, `d${String(i % 100).padStart(2, '0')}`);
    if (i < 100) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `doc-${i}.txt`), `Document ${i}\n\nA tiny file number ${i}.\n`);
  }
  const stack = await startLocalStack({ dataDir: join(base, 'data'), port: 0 });
  const smArn = stack.env.JOB_STATE_MACHINE_ARN!;
  const executionArn = (jobId: string) => `${smArn.replace(':stateMachine:', ':execution:')}:${jobId}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(stack.url + path, {
      method,
      headers: body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const waitForEnd = async (jobId: string) => {
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      const j = await call('GET', `/api/v1/jobs/${jobId}`);
      if (['COMPLETED', 'FAILED', 'STOPPED'].includes(j.status)) return j;
    }
  };
  /** Why a job did not complete: its message and its first failed files with their reasons. */
  const whyNotCompleted = async (jobId: string) => {
    const details = await call('GET', `/api/v1/jobs/${jobId}/details`);
    const failed = (await call('GET', `/api/v1/jobs/${jobId}/failed-files`)).failed_files as { document: string; error: string }[];
    const listed = failed.slice(0, 5).map((f) => `${f.document}: ${f.error}`).join('; ');
    return `message: ${details.message ?? '(none)'}; failed files (${failed.length}): ${listed || '(none)'}`;
  };
  try {
    console.log(`bench:scale (local stack, ${FILES.toLocaleString('en-US')} tiny files; one ${PAGES}-page text PDF; one ${TIFF_PAGES}-page scanned TIFF)`);
    const source = await call('POST', '/api/v1/sources/', { name: 'scale-in', type: 'local', config: { remote_url: inDir } });
    const dest = await call('POST', '/api/v1/destinations/', { name: 'scale-out', type: 'local', config: { remote_url: join(base, 'out') } });
    const wf = await call('POST', '/api/v1/workflows/', {
      name: 'bench-scale', workflow_type: 'custom', source_id: source.id, destination_id: dest.id,
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    });
    const t0 = performance.now();
    const job = await call('POST', `/api/v1/workflows/${wf.id}/run`);
    const done = await waitForEnd(job.id);
    const seconds = (performance.now() - t0) / 1000;
    const details = await call('GET', `/api/v1/jobs/${job.id}/details`);
    const n = details.node_stats[0];
    console.log(`1. ${FILES} files: ${done.status} in ${seconds.toFixed(1)} s, ${(n.success / seconds).toFixed(1)} files/s (${n.success} done, ${n.failure} failed)`);
    if (done.status !== 'COMPLETED' || n.failure) console.log(`   ${await whyNotCompleted(job.id)}`);
    console.log(`   ${historyLine(executionArn(job.id))}`);
    console.log(`   peak RSS: this process ${peakOwnMb().toFixed(0)} MB; with the partition processes ${peakTotal.toFixed(0)} MB`);

    const paged = async (n: number, label: string, file: { name: string; data: Uint8Array; type: string }) => {
      const form = new FormData();
      form.append('request_data', JSON.stringify({ job_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'hi_res' } }] }));
      form.append('input_files', new Blob([file.data], { type: file.type }), file.name);
      peakTotal = 0;
      const t = performance.now();
      const big = await call('POST', '/api/v1/jobs/', form);
      const bigDone = await waitForEnd(big.id);
      const s = (performance.now() - t) / 1000;
      if (bigDone.status !== 'COMPLETED') {
        console.log(`${label}: ${bigDone.status} after ${s.toFixed(1)} s; ${await whyNotCompleted(big.id)}`);
        return false;
      }
      const out = await call('GET', `/api/v1/jobs/${big.id}/download?file_id=${big.input_file_ids[0]}`);
      const pages = new Set((out as { metadata: { page_number?: number } }[]).map((e) => e.metadata.page_number)).size;
      const ranges = Math.ceil(n / Number(process.env.PAGE_RANGE_PAGES || 40));
      // pages/s over the pages read (a one-pass TIFF reads 50 at most)
      console.log(`${label} (hi_res, ${ranges > 1 ? `${ranges} ranges` : 'one pass'}): ${bigDone.status} in ${s.toFixed(1)} s, ${(pages / s).toFixed(1)} pages/s, ${out.length} elements over ${pages} pages`);
      console.log(`   ${historyLine(executionArn(big.id))}`);
      console.log(`   peak RSS: this process ${peakOwnMb().toFixed(0)} MB (since start); with the partition processes ${peakTotal.toFixed(0)} MB`);
      return true;
    };
    if (!(await paged(PAGES, `2. ${PAGES}-page PDF`, { name: `text-${PAGES}p.pdf`, data: await textPdf(PAGES), type: 'application/pdf' }))) return;
    if (TIFF_PAGES > 0) {
      const corpus = join(import.meta.dirname, '../../../shared/corpus/docs');
      const images = ['table-multi-row-column-cells.png', 'layout-parser-paper-fast.jpg', 'example.jpg'].map((n) => corpusPage(corpus, n));
      const tiff = multiPageTiff(Array.from({ length: TIFF_PAGES }, (_, i) => images[i % images.length]!));
      await paged(TIFF_PAGES, `3. ${TIFF_PAGES}-page scanned TIFF (${(tiff.length / 1e6).toFixed(0)} MB)`, { name: `scan-${TIFF_PAGES}p.tiff`, data: tiff, type: 'image/tiff' });
    }
  } finally {
    clearInterval(sampler);
    await stack.stop();
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
