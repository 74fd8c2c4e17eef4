// Prompter nodes in a node list: the platform's order rule, settings validation (422 at the
// field, never echoing a value) and credentials at create.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../../lambdas/errors';
import { planNodes } from '../../../lambdas/domain/job-nodes';
import { findTemplate } from '../../../lambdas/domain/templates';

const partition = { name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'hi_res' } };
const image = { name: 'I', type: 'prompter', subtype: 'openai_image_description', settings: {} };
const tableDesc = { name: 'T', type: 'prompter', subtype: 'anthropic_table_description', settings: {} };
const chunk = { name: 'C', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } };
const embed = { name: 'E', type: 'embed', subtype: 'local', settings: {} };
const env = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' };

function issues(fn: () => unknown): ValidationError['issues'] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ValidationError, String(err));
    return err.issues;
  }
  assert.fail('expected a ValidationError');
}

test('Partitioner→Prompter→Prompter→Chunker→Embedder is accepted', () => {
  const nodes = planNodes([partition, image, tableDesc, chunk, embed], ['body', 'job_nodes'], env);
  assert.deepEqual(nodes.map((n) => n.type), ['partition', 'prompter', 'prompter', 'chunk', 'embed']);
});

test('order rule: a prompter comes after the partitioner and before the chunker, and is not last', () => {
  assert.deepEqual(issues(() => planNodes([partition, chunk, image], ['body', 'job_nodes'], env))[0]!.loc, ['body', 'job_nodes', 2, 'type']);
  assert.match(issues(() => planNodes([image, chunk], ['body', 'job_nodes'], env))[0]!.msg, /cannot follow the job input/);
  assert.match(issues(() => planNodes([partition, image, embed], ['body', 'job_nodes'], env))[0]!.msg, /^an embed node cannot follow a prompter node/);
  assert.match(issues(() => planNodes([partition, chunk, embed, chunk], ['body', 'job_nodes'], env))[0]!.msg, /^a chunk node cannot follow an embed node/);
  const last = issues(() => planNodes([partition, image], ['body', 'job_nodes'], env))[0]!;
  assert.deepEqual(last.loc, ['body', 'job_nodes', 1, 'type']);
  assert.match(last.msg, /must be followed by a chunk node/);
});

test('settings are validated with their field located; a rejected value is never echoed', () => {
  const bad = { ...image, settings: { concurrency: 0, base_url: 'ftp://x', api_key: 7 } };
  const found = issues(() => planNodes([partition, bad, chunk], ['body', 'job_nodes'], env));
  assert.deepEqual(found.map((i) => i.loc.join('.')).sort(), ['body.job_nodes.1.settings.api_key', 'body.job_nodes.1.settings.base_url', 'body.job_nodes.1.settings.concurrency']);
  assert.ok(found.every((i) => i.input === undefined));
  const sub = issues(() => planNodes([partition, { ...image, subtype: 'openai_poem' }, chunk], ['body', 'job_nodes'], env))[0]!;
  assert.deepEqual(sub.loc, ['body', 'job_nodes', 1, 'subtype']);
  assert.match(sub.msg, /openai_image_description, .*anthropic_ner/);
});

test('every platform subtype is accepted', () => {
  for (const subtype of ['openai', 'anthropic', 'bedrock', 'vertexai'].flatMap((p) => [`${p}_image_description`, `${p}_table_description`]).concat(['openai_table2html', 'openai_ner', 'anthropic_ner'])) {
    planNodes([partition, { ...image, subtype }, chunk], ['body', 'job_nodes'], { ...env, BEDROCK_ENDPOINT_URL: 'http://127.0.0.1:1', VERTEX_API_KEY: 'k' });
  }
});

test('no credentials: 422 at the missing setting at create, unless offline stand-ins are allowed', () => {
  const found = issues(() => planNodes([partition, image, tableDesc, chunk], ['body', 'job_nodes'], {}));
  assert.deepEqual(found.map((i) => i.loc), [['body', 'job_nodes', 1, 'settings', 'api_key'], ['body', 'job_nodes', 2, 'settings', 'api_key']]);
  assert.match(found[1]!.msg, /ANTHROPIC_API_KEY/);
  assert.equal(planNodes([partition, image, chunk], ['body', 'job_nodes'], { ALLOW_OFFLINE_STANDINS: 'true' }).length, 3);
});

test('hi_res_and_enrichment: hi_res partition keeping image pixels → image + table description → chunk → embed', () => {
  const t = findTemplate('hi_res_and_enrichment');
  assert.ok(t, 'template exists');
  assert.deepEqual(t.nodes.map((n) => `${n.type}/${n.subtype}`), ['partition/unstructured_api', 'prompter/openai_image_description', 'prompter/openai_table_description', 'chunk/chunk_by_title', 'embed/local']);
  assert.equal(t.nodes[0]!.settings?.strategy, 'hi_res');
  assert.deepEqual(t.nodes[0]!.settings?.extract_image_block_types, ['Image', 'Table']);
  assert.equal(planNodes(t.nodes, ['body', 'template_id'], env).length, 5);
});
