// Contextual chunking (chunk node `contextual_chunking_strategy: "v1"`) through the node runner,
// against a local server speaking the Anthropic Messages and OpenAI chat wire formats.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../../lambdas/errors';
import { planNodes, type JobNode } from '../../../lambdas/domain/job-nodes';
import { runNode } from '../../../lambdas/domain/node-runner';
import { makeElement } from '../../../lambdas/engine/elements';
import { startModelServer, type ModelServer, type Reply } from '../../../lambdas/engine/enrichment/test-server';

const SECRET = 'sk-ctx-SECRET-11aa';
const servers: ModelServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function serve(reply?: Reply): Promise<ModelServer> {
  const s = await startModelServer({ reply });
  servers.push(s);
  return s;
}

const elements = () => [
  makeElement('Title', 'Annual report 2024 of Example Corp', { filename: 'r.pdf', page_number: 1 }),
  makeElement('NarrativeText', 'Revenue increased by 15% over the year.', { filename: 'r.pdf', page_number: 1 }),
  makeElement('Title', 'Outlook', { filename: 'r.pdf', page_number: 2 }),
  makeElement('NarrativeText', 'We expect growth to continue in Europe.', { filename: 'r.pdf', page_number: 2 }),
];
const node = (settings: Record<string, unknown>): JobNode => ({ id: 'n1', name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 60, multipage_sections: false, ...settings } });

test('v1: each chunk becomes "Prefix: <context>; Original: <chunk>", the model shown the whole document and the chunk', async () => {
  const srv = await serve();
  const plain = await runNode(node({}), { elements: elements() }, () => undefined, {});
  const r = await runNode(node({ contextual_chunking_strategy: 'v1' }), { elements: elements() }, () => undefined, { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: srv.url });
  assert.equal(r.substitution, undefined);
  assert.equal(r.elements.length, plain.elements.length);
  assert.equal(srv.calls.length, plain.elements.length, 'one call per chunk');
  r.elements.forEach((c, i) => assert.equal(c.text, `Prefix: This chunk is part of a test document.; Original: ${plain.elements[i]!.text}`));
  for (const [i, call] of srv.calls.entries()) {
    assert.equal(call.body.model, 'claude-haiku-4-5');
    assert.equal(call.headers.authorization, `Bearer ${SECRET}`);
    assert.match(call.prompt, /<document>\nAnnual report 2024 of Example Corp[\s\S]*Europe\.\n<\/document>/);
    assert.ok(plain.elements.some((p) => call.prompt.includes(`<chunk>\n${p.text}\n</chunk>`)), `call ${i} names its chunk`);
  }
});

test('v1 with the openai provider and model settings; a chunk whose call fails keeps its text and is a warning', async () => {
  const srv = await serve((_c, n) => (n === 1 ? { status: 400, body: { error: { message: 'context length exceeded' } } } : { text: 'From the 2024 annual report.' }));
  const r = await runNode(
    node({ contextual_chunking_strategy: 'v1', contextual_chunking_provider: 'openai', contextual_chunking_model: 'gpt-4.1-mini', contextual_chunking_api_key: SECRET, contextual_chunking_concurrency: 1 }),
    { elements: elements() },
    () => undefined,
    { OPENAI_BASE_URL: `${srv.url}/v1` },
  );
  assert.equal(srv.calls[0]!.body.model, 'gpt-4.1-mini');
  assert.ok(!r.elements[0]!.text.startsWith('Prefix:'));
  assert.ok(r.elements.slice(1).every((c) => c.text.startsWith('Prefix: From the 2024 annual report.; Original: ')));
  assert.match(r.substitution ?? '', new RegExp(`^chunk node "Chunker" \\(n1\\): 1 of ${r.elements.length} chunk\\(s\\) kept their text without context: openai/gpt-4.1-mini: context length exceeded \\(HTTP 400\\)`));
  assert.ok(!JSON.stringify(r).includes(SECRET));
});

test('at create: v1 without credentials is a 422 at the key setting; an unknown strategy at its field', () => {
  const nodes = (settings: Record<string, unknown>) => [
    { name: 'P', type: 'partition', subtype: 'unstructured_api', settings: {} },
    { name: 'C', type: 'chunk', subtype: 'chunk_by_title', settings },
  ];
  const issuesOf = (settings: Record<string, unknown>) => {
    try {
      planNodes(nodes(settings), ['body', 'job_nodes'], {});
    } catch (err) {
      assert.ok(err instanceof ValidationError);
      return err.issues;
    }
    return [];
  };
  const [missing] = issuesOf({ contextual_chunking_strategy: 'v1' });
  assert.deepEqual(missing!.loc, ['body', 'job_nodes', 1, 'settings', 'contextual_chunking_api_key']);
  assert.match(missing!.msg, /ANTHROPIC_API_KEY/);
  assert.deepEqual(issuesOf({ contextual_chunking_strategy: 'v2' })[0]!.loc, ['body', 'job_nodes', 1, 'settings', 'contextual_chunking_strategy']);
  assert.deepEqual(issuesOf({ contextual_chunking_strategy: null }), []);
  assert.deepEqual(issuesOf({ contextual_chunking_strategy: 'v1', contextual_chunking_provider: 'openai' })[0]!.loc, ['body', 'job_nodes', 1, 'settings', 'contextual_chunking_api_key']);
});
