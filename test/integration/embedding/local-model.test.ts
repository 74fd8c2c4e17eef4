// The local transformers.js provider on a tiny model the test writes (and on a real model dir when
// LOCAL_EMBEDDING_TEST_MODEL_DIR points at one). Everything runs offline.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ValidationError } from '../../../lambdas/errors';
import { cosineSimilarity, createEmbedder, parseEmbedNode } from '../../../lambdas/engine/embedding/index';
import { writeTinyModel } from './tiny-model';

const tmp = mkdtempSync(path.join(tmpdir(), 'embed-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

test('local transformers embedder loads a model directory offline (tiny generated model)', async () => {
  const model = writeTinyModel(tmp);
  const emb = await createEmbedder(parseEmbedNode('local', { model_name: 'tiny-bert' }), { LOCAL_EMBEDDING_MODELS_DIR: tmp });
  assert.equal(emb.provider, 'local');
  assert.equal(emb.dimensions, model.hidden);
  const texts = ['Hello world.', 'a much longer sentence, with several more words in it', 'x'];
  const batch = await emb.embedTexts(texts);
  assert.equal(batch.length, 3);
  for (const v of batch) {
    assert.equal(v.length, model.hidden);
    assert.ok(Math.abs(norm(v) - 1) < 1e-5);
  }
  // -- padding in a batch does not change a text's vector (mean pooling honours the mask) --
  const [single] = await emb.embedTexts(['x']);
  single!.forEach((x, i) => assert.ok(Math.abs(x - batch[2]![i]!) < 1e-5));
  assert.ok(cosineSimilarity(batch[0]!, batch[1]!) < 0.9999);
});

test('local model that is missing is a clear 422', async () => {
  await assert.rejects(createEmbedder(parseEmbedNode('local', { model_name: 'nope' }), { LOCAL_EMBEDDING_MODELS_DIR: tmp }), (e: unknown) => {
    assert.ok(e instanceof ValidationError);
    assert.match(e.message, /does not exist/);
    return true;
  });
  await assert.rejects(createEmbedder(parseEmbedNode('local', { model_name: 'nope' }), {}), ValidationError);
});

const realModel = process.env.LOCAL_EMBEDDING_TEST_MODEL_DIR;
test('a real sentence-embedding model directory, when provided, ranks paraphrases closer', { skip: !realModel && 'set LOCAL_EMBEDDING_TEST_MODEL_DIR to a transformers.js model dir' }, async () => {
  const emb = await createEmbedder(parseEmbedNode('local', { model_path: path.basename(realModel!) }), { LOCAL_EMBEDDING_MODELS_DIR: path.dirname(realModel!) });
  const [a, b, c] = await emb.embedTexts(['A man is playing a guitar.', 'Someone plays an acoustic guitar.', 'The stock market fell sharply today.']);
  assert.ok(cosineSimilarity(a!, b!) > cosineSimilarity(a!, c!));
});

