// Real bundles, as `cdk synth` makes them (local esbuild, no Docker, no network): every function's
// asset loads as ESM on Node and exports its handler, the AWS SDK is inside the bundle, modules
// resolved at run time are copied beside the bundles that import them, and two bundles answer a
// request: the health check, a partition of a small PDF (pdfium's WebAssembly found at run time) and
// of an image (tesseract's worker, WebAssembly core and traineddata found at run time). Partitions
// run in the bundled sandbox worker (partition-worker.mjs): a document over its memory budget is a
// 413 and the next document is served by a fresh worker.
// Takes minutes: it synthesizes and esbuilds every function before the first assertion (≈7 min on two
// busy cores, as test/run.mjs allows for); INFRA_SKIP_BUNDLE=1 skips it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OCR_WORKER_FILE, PARTITION_WORKER, PDF_PAGE_WORKER, RUNTIME_RESOLVED_MODULES } from '../../lib/base-function';
import { Worker } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';
import { synthStack } from './synth';
import { hostileDocument } from '../support/hostile-docs';
import { writePdf } from '../support/pdf-writer';

const skip = process.env.INFRA_SKIP_BUNDLE === '1' ? 'INFRA_SKIP_BUNDLE=1' : false;

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string; headers?: Record<string, string> }>;
interface Bundled {
  id: string;
  handler: string;
  dir: string;
}

let outdir = '';
let functions: Bundled[] = [];

/** The sandbox heap for this file's bundled partitions: small enough that the bomb below exceeds it quickly. */
const HEAP_MB = 192;

before(() => {
  if (skip) return;
  process.env.PARTITION_MAX_HEAP_MB = String(HEAP_MB);
  outdir = mkdtempSync(join(tmpdir(), 'wps-cdk-'));
  process.env.AUTH_MODE = 'none';
  process.env.SECRETS_KEY_FILE = join(outdir, 'secrets.key');
  // the merged view: the functions of the root and of every nested stack
  const template = synthStack({ authMode: 'none' }, { bundle: true, outdir }).template.toJSON() as { Resources: Record<string, any> };
  functions = Object.entries(template.Resources)
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.NODE_OPTIONS)
    .map(([id, r]) => ({
      id,
      handler: String(r.Properties.Handler).replace(/^index\./, ''),
      dir: join(outdir, `asset.${String(r.Properties.Code.S3Key).replace(/\.zip$/, '')}`),
    }));
});

