// No silent stand-ins (issue 13, point 4): a hosted embedding model or a VLM named without usable
// credentials is a 422 at create; a deployment that allows offline stand-ins (ALLOW_OFFLINE_STANDINS)
// runs them and says so in every affected element, the job details and the job's notification.
// One stack: the setting is read per request, so the test turns it on half-way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eventually, NEEDS_LOCAL, type TestStack } from '../support/local-stack';
import { jobForm as postForm, jobReaching, launchUntilAccepted, stackForFile } from '../support/e2e-jobs';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
const CREDENTIAL_VARS = ['OPENAI_API_KEY', 'AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_ENDPOINT', 'ANTHROPIC_API_KEY', 'BEDROCK_ENDPOINT', 'BEDROCK_ENDPOINT_URL', 'BEDROCK_USE_DEFAULT_CREDENTIALS', 'ALLOW_OFFLINE_STANDINS', 'EMBEDDING_FALLBACK'];
/** A key-shaped value that must never come back in any output. */
const FAKE_KEY = 'sk-fake-standin-0123456789abcdefSECRET';
let stack: TestStack;

const chain = (embed: Record<string, unknown>, partition: Record<string, unknown> = { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }) => [
  partition,
  { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 400, new_after_n_chars: 300, overlap: 0 } },
  { name: 'Embedder', type: 'embed', ...embed },
];
const openaiNoKey = { subtype: 'openai', settings: { model_name: 'text-embedding-3-small' } };

const jobForm = (requestData: unknown, file: { name: string; data: Uint8Array; type: string }) => postForm(requestData, [file]);
const launch = (path: string, form: FormData) => launchUntilAccepted(stack, form, path);
const finished = (id: string) => jobReaching(stack, id, { statuses: ['COMPLETED', 'FAILED'] });

stackForFile((s) => (stack = s), { env: () => Object.fromEntries(CREDENTIAL_VARS.map((k) => [k, undefined])) });

test('a hosted embed or VLM node without credentials is a 422 at create, naming the missing field', { skip: NEEDS_LOCAL }, async () => {
  const wf = await stack.call('POST', '/api/v1/workflows/', { body: { name: 'hosted', workflow_type: 'custom', workflow_nodes: chain(openaiNoKey) } });
  assert.equal(wf.status, 422, wf.text);
  const issue = wf.body.detail[0];
  assert.deepEqual(issue.loc, ['body', 'workflow_nodes', 2, 'settings', 'api_key']);
  assert.match(issue.msg, /OPENAI_API_KEY/);
  assert.match(issue.msg, /'local'/);

  const text = { name: 'a.txt', data: readFileSync(resolve(corpus, 'fake-text.txt')), type: 'text/plain' };
  const job = await launch('/api/v1/jobs/', jobForm({ job_nodes: chain({ subtype: 'azure_openai', settings: { api_key: FAKE_KEY } }) }, text));
  assert.equal(job.status, 422, job.text);
  assert.deepEqual(job.body.detail.map((d: { loc: unknown[] }) => d.loc), [['body', 'request_data', 'job_nodes', 2, 'settings', 'azure_endpoint']]);
  assert.match(job.body.detail[0].msg, /AZURE_OPENAI_ENDPOINT/);
  assert.ok(!job.text.includes(FAKE_KEY));

  const vlm = await launch('/api/v1/jobs/', jobForm({ job_nodes: chain({ subtype: 'local', settings: {} }, { name: 'VLM', type: 'partition', subtype: 'vlm', settings: { provider: 'openai', model: 'gpt-4o' } }) }, text));
  assert.equal(vlm.status, 422, vlm.text);
  assert.deepEqual(vlm.body.detail[0].loc, ['body', 'request_data', 'job_nodes', 0, 'settings', 'provider']);
  assert.match(vlm.body.detail[0].msg, /OPENAI_API_KEY/);

  // a predefined type whose nodes need a VLM: refused at the field the caller sent
  const platinum = await stack.call('POST', '/api/v1/workflows/', { body: { name: 'platinum', workflow_type: 'platinum' } });
  assert.equal(platinum.status, 422, platinum.text);
  assert.deepEqual(platinum.body.detail[0].loc, ['body', 'workflow_type']);
  assert.match(platinum.body.detail[0].msg, /^workflow_type 'platinum': no credentials for the VLM provider/);

  // the offline choice stays open
  const local = await stack.call('POST', '/api/v1/workflows/', { body: { name: 'offline', workflow_type: 'custom', workflow_nodes: chain({ subtype: 'local', settings: {} }) } });
  assert.equal(local.status, 200, local.text);
});

