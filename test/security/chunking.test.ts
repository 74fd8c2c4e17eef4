// Finding 5 (event-loop stalls, chunking parameters): chunking parameters are validated on the
// partition endpoint (even without chunking_strategy) and on chunk job nodes; a tiny window on a large
// text is a 422 asking for a larger max_characters instead of a million chunks, and a large overlap on
// a large text is linear work (it ran the process out of memory). The service runs as `npm start`
// does, in its own process, so a crash or an out-of-memory shows as an exit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { type ServiceProcess } from '../support/service-process';
import { serviceEachTest } from './helpers';

let svc: ServiceProcess;
let key: string;
serviceEachTest('sec-chunk', (s, k) => {
  svc = s;
  key = k;
});

/** `chars` characters of prose in one paragraph (one element: the chunker must split its text). */
function prose(chars: number): string {
  const line = 'lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor ';
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

async function partition(text: string, fields: Record<string, string>): Promise<{ status: number; body: any; text: string }> {
  const form = new FormData();
  form.append('files', new Blob([text], { type: 'text/plain' }), 'doc.txt');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${svc.url}/general/v0/general`, { method: 'POST', body: form, headers: { 'unstructured-api-key': key } });
  const body = await res.text();
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, text: body };
}

function assertAlive(): void {
  assert.ok(svc.alive(), `the service process exited: ${JSON.stringify(svc.exit())}\n${svc.stderr().slice(-1500)}`);
}

test('chunking values out of range are 422 on the partition endpoint, with or without chunking_strategy', { skip: NEEDS_LOCAL }, async () => {
  const bad: [string, string][] = [
    ['max_characters', '0'],
    ['max_characters', '-5'],
    ['max_characters', '1e308'],
    ['max_characters', '99999999999999999999'],
    ['new_after_n_chars', '-1'],
    ['overlap', '-1'],
    ['similarity_threshold', 'NaN'],
    ['similarity_threshold', 'Infinity'],
    ['similarity_threshold', '0'],
    ['similarity_threshold', '-0.5'],
    ['similarity_threshold', '1.5'],
  ];
  for (const strategy of [undefined, 'by_similarity']) {
    for (const [field, value] of bad) {
      const r = await partition('some text', { ...(strategy ? { chunking_strategy: strategy } : {}), [field]: value });
      assert.equal(r.status, 422, `${strategy ?? 'no strategy'} ${field}=${value}: ${r.status} ${r.text.slice(0, 200)}`);
      assert.deepEqual(r.body.detail[0].loc, ['body', field]);
    }
  }
  const ok = await partition('some text', { chunking_strategy: 'by_similarity', similarity_threshold: '1' });
  assert.equal(ok.status, 200, ok.text);
});

test('chunk job nodes refuse the same values', { skip: NEEDS_LOCAL }, async () => {
  for (const settings of [{ similarity_threshold: 0 }, { max_characters: 10, overlap: 10 }, { overlap: -1 }, { max_characters: 1.5 }]) {
    const form = new FormData();
    form.append(
      'request_data',
      JSON.stringify({
        job_nodes: [
          { name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
          { name: 'C', type: 'chunk', subtype: 'chunk_by_similarity', settings },
        ],
      }),
    );
    form.append('input_files', new Blob(['hello']), 'a.txt');
    const res = await fetch(`${svc.url}/api/v1/jobs/`, { method: 'POST', body: form, headers: { 'unstructured-api-key': key } });
    assert.equal(res.status, 422, `${JSON.stringify(settings)}: ${await res.text()}`);
  }
});

test('max_characters=1 on 1 MB of text is a 422 asking for a larger max_characters, and the service lives on', { skip: NEEDS_LOCAL }, async () => {
  const r = await partition(prose(1_000_000), { chunking_strategy: 'basic', max_characters: '1' });
  assertAlive();
  assert.equal(r.status, 422, `${r.status} ${r.text.slice(0, 300)}`);
  assert.deepEqual(r.body.detail[0].loc, ['body', 'max_characters']);
  assert.match(r.body.detail[0].msg, /more than 100,000 chunks.*raise max_characters/);
  assert.equal((await fetch(`${svc.url}/healthcheck`)).status, 200);
});

test('a large overlap on 1 MB of text is chunked (linear work), every chunk within max_characters', { skip: NEEDS_LOCAL }, async () => {
  const r = await partition(prose(1_000_000), { chunking_strategy: 'basic', max_characters: '100', overlap: '50', include_orig_elements: 'false' });
  assertAlive();
  assert.equal(r.status, 200, `${r.status} ${r.text.slice(0, 300)}`);
  const chunks = r.body as { text: string }[];
  assert.ok(chunks.length > 15_000, `${chunks.length} chunks`);
  assert.ok(chunks.every((c) => c.text.length <= 100));
  assert.equal((await fetch(`${svc.url}/healthcheck`)).status, 200);
});
