// Enrichment through the whole local stack (issue 13): the hi_res_and_enrichment template run as
// a job, its prompter nodes calling a local server that speaks OpenAI's wire format (reached
// through OPENAI_BASE_URL, as the embedding providers are); and a provider answering 429 forever:
// the job completes, the elements keep their text, details and the notification say why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eventually, NEEDS_LOCAL, type TestStack } from '../support/local-stack';
import { jobForm as postForm, jobReaching, launchUntilAccepted, stackForFile } from '../support/e2e-jobs';
import { startModelServer, type ModelServer } from '../../lambdas/engine/enrichment/test-server';
import { onePagePdf } from '../support/pdf-writer';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
const SECRET = 'sk-e2e-enrich-SECRET-7d21';
let stack: TestStack;
let models: ModelServer;
let throttle = false;

const jobForm = (requestData: unknown, file: string, data: Uint8Array = readFileSync(resolve(corpus, file))) => postForm(requestData, [{ name: file, data, type: 'application/pdf' }]);

/** A one-page report with one picture (a bitmap) and one ruled table: what the template describes. */
function pictureAndTable(): Uint8Array {
  const text = (x: number, y: number, t: string) => `BT /F1 10 Tf ${x} ${y} Td (${t}) Tj ET`;
  const ops = [text(72, 720, 'A short report with one picture and one table of test values.'),
    'q 200 0 0 150 72 540 cm BI /W 2 /H 2 /CS /G /BPC 8 /F /AHx ID 80408040> EI Q', '0 0 0 RG 0.5 w'];
  for (const y of [480, 460, 440, 420]) ops.push(`72 ${y} m 372 ${y} l S`);
  for (const x of [72, 172, 272, 372]) ops.push(`${x} 420 m ${x} 480 l S`);
  [['Sample', 'Value', 'Unit'], ['A', '12', 'mg'], ['B', '7', 'mg']].forEach((row, r) => row.forEach((c, k) => ops.push(text(78 + k * 100, 466 - r * 20, c))));
  return onePagePdf(ops.join('\n'), ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>']);
}
const launch = (form: FormData) => launchUntilAccepted(stack, form);
const finished = (id: string) => jobReaching(stack, id, { statuses: ['COMPLETED', 'FAILED'], timeoutMs: 240_000 });

stackForFile((s) => (stack = s), {
  start: async () => {
    models = await startModelServer({ reply: () => (throttle ? { status: 429, headers: { 'retry-after-ms': '20' }, body: { error: { message: 'Rate limit reached for gpt-4o' } } } : undefined) });
  },
  env: () => ({ ALLOW_OFFLINE_STANDINS: undefined, OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: `${models.url}/v1` }),
  stop: () => models?.close(),
});

test('hi_res_and_enrichment runs: image and table descriptions from the provider, then chunks and embeddings', { skip: NEEDS_LOCAL }, async () => {
  const tpl = await stack.call('GET', '/api/v1/templates/hi_res_and_enrichment');
  assert.equal(tpl.status, 200, tpl.text);
  const job = await launch(jobForm({ template_id: 'hi_res_and_enrichment' }, 'picture-and-table.pdf', pictureAndTable()));
  assert.equal(job.status, 200, job.text);
  const done = await finished(job.body.id);
  assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
  const fileId = job.body.input_file_ids[0];
  const [, imageNode, tableNode] = tpl.body.nodes;

  const afterImages = await stack.call('GET', `/api/v1/jobs/${job.body.id}/download?file_id=${fileId}&node_id=${imageNode.id}`);
  assert.equal(afterImages.status, 200, afterImages.text);
  const img = afterImages.body.find((e: { type: string }) => e.type === 'Image');
  assert.equal(JSON.parse(img.text).type, 'diagram');
  assert.ok(img.metadata.image_base64, 'pixels kept');

  const afterTables = await stack.call('GET', `/api/v1/jobs/${job.body.id}/download?file_id=${fileId}&node_id=${tableNode.id}`);
  assert.equal(afterTables.body.find((e: { type: string }) => e.type === 'Table').text, 'A table of test values.');

  const calls = models.calls.filter((c) => c.provider === 'openai');
  assert.equal(calls.length, 2, 'one image and one table in the document');
  for (const c of calls) {
    assert.equal(c.headers.authorization, `Bearer ${SECRET}`);
    assert.ok(c.image && c.image.length > 100, 'the cropped pixels are sent');
  }
  const out = await stack.call('GET', `/api/v1/jobs/${job.body.id}/download?file_id=${fileId}`);
  assert.ok(out.body.some((e: { text: string }) => e.text.includes('A test image of')), 'the description is chunked and embedded');
  assert.ok(out.body.every((e: { embeddings: number[] }) => e.embeddings.length === 384));
  const details = await stack.call('GET', `/api/v1/jobs/${job.body.id}/details`);
  assert.deepEqual(details.body.warnings ?? [], []);
  for (const shown of [out.text, afterImages.text, details.text, tpl.text]) assert.ok(!shown.includes(SECRET), 'a key must never be shown');
});

test('a provider answering 429 forever: the job completes, elements keep their text, details and notification say why', { skip: NEEDS_LOCAL }, async () => {
  throttle = true;
  try {
    const nodes = [
      { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'hi_res', extract_image_block_types: ['Image'] } },
      { name: 'Describer', type: 'prompter', subtype: 'openai_image_description', settings: { max_retries: 1 } },
      { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
    ];
    const wf = await stack.call('POST', '/api/v1/workflows/', { body: { name: 'throttled', workflow_type: 'custom', workflow_nodes: nodes } });
    assert.equal(wf.status, 200, wf.text);
    const form = new FormData();
    form.append('input_files', new Blob([readFileSync(resolve(corpus, 'embedded-images.pdf'))], { type: 'application/pdf' }), 'embedded-images.pdf');
    const run = await launchUntilAccepted(stack, form, `/api/v1/workflows/${wf.body.id}/run`);
    assert.equal(run.status, 202, run.text);
    const done = await finished(run.body.id);
    assert.equal(done.status, 'COMPLETED');
    const node = wf.body.workflow_nodes[1];
    const details = await stack.call('GET', `/api/v1/jobs/${run.body.id}/details`);
    assert.equal(details.body.warnings.length, 1, details.text);
    assert.match(details.body.warnings[0], new RegExp(`^prompter node "Describer" \\(${node.id}\\): 3 of 3 element\\(s\\) of embedded-images\\.pdf kept their original text \\(image_description\\): openai/gpt-4o: Rate limit reached for gpt-4o \\(HTTP 429\\) after 2 attempts`));
    assert.equal(details.body.processing_status, 'COMPLETED_WITH_ERRORS', details.text);
    assert.match(details.body.message, /^Warnings: prompter node "Describer"/, details.text);
    const failed = await stack.call('GET', `/api/v1/jobs/${run.body.id}/failed-files`);
    assert.deepEqual(failed.body.failed_files.map((f: { document: string }) => f.document), ['embedded-images.pdf'], failed.text);
    assert.match(failed.body.failed_files[0].error, /kept their original text .*HTTP 429/);
    const parts = await stack.call('GET', `/api/v1/jobs/${run.body.id}/download?file_id=${run.body.input_file_ids[0]}&node_id=${node.id}`);
    const images = parts.body.filter((e: { type: string }) => e.type === 'Image');
    assert.equal(images.length, 3);
    for (const e of images) assert.match(e.metadata.enrichment_note, /HTTP 429/);
    const note = await eventually(async () => {
      const r = await stack.call('GET', `/api/v1/notifications?workflow_id=${wf.body.id}&event_types=job.completed`);
      return r.body.events?.[0];
    }, 'the job.completed notification');
    assert.deepEqual(note.payload.warnings, details.body.warnings);
    for (const shown of [details.text, parts.text, JSON.stringify(note)]) assert.ok(!shown.includes(SECRET), 'a key must never be shown');
  } finally {
    throttle = false;
  }
});