test('with ALLOW_OFFLINE_STANDINS=true the stand-ins run, and elements, details and the notification say so', { skip: NEEDS_LOCAL }, async () => {
  process.env.ALLOW_OFFLINE_STANDINS = 'true';
  try {
    const wf = await stack.call('POST', '/api/v1/workflows/', { body: { name: 'hosted, allowed', workflow_type: 'custom', workflow_nodes: chain(openaiNoKey) } });
    assert.equal(wf.status, 200, wf.text);
    const form = new FormData();
    form.append('input_files', new Blob([readFileSync(resolve(corpus, 'book-war-and-peace-1p.txt'))], { type: 'text/plain' }), 'book.txt');
    const run = await launch(`/api/v1/workflows/${wf.body.id}/run`, form);
    assert.equal(run.status, 202, run.text);
    const done = await finished(run.body.id);
    assert.equal(done.status, 'COMPLETED');

    const out = await stack.call('GET', `/api/v1/jobs/${run.body.id}/download?file_id=${run.body.input_file_ids[0]}`);
    assert.equal(out.status, 200);
    assert.ok(out.body.length > 0);
    for (const el of out.body) {
      assert.equal(el.embeddings.length, 1536);
      assert.match(el.metadata.embeddings_note, /offline stand-in.*openai\/text-embedding-3-small/);
    }
    const embedNode = wf.body.workflow_nodes[2];
    const details = await stack.call('GET', `/api/v1/jobs/${run.body.id}/details`);
    assert.equal(details.status, 200, details.text);
    assert.deepEqual(details.body.warnings, [
      `embed node "Embedder" (${embedNode.id}): no credentials for openai/text-embedding-3-small; offline hashed stand-in (not semantic) used`,
    ]);
    assert.match(details.body.message, /^Offline stand-ins used: embed node "Embedder"/);

    const note = await eventually(async () => {
      const r = await stack.call('GET', `/api/v1/notifications?workflow_id=${wf.body.id}&event_types=job.completed`);
      return r.body.events?.[0];
    }, 'the job.completed notification');
    assert.deepEqual(note.payload.warnings, details.body.warnings);
    assert.equal(note.payload.message, details.body.message);

    // VLM without a provider, and an Azure embed node with a key but no endpoint: both stand in; the key never shows
    const pdf = { name: 'page.pdf', data: readFileSync(resolve(corpus, 'emphasis-text.pdf')), type: 'application/pdf' };
    const vlmNode = { name: 'VLM', type: 'partition', subtype: 'vlm', settings: { provider: 'openai', model: 'gpt-4o' } };
    const job = await launch('/api/v1/jobs/', jobForm({ job_nodes: chain({ subtype: 'azure_openai', settings: { api_key: FAKE_KEY } }, vlmNode) }, pdf));
    assert.equal(job.status, 200, job.text);
    assert.equal((await finished(job.body.id)).status, 'COMPLETED');
    const fileId = job.body.input_file_ids[0];
    const parts = await stack.call('GET', `/api/v1/jobs/${job.body.id}/download?file_id=${fileId}&node_id=${job.body.output_node_files[0].node_id}`);
    assert.ok(parts.body.length > 0);
    for (const el of parts.body) assert.match(el.metadata.partitioner_note, /VLM/);
    const embedded = await stack.call('GET', `/api/v1/jobs/${job.body.id}/download?file_id=${fileId}`);
    for (const el of embedded.body) {
      assert.match(el.metadata.embeddings_note, /azure_openai/);
      assert.match(el.metadata.partitioner_note, /VLM/);
    }
    const d2 = await stack.call('GET', `/api/v1/jobs/${job.body.id}/details`);
    assert.equal(d2.body.warnings.length, 2, d2.text);
    assert.match(d2.body.warnings[0], /^partition node "VLM" .*OPENAI_API_KEY.*local text layer and OCR/);
    assert.match(d2.body.warnings[1], /^embed node "Embedder" .*azure_openai/);
    const notes = await eventually(async () => {
      const r = await stack.call('GET', `/api/v1/notifications?event_types=job.completed&limit=100`);
      return r.body.events?.find((e: { payload: { job_id: string } }) => e.payload.job_id === job.body.id);
    }, 'the second job.completed notification');
    for (const shown of [d2.text, embedded.text, parts.text, JSON.stringify(notes)]) assert.ok(!shown.includes(FAKE_KEY), 'a key must never be shown');
  } finally {
    delete process.env.ALLOW_OFFLINE_STANDINS;
  }
});
