// npm run bench:embed — chunks per second for the local embedding providers: the built-in hashed
// embedder (384 and 1536 dimensions) and the transformers.js provider on a tiny generated model
// (measures the pipeline: tokenizer, ONNX Runtime, pooling), plus a real model directory when
// LOCAL_EMBEDDING_MODEL_DIR points at one. Chunks: by_title chunks of a large corpus document.
// Usage: node --import tsx test/bench/embed.ts [--chunks N]
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chunkElements } from '../../lambdas/engine/chunking/index';
import type { Element } from '../../lambdas/engine/elements';
import { createEmbedder, createHashedEmbedder, embedElements, parseEmbedNode, type Embedder } from '../../lambdas/engine/embedding/index';
import { writeTinyModel } from '../integration/embedding/tiny-model';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const corpus = path.resolve(repoRoot, '../shared/corpus');
const nArg = process.argv.indexOf('--chunks');
const LIMIT = nArg > 0 ? Number(process.argv[nArg + 1]) : 2000;

async function sourceElements(): Promise<Element[]> {
  const doc = path.join(corpus, 'docs', 'handbook-872p.docx');
  try {
    const { partition } = await import('../../lambdas/engine/partition/index');
    return (await partition({ data: readFileSync(doc), filename: 'handbook-872p.docx' }, { strategy: 'fast' })).elements;
  } catch (err) {
    console.log(`  (partition unavailable: ${(err as Error).message.slice(0, 80)}; using the library's expected outputs)`);
    const dir = path.join(corpus, 'expected', 'oss-0.14.8-dev4');
    const files = existsSync(dir) ? ['winter-sports.epub.json', 'example-10k-1p.html.json'] : [];
    return files.flatMap((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Element[]);
  }
}

async function measure(label: string, embedder: Embedder, chunks: Element[]): Promise<void> {
  const copies = chunks.map((c) => ({ ...c }));
  await embedder.embedTexts(copies.slice(0, 8).map((c) => c.text)); // warm-up (model load)
  const t = performance.now();
  const c0 = process.cpuUsage();
  await embedElements(copies, embedder);
  const cpu = process.cpuUsage(c0);
  const secs = (performance.now() - t) / 1000;
  const rate = copies.length / secs;
  const cpuRate = copies.length / ((cpu.user + cpu.system) / 1e6);
  console.log(`  ${label.padEnd(52)} ${String(copies.length).padStart(5)} chunks  ${Math.round(rate).toLocaleString('en-US').padStart(9)} chunks/s wall ${Math.round(cpuRate).toLocaleString('en-US').padStart(9)} chunks/s cpu  dim ${embedder.dimensions}`);
}

async function main(): Promise<void> {
  console.log(`bench:embed — Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`);
  const elements = await sourceElements();
  const chunks = chunkElements(elements, { strategy: 'by_title', max_characters: 1000, include_orig_elements: false }).slice(0, LIMIT);
  const avg = chunks.reduce((s, c) => s + c.text.length, 0) / Math.max(1, chunks.length);
  console.log(`  ${chunks.length} by_title chunks, ${Math.round(avg)} characters on average\n`);
  await measure('builtin hashed char n-grams, 384 dims', createHashedEmbedder(384), chunks);
  await measure('builtin hashed char n-grams, 1536 dims', createHashedEmbedder(1536), chunks);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-embed-'));
  try {
    const tiny = writeTinyModel(tmp, 'tiny-bert', 384);
    const emb = await createEmbedder(parseEmbedNode('local', { model_name: 'tiny-bert' }), { LOCAL_EMBEDDING_MODELS_DIR: path.dirname(tiny.dir) });
    await measure('transformers.js + onnxruntime-node, tiny generated model', emb, chunks);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const real = process.env.LOCAL_EMBEDDING_MODEL_DIR;
  if (real) {
    const emb = await createEmbedder(parseEmbedNode('local', { model_name: path.basename(real) }), { LOCAL_EMBEDDING_MODELS_DIR: path.dirname(real) });
    await measure(`transformers.js, ${path.basename(real)}`, emb, chunks.slice(0, 500));
  } else {
    console.log('  (set LOCAL_EMBEDDING_MODEL_DIR to a transformers.js model directory to measure a real model)');
  }
}

await main();
