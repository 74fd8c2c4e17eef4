// The job path's node runner and offline stand-ins: without ALLOW_OFFLINE_STANDINS a hosted model
// without credentials fails the node (a 4xx: the job records the file as failed with the reason, for
// workflows stored before the rule or a deployment whose environment changed); with it the node runs
// on the stand-in and returns the substitution for the job, which the engine notes in every element.
// Partition runs in the real sandbox process.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runNode } from '../../lambdas/domain/node-runner';
import { ValidationError } from '../../lambdas/errors';
import { makeElement } from '../../lambdas/engine/elements';
import { shutdownPartitionSandbox } from '../../lambdas/engine/partition/sandbox';
import type { JobNode } from '../../lambdas/domain/job-nodes';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
const FAKE = 'sk-fake-runner-0123456789SECRET';
const ALLOWED = { ALLOW_OFFLINE_STANDINS: 'true' };
const node = (n: Omit<JobNode, 'id' | 'name'>): JobNode => ({ id: 'node-1', name: 'N', ...n });
const noWarn = () => undefined;

after(async () => {
  await shutdownPartitionSandbox();
});

test('embed: refused without the opt-in; with it the substitution is returned and every embedded element is marked', async () => {
  const embed = node({ type: 'embed', subtype: 'azure_openai', settings: { api_key: FAKE } });
  const elements = () => ({ elements: [makeElement('NarrativeText', 'Genoa and Lucca'), makeElement('Title', 'War and Peace'), makeElement('Image', '')] });
  await assert.rejects(runNode(embed, elements(), noWarn, {}), (e: unknown) => e instanceof ValidationError && e.status === 422 && /AZURE_OPENAI_ENDPOINT/.test(e.message) && !e.message.includes(FAKE));
  const out = await runNode(embed, elements(), noWarn, ALLOWED);
  assert.equal(out.substitution, 'embed node "N" (node-1): no credentials for azure_openai/text-embedding-3-small; offline hashed stand-in (not semantic) used');
  const embedded = out.elements.filter((e) => e.embeddings);
  assert.equal(embedded.length, 2);
  for (const e of embedded) assert.match(String(e.metadata.embeddings_note), /^offline stand-in for azure_openai\/text-embedding-3-small \(no credentials\)/);
  assert.ok(!JSON.stringify(out).includes(FAKE));
  // credentials in the environment: no stand-in, nothing to say (the call itself is contract-tested elsewhere)
  const local = await runNode(node({ type: 'embed', subtype: 'local', settings: {} }), elements(), noWarn, {});
  assert.equal(local.substitution, undefined);
  assert.ok(local.elements.every((e) => e.metadata.embeddings_note === undefined));
});

test('VLM partition: refused without the opt-in; with it a PDF falls back to OCR and says so, a text file has nothing to substitute', async () => {
  const vlm = node({ type: 'partition', subtype: 'vlm', settings: { provider: 'anthropic' } });
  const pdf = { document: { data: readFileSync(resolve(corpus, 'emphasis-text.pdf')), filename: 'e.pdf' } };
  const env = { ...process.env, ANTHROPIC_API_KEY: undefined };
  await assert.rejects(runNode(vlm, pdf, noWarn, env), (e: unknown) => e instanceof ValidationError && /ANTHROPIC_API_KEY/.test(e.message));
  const out = await runNode(vlm, pdf, noWarn, { ...env, ...ALLOWED });
  assert.match(String(out.substitution), /^partition node "N" \(node-1\): no credentials for the VLM provider 'anthropic' \(set ANTHROPIC_API_KEY .*\); local text layer and OCR stand-in used$/);
  assert.ok(out.elements.length > 0 && out.elements.every((e) => typeof e.metadata.partitioner_note === 'string'));
  const txt = await runNode(vlm, { document: { data: readFileSync(resolve(corpus, 'fake-text.txt')), filename: 'a.txt' } }, noWarn, { ...env, ...ALLOWED });
  assert.equal(txt.substitution, undefined);
});
