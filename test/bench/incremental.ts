// npm run bench:incremental — incremental workflow runs on the local stack (in this process): a
// local source of N small text files (default 10,000) → partition (fast) → a local destination.
// Run 1 processes every file: wall time and files/min. Then 10 files change; run 2 must process
// exactly those 10, and its wall time is compared with run 1's (target: under 5%). Figures, not a test.
// Usage: npm run bench:incremental [-- --files 10000 --changed 10]
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../../local/stack';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return Number(i > 0 ? process.argv[i + 1] : dflt);
};
const FILES = arg('--files', 10_000);
const CHANGED = arg('--changed', 10);

const base = mkdtempSync(join(tmpdir(), 'wps-bench-incr-'));
const inDir = join(base, 'in');
const outDir = join(base, 'out');
const body = (i: number, extra = '') =>
  `Document ${i}\n\nA small paragraph of document number ${i}, long enough to be a narrative text element of its own.${extra}\n`;

async function main() {
  process.env.LOG_LEVEL ??= 'warn';
  // 100 folders of FILES/100 files, as a real tree would be
  for (let i = 0; i < FILES; i++) {
    const dir = join(inDir, `d${String(i % 100).padStart(2, '0')}`);
    if (i < 100) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `doc-${i}.txt`), body(i));
  }
  const stack = await startLocalStack({ dataDir: join(base, 'data'), port: 0 });
  const call = async (method: string, path: string, json?: unknown) => {
    const res = await fetch(stack.url + path, {
      method,
      headers: json === undefined ? {} : { 'content-type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  try {
    const source = await call('POST', '/api/v1/sources/', { name: 'bench-in', type: 'local', config: { remote_url: inDir } });
    const dest = await call('POST', '/api/v1/destinations/', { name: 'bench-out', type: 'local', config: { remote_url: outDir } });
    const wf = await call('POST', '/api/v1/workflows/', {
      name: 'bench-incremental',
      workflow_type: 'custom',
      source_id: source.id,
      destination_id: dest.id,
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    });

    const run = async (label: string) => {
      const t0 = performance.now();
      const job = await call('POST', `/api/v1/workflows/${wf.id}/run`);
      let lastPrint = t0;
      for (;;) {
        await new Promise((r) => setTimeout(r, 250));
        const j = await call('GET', `/api/v1/jobs/${job.id}`);
        if (['COMPLETED', 'FAILED', 'STOPPED'].includes(j.status)) break;
        if (performance.now() - lastPrint > 15_000) {
          lastPrint = performance.now();
          const d = await call('GET', `/api/v1/jobs/${job.id}/details`);
          const n = d.node_stats[0];
          console.log(`  ${label}: ${((lastPrint - t0) / 1000).toFixed(0)} s, ${n ? `${n.success} done, ${n.failure} failed, ${n.ready} to do` : 'listing the source'}`);
        }
      }
      const seconds = (performance.now() - t0) / 1000;
      const d = await call('GET', `/api/v1/jobs/${job.id}/details`);
      return { seconds, details: d };
    };

    console.log(`bench:incremental: local source of ${FILES.toLocaleString('en-US')} files → partition (fast) → local destination`);
    const r1 = await run('run 1');
    const done1 = r1.details.source_documents;
    console.log(
      `run 1: ${r1.seconds.toFixed(1)} s, ${done1.processed} processed of ${done1.listed} listed (${r1.details.processing_status}), ${((done1.processed / r1.seconds) * 60).toFixed(0)} files/min`,
    );

    for (let i = 0; i < CHANGED; i++) {
      const n = Math.floor((i * FILES) / CHANGED);
      writeFileSync(join(inDir, `d${String(n % 100).padStart(2, '0')}`, `doc-${n}.txt`), body(n, ' Changed since run 1.'));
    }
    const r2 = await run('run 2');
    const done2 = r2.details.source_documents;
    const pct = (r2.seconds / r1.seconds) * 100;
    console.log(
      `run 2 (${CHANGED} changed): ${r2.seconds.toFixed(1)} s, ${done2.processed} processed, ${done2.unchanged_skipped} skipped as unchanged (${r2.details.processing_status})`,
    );
    const outputs = readdirSync(outDir, { recursive: true }).filter((f) => String(f).endsWith('.json')).length;
    console.log(`destination holds ${outputs} result files`);
    const ok = done2.processed === CHANGED && pct < 5 && done1.processed === FILES && outputs === FILES;
    console.log(`run 2 / run 1 = ${pct.toFixed(2)} % (target < 5 %), exactly ${CHANGED} processed: ${done2.processed === CHANGED ? 'yes' : 'NO'} → ${ok ? 'PASS' : 'FAIL'}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await stack.stop();
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
