// Finding 6 (issue 8): one outbound-network policy for every call made on a tenant's behalf. Played as
// the attacker: with CONNECTORS_DENY_PRIVATE_NETWORKS=true, tenant B points an embed node's base_url
// at a service on the host's loopback, at the instance metadata address and at a name resolving to
// loopback. A local HTTP server counts requests: nothing may arrive. Literal private addresses are
// refused when the job is created (422); a name is refused at connect time, and the file fails with
// the reason (never a 500).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { jobForm, keyedStack, launchJob, locs, messages, waitForJob, withEnv, type Tenants } from './helpers';

let t: Tenants;
let server: Server;
let port: number;
let hits = 0;
let restoreEnv: () => void;

before(async () => {
  server = createServer((req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: new Array(1536).fill(0.01) }], model: 'x', usage: {} }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  restoreEnv = () => (saved === undefined ? delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS : (process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved));
  t = await keyedStack();
});

after(async () => {
  await t?.stack.close();
  restoreEnv?.();
  server?.closeAllConnections();
  await new Promise<void>((r) => server?.close(() => r()));
});

function embedJob(baseUrl: string) {
  const nodes = [
    { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
    { name: 'Embedder', type: 'embed', subtype: 'openai', settings: { model_name: 'text-embedding-3-small', api_key: 'sk-test', base_url: baseUrl, max_retries: 0 } },
  ];
  return jobForm({ job_nodes: nodes }, [{ name: 'doc.txt', text: 'Some text to embed.' }]);
}

test('an embed base_url on a literal loopback, metadata or mapped/translated private address is a 422', async () => {
  for (const url of [
    `http://127.0.0.1:${port}/v1`,
    'http://169.254.169.254/latest',
    `http://[::ffff:127.0.0.1]:${port}/v1`,
    `http://[::127.0.0.1]:${port}/v1`,
    `http://[64:ff9b::7f00:1]:${port}/v1`,
    'http://[fd00:ec2::254]/',
  ]) {
    const r = await launchJob(t.stack, t.asB, embedJob(url));
    assert.equal(r.status, 422, `${url} -> ${r.status} ${r.text}`);
    assert.ok(locs(r.body).some((l) => l.endsWith('settings.base_url')), r.text);
    assert.match(messages(r.body), /private network|metadata/);
  }
  assert.equal(hits, 0, 'no request reached the loopback server');
});

test('an embed base_url naming a host that resolves to loopback fails the file with the reason; nothing arrives', async () => {
  const r = await launchJob(t.stack, t.asB, embedJob(`http://localhost:${port}/v1`));
  assert.equal(r.status, 200, r.text);
  const done = await waitForJob(t.stack, t.asB, r.body.id);
  assert.equal(done.status, 'FAILED');
  const failed = await t.stack.call('GET', `/api/v1/jobs/${r.body.id}/failed-files`, t.asB);
  assert.equal(failed.status, 200);
  assert.equal(failed.body.failed_files.length, 1);
  assert.match(failed.body.failed_files[0].error, /private network address/);
  assert.equal(hits, 0, 'no request reached the loopback server');
});

test('with the policy off (the local default) the same loopback base_url is reached, so the test above can fail', async () => {
  await withEnv({ CONNECTORS_DENY_PRIVATE_NETWORKS: 'false' }, async () => {
    const r = await launchJob(t.stack, t.asB, embedJob(`http://127.0.0.1:${port}/v1`));
    assert.equal(r.status, 200, r.text);
    await waitForJob(t.stack, t.asB, r.body.id);
  });
  assert.ok(hits > 0);
  hits = 0;
});