after(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

const ctx = { awsRequestId: 'bundle-test', functionName: 'bundle-test', getRemainingTimeInMillis: () => 30_000 };
const load = async (f: Bundled) => (await import(pathToFileURL(join(f.dir, 'index.mjs')).href)) as Record<string, unknown>;
const byHandler = (name: string) => {
  const f = functions.find((x) => x.handler === name);
  assert.ok(f, `a function with handler ${name}`);
  return f;
};

/** The handler bundle and the sandbox worker bundle beside it, as one text. */
const bundleCode = (f: Bundled) =>
  ['index.mjs', PARTITION_WORKER.output].map((n) => (existsSync(join(f.dir, n)) ? readFileSync(join(f.dir, n), 'utf8') : '')).join('\n');

test('bundles that partition ship the sandbox worker, which holds the engine', { skip }, () => {
  const withSandbox = functions.filter((f) => readFileSync(join(f.dir, 'index.mjs'), 'utf8').includes(PARTITION_WORKER.marker));
  // the sync endpoint, the job file step, and the page fan-out pair (one handler file: a range
  // partitions; the merge post-processes with the same engine modules)
  assert.deepEqual(withSandbox.map((f) => f.handler).sort(), ['mcp', 'mergePages', 'partition', 'partitionPageRange', 'processFile'], 'the sync endpoint, its MCP tool, the job file step and the page fan-out partition');
  for (const f of functions) {
    assert.equal(existsSync(join(f.dir, PARTITION_WORKER.output)), withSandbox.includes(f), `${f.id}: sandbox worker shipped iff the sandbox is bundled`);
  }
  for (const f of withSandbox) {
    // the format readers are in the worker bundle, not loaded by the handler itself
    assert.doesNotMatch(readFileSync(join(f.dir, 'index.mjs'), 'utf8'), /"@embedpdf\/pdfium"/, `${f.id}: pdfium not imported by the handler bundle`);
    assert.match(readFileSync(join(f.dir, PARTITION_WORKER.output), 'utf8'), /"@embedpdf\/pdfium"/, `${f.id}: pdfium imported by the worker bundle`);
  }
});

test('bundles that run the PDF page pool ship its worker, and the worker starts', { skip }, async () => {
  const withPool = functions.filter((f) => bundleCode(f).includes(PDF_PAGE_WORKER.marker));
  assert.ok(withPool.some((f) => f.handler === 'partition'), 'the partition function runs the pool');
  for (const f of functions) {
    assert.equal(existsSync(join(f.dir, PDF_PAGE_WORKER.output)), withPool.includes(f), `${f.id}: worker shipped iff the pool is bundled`);
  }
  const w = new Worker(join(byHandler('partition').dir, PDF_PAGE_WORKER.output));
  try {
    const ready = await new Promise<boolean>((resolve, reject) => {
      w.once('message', (m: { ready?: boolean }) => resolve(Boolean(m?.ready)));
      w.once('error', reject);
      setTimeout(() => reject(new Error('worker did not report ready in 30 s')), 30_000).unref();
    });
    assert.equal(ready, true);
  } finally {
    await w.terminate();
  }
});

test('every function bundle loads as ESM and exports its handler', { skip }, async () => {
  assert.ok(functions.length > 0, 'no functions in the synthesized template');
  for (const f of functions) {
    assert.ok(existsSync(join(f.dir, 'index.mjs')), `${f.id}: ${f.dir}/index.mjs`);
    assert.ok(existsSync(join(f.dir, 'index.mjs.map')), `${f.id}: source map`);
    const mod = await load(f);
    assert.equal(typeof mod[f.handler], 'function', `${f.id} exports ${f.handler}`);
  }
});

test('bundles carry the pinned AWS SDK and copy run-time resolved modules only where imported', { skip }, () => {
  for (const f of functions) {
    const code = bundleCode(f);
    assert.doesNotMatch(code, /from\s*["']@aws-sdk\//, `${f.id} imports the runtime's SDK`);
    for (const m of RUNTIME_RESOLVED_MODULES) {
      const imported = code.includes(`"${m.when}`) || code.includes(`'${m.when}`);
      assert.equal(existsSync(join(f.dir, 'node_modules', m.module, 'package.json')), imported, `${f.id}: ${m.module} copied iff ${m.when} imported`);
    }
  }
  const partition = byHandler('partition');
  assert.ok(existsSync(join(partition.dir, 'node_modules', '@embedpdf', 'pdfium', 'dist', 'pdfium.wasm')), 'pdfium.wasm shipped');
  const core = join(partition.dir, 'node_modules', 'tesseract.js-core');
  assert.ok(readdirSync(core).some((f) => f.endsWith('.wasm')), 'tesseract core WebAssembly shipped');
  assert.ok(!readdirSync(core).some((f) => f.endsWith('.wasm.js')), 'browser-only cores pruned');
  assert.ok(!existsSync(join(partition.dir, 'node_modules', '@tesseract.js-data', 'eng', '4.0.0')), 'unused models pruned');
  for (const f of functions) {
    const ocr = bundleCode(f).includes('"tesseract.js"');
    assert.equal(existsSync(join(f.dir, OCR_WORKER_FILE.output)), ocr, `${f.id}: the OCR worker script shipped iff tesseract.js is imported`);
  }
});

test('the health check bundle answers', { skip }, async () => {
  const fn = (await load(byHandler('healthcheck'))).healthcheck as Handler;
  const res = await fn({ httpMethod: 'GET', path: '/healthcheck', headers: {}, body: null, isBase64Encoded: false }, ctx);
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /EVERYTHING OK/);
});

test('the MCP bundle answers initialize and tools/list in JSON mode (the SDK bundled)', { skip }, async () => {
  const fn = (await load(byHandler('mcp'))).mcp as Handler;
  const rpc = (body: unknown) =>
    fn({
      httpMethod: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify(body), isBase64Encoded: false,
    }, ctx);
  const init = await rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bundle', version: '1' } } });
  assert.equal(init.statusCode, 200, init.body.slice(0, 300));
  assert.equal(JSON.parse(init.body).result.serverInfo.name, 'workflow-processing-service');
  const list = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  assert.equal(list.statusCode, 200, list.body.slice(0, 300));
  assert.match(String(list.headers?.['content-type']), /application\/json/);
  assert.ok(JSON.parse(list.body).result.tools.some((t: { name: string }) => t.name === 'partition_document'));
  const broken = await fn({ httpMethod: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":', isBase64Encoded: false }, ctx);
  assert.equal(broken.statusCode, 400);
  assert.equal(JSON.parse(broken.body).error.code, -32700);
});

test('the /docs bundle carries the Swagger UI files and serves them', { skip }, async () => {
  const f = byHandler('docs');
  for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css', 'package.json']) assert.ok(existsSync(join(f.dir, 'swagger-ui', name)), `${f.id}: swagger-ui/${name}`);
  const fn = (await load(f)).docs as Handler;
  const res = await fn({ httpMethod: 'GET', path: '/docs', headers: {}, queryStringParameters: { asset: 'swagger-ui.css' }, body: null, isBase64Encoded: false }, ctx);
  assert.equal(res.statusCode, 200, res.body.slice(0, 200));
  assert.match(res.body, /swagger-ui/);
});

test('the /console bundle carries the built console and serves the page and its fingerprinted files', { skip }, async () => {
  const f = byHandler('console');
  const manifest = JSON.parse(readFileSync(join(f.dir, 'console', 'manifest.json'), 'utf8')) as { js: string; css: string };
  const fn = (await load(f)).console as Handler;
  const page = await fn({ httpMethod: 'GET', path: '/console', headers: {}, queryStringParameters: null, body: null, isBase64Encoded: false }, ctx);
  assert.equal(page.statusCode, 200, page.body.slice(0, 200));
  assert.ok(page.body.includes(`console?asset=${manifest.js}`));
  assert.match(String(page.headers?.['content-security-policy']), /script-src 'self'/);
  const js = await fn({ httpMethod: 'GET', path: '/console', headers: {}, queryStringParameters: { asset: manifest.js }, body: null, isBase64Encoded: false }, ctx);
  assert.equal(js.statusCode, 200);
  assert.match(String(js.headers?.['cache-control']), /immutable/);
});

test('the partition bundle partitions a base64 multipart PDF upload', { skip }, async () => {
  const fn = (await load(byHandler('partition'))).partition as Handler;
  const boundary = 'bundle-test-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="hello.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    tinyPdf('Hello from the bundle'),
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="strategy"\r\n\r\nfast\r\n--${boundary}--\r\n`),
  ]);
  const res = await fn(
    {
      httpMethod: 'POST',
      path: '/general/v0/general',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: body.toString('base64'),
      isBase64Encoded: true,
    },
    ctx,
  );
  assert.equal(res.statusCode, 200, res.body);
  const elements = JSON.parse(res.body) as { text: string; metadata: { filename: string } }[];
  assert.ok(elements.some((e) => e.text === 'Hello from the bundle' && e.metadata.filename === 'hello.pdf'), res.body);
});

test('the partition bundle chunks with orig_elements deflated on its worker threads', { skip }, async () => {
  const fn = (await load(byHandler('partition'))).partition as Handler;
  const boundary = 'bundle-test-boundary';
  const text = Array.from({ length: 120 }, (_, i) => `Paragraph ${i} of the bundled chunking check, long enough to be its own chunk.`).join('\n\n');
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n` +
      field('chunking_strategy', 'by_title') + field('max_characters', '100') + `--${boundary}--\r\n`,
  );
  // -- the deflate workers are threads of this process: their start shows as a higher thread count --
  const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
  const before = existsSync('/proc/self/status') ? threads() : undefined;
  // -- as on a Lambda with two vCPUs, whatever this machine has --
  process.env.CHUNK_DEFLATE_WORKERS ??= '2';
  const res = await fn(
    { httpMethod: 'POST', path: '/general/v0/general', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body: body.toString('base64'), isBase64Encoded: true },
    ctx,
  );
  assert.equal(res.statusCode, 200, res.body);
  if (before !== undefined) assert.ok(threads() > before, `deflate workers started (threads ${before} → ${threads()})`);
  const chunks = JSON.parse(res.body) as { text: string; metadata: { orig_elements?: string } }[];
  assert.ok(chunks.length >= 100, `${chunks.length} chunks`);
  for (const c of chunks) {
    const orig = JSON.parse(inflateSync(Buffer.from(c.metadata.orig_elements ?? '', 'base64')).toString('utf8')) as { text: string }[];
    assert.equal(orig.map((e) => e.text).join('\n\n'), c.text);
  }
});

test('the partition bundle runs OCR on an uploaded image (tesseract worker, core and traineddata shipped)', { skip }, async () => {
  // A scanned page from the corpus (rendering our own text image would depend on the fonts a
  // machine happens to have).
  const image = readFileSync(join(process.cwd(), '..', 'shared', 'corpus', 'docs', 'layout-parser-paper-fast.jpg'));
  const fn = (await load(byHandler('partition'))).partition as Handler;
  const boundary = 'bundle-test-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="page.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await fn(
    { httpMethod: 'POST', path: '/general/v0/general', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body: body.toString('base64'), isBase64Encoded: true },
    ctx,
  );
  assert.equal(res.statusCode, 200, res.body);
  const texts = (JSON.parse(res.body) as { text: string }[]).map((e) => e.text).join(' ');
  assert.match(texts, /LayoutParser/, res.body.slice(0, 500));
  assert.match(texts, /Deep Learning/, res.body.slice(0, 500));
});

test('the partition bundle runs documents in its sandbox process: over the memory budget is a 413, the next document is served', { skip }, async () => {
  const fn = (await load(byHandler('partition'))).partition as Handler;
  const boundary = 'bundle-test-boundary';
  const upload = (filename: string, type: string, data: Buffer) =>
    fn(
      {
        httpMethod: 'POST',
        path: '/general/v0/general',
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
          data,
          Buffer.from(`\r\n--${boundary}\r\n`.slice(0, -2) + `--\r\n`),
        ]).toString('base64'),
        isBase64Encoded: true,
      },
      // the handler's own early timeout must not answer first: a heap filling up spends time in GC
      { ...ctx, getRemainingTimeInMillis: () => 600_000 },
    );
  // 20 MB of CSV: two million cells, several times HEAP_MB of heap (and under every cap)
  const row = Array.from({ length: 100 }, (_, i) => `${i},"name ${i}",${i * 3}.5,2024-01-01,some words here\n`).join('');
  const bomb = await upload('heavy.csv', 'text/csv', Buffer.alloc(20 * 1000 * 1000, row));
  assert.equal(bomb.statusCode, 413, bomb.body.slice(0, 300));
  assert.match(bomb.body, new RegExp(`heavy\\.csv exceeded the memory budget of ${HEAP_MB} MB`));
  // a typed error from inside the minified bundle keeps its class (and status) across the process boundary
  const liar = hostileDocument('docx: 1 KB document.xml declaring 4 GB');
  const capped = await upload(liar.filename, liar.contentType, liar.data);
  assert.equal(capped.statusCode, 413, capped.body);
  assert.match(capped.body, /exceeds the limit of 64 MB/);
  const next = await upload('hello.pdf', 'application/pdf', tinyPdf('Served after the bomb'));
  assert.equal(next.statusCode, 200, next.body);
  assert.match(next.body, /Served after the bomb/);
});

/** A one-page PDF with one line of Helvetica text and a correct xref table. */
function tinyPdf(text: string): Buffer {
  const content = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  return Buffer.from(writePdf(objects));
}
