import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../../../lambdas/errors';
import { makeElement, type Element } from '../../../lambdas/engine/elements';
import {
  cosineSimilarity,
  createEmbedder,
  createHashedEmbedder,
  embedElements,
  hashedEmbedding,
  parseEmbedNode,
  redactEmbedderConfig,
} from '../../../lambdas/engine/embedding/index';
import { chunkElements, parseChunkNode } from '../../../lambdas/engine/chunking/index';

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

function issues(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ValidationError);
    return e.issues;
  }
  assert.fail('expected a ValidationError');
}

test('hashed embedder: deterministic, unit length, fixed dimension, lexical similarity', () => {
  const a = hashedEmbedding('The quick brown fox jumps over the lazy dog');
  assert.equal(a.length, 384);
  assert.deepEqual(a, hashedEmbedding('The quick brown fox jumps over the lazy dog'));
  assert.ok(Math.abs(norm(a) - 1) < 1e-9);
  const near = hashedEmbedding('A quick brown fox jumped over a lazy dog');
  const far = hashedEmbedding('Quarterly revenue grew by eleven percent in Europe');
  assert.ok(cosineSimilarity(a, near) > cosineSimilarity(a, far) + 0.3);
  assert.equal(hashedEmbedding('', 8).every((x) => x === 0), true);
  assert.equal(hashedEmbedding('x', 1024).length, 1024);
});

test('embedElements fills `embeddings` for elements with text and skips empty ones', async () => {
  const els = [makeElement('NarrativeText', 'hello world'), makeElement('PageBreak', ''), makeElement('Title', 'Heading')];
  const out = await embedElements(els, createHashedEmbedder(32));
  assert.equal(out, els);
  assert.equal(els[0]!.embeddings!.length, 32);
  assert.equal(els[1]!.embeddings, undefined);
  assert.deepEqual(els[2]!.embeddings, hashedEmbedding('Heading', 32));
});

test('parseEmbedNode: subtypes, model names, dimensions, 422 locations', () => {
  assert.deepEqual(parseEmbedNode('openai', {}), { provider: 'openai', model: 'text-embedding-3-small', dimensions: 1536 });
  assert.equal(parseEmbedNode('azure_openai', { model_name: 'text-embedding-3-large' }).dimensions, 3072);
  assert.equal(parseEmbedNode('bedrock', { model_name: 'amazon.titan-embed-text-v1' }).dimensions, 1536);
  assert.equal(parseEmbedNode('bedrock', { model_name: 'cohere.embed-english-v3' }).dimensions, 1024);
  assert.equal(parseEmbedNode('togetherai', { model_name: 'togethercomputer/m2-bert-80M-2k-retrieval' }).dimensions, 768);
  assert.equal(parseEmbedNode('voyageai', { model_name: 'voyage-code-2' }).dimensions, 1536);
  assert.deepEqual(parseEmbedNode('local', {}), { provider: 'local', model: 'builtin-hashed-char-ngrams-384', dimensions: 384 });
  assert.equal(parseEmbedNode('huggingface', { model_name: 'builtin-hashed-char-ngrams-768' }).dimensions, 768);
  // -- an unknown hosted model is accepted only with explicit dimensions --
  assert.equal(parseEmbedNode('voyageai', { model_name: 'voyage-next', dimensions: 2048 }).dimensions, 2048);
  assert.deepEqual(issues(() => parseEmbedNode('openai', { model_name: 'gpt-4o' }, ['job_nodes', 2]))[0]!.loc, ['job_nodes', 2, 'settings', 'model_name']);
  assert.deepEqual(issues(() => parseEmbedNode('cohere', {}, ['job_nodes', 2]))[0]!.loc, ['job_nodes', 2, 'subtype']);
  assert.deepEqual(issues(() => parseEmbedNode('openai', { batch_size: 0 }, ['job_nodes', 2]))[0]!.loc, ['job_nodes', 2, 'settings', 'batch_size']);
  const secretIssue = issues(() => parseEmbedNode('openai', { api_key: 12345 }))[0]!;
  assert.equal(secretIssue.input, undefined, 'a rejected credential is not echoed back');
});

test('redactEmbedderConfig hides secrets', () => {
  const r = redactEmbedderConfig(parseEmbedNode('bedrock', { aws_access_key_id: 'AKID', aws_secret_access_key: 'shh', api_key: 'k' }));
  assert.equal(r.secretAccessKey, '***');
  assert.equal(r.accessKeyId, '***');
  assert.equal(r.apiKey, '***');
  assert.ok(!JSON.stringify(r).includes('shh'));
});

test('partition output → chunk_by_title → embed on the offline stand-in (no credentials, ALLOW_OFFLINE_STANDINS=true): every chunk marked', async () => {
  const corpus = path.resolve(import.meta.dirname, '../../../../shared/corpus/expected/oss-0.14.8-dev4/book-war-and-peace-1p.txt.json');
  // A missing corpus file fails the test (readFileSync throws), never swaps in other input.
  const elements = JSON.parse(readFileSync(corpus, 'utf8')) as Element[];
  const chunks = chunkElements(elements, parseChunkNode('chunk_by_title', { max_characters: 500, new_after_n_chars: 400, overlap: 0 }, ['job_nodes', 1]));
  const warnings: string[] = [];
  const embedder = await createEmbedder(parseEmbedNode('azure_openai', { model_name: 'text-embedding-3-small' }, ['job_nodes', 2]), { ALLOW_OFFLINE_STANDINS: 'true' }, { onWarning: (m) => warnings.push(m) });
  await embedElements(chunks, embedder);
  assert.ok(chunks.length > 0);
  assert.ok(chunks.every((c) => c.embeddings?.length === 1536));
  assert.ok(chunks.every((c) => /^offline stand-in for azure_openai\/text-embedding-3-small/.test(String(c.metadata.embeddings_note))));
  assert.equal(warnings.length, 1);
});

test('local default matches the shape of the library embedder output (384 dims on every element)', async () => {
  const file = path.resolve(import.meta.dirname, '../../../../shared/corpus/expected/head-chunked/book-war-and-peace-1p.txt.embedded.json');
  assert.ok(existsSync(file), `corpus file missing: ${file}`);
  const lib = JSON.parse(readFileSync(file, 'utf8')) as Element[];
  const ours = lib.map(({ embeddings: _drop, ...e }) => structuredClone(e) as Element);
  await embedElements(ours, await createEmbedder(parseEmbedNode('local', {}), {}));
  assert.deepEqual(ours.map((e) => e.embeddings?.length), lib.map((e) => e.embeddings?.length));
  assert.deepEqual(ours.map((e) => e.text), lib.map((e) => e.text));
});
