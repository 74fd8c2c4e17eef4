// The Microsoft Graph sources through the HTTP API, against the HTTPS stand-in of Entra ID and Graph
// (trusted through CONNECTOR_CA_FILE, page size 2): onedrive (a user's folder), sharepoint (a site's
// library) and outlook (a mailbox folder) → partition (fast) → local destination. Each workflow runs
// twice: run 1 processes every document, whose elements carry the platform's metadata.data_source
// (url, version, record_locator, permissions_data for drive files); run 2 processes none (all unchanged, skipped by version).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { resetConfig } from '../../lambdas/config';
import { selfSignedCert, startOneDriveStandIn, type OneDriveStandIn } from '../../lambdas/connectors/onedrive/test-server';
import { graphSources } from '../../lambdas/connectors/onedrive/test-server-sources';

const UPN = 'alice@contoso.com';
const SITE = 'https://contoso.sharepoint.com/sites/eng';
let stack: TestStack;
let od: OneDriveStandIn;
const base = mkdtempSync(join(tmpdir(), 'wps-src-graph-'));
const saved = { ca: process.env.CONNECTOR_CA_FILE, graph: process.env.GRAPH_API_ENDPOINT };
const nodes = [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }];
const text = (title: string) => `${title}\n\nA short paragraph about ${title}, long enough to be a narrative text element of its own.\n`;
const mail = (n: number) => `From: A <a@example.com>\nTo: ${UPN}\nSubject: status ${n}\nMessage-ID: <s${n}@example.com>\nContent-Type: text/plain; charset=utf-8\n\n${text(`Status report ${n}`)}`;

function restore(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

before(async () => {
  if (NEEDS_LOCAL) return;
  const tls = selfSignedCert();
  process.env.CONNECTOR_CA_FILE = tls.certFile;
  resetConfig();
  const src = graphSources({ pageSize: 2 });
  od = await startOneDriveStandIn({ tls, routes: src.routes });
  process.env.GRAPH_API_ENDPOINT = od.url;
  src.addUserDrive(UPN);
  src.putFile(UPN, 'Reports/alpha.txt', text('Alpha'));
  src.putFile(UPN, 'Reports/sub/beta.md', `# Beta\n\n${text('Beta')}`);
  src.putFile(UPN, 'Reports/sub/gamma.txt', text('Gamma'));
  const library = src.addSite(SITE).drives.Documents!;
  src.putFile(library, 'memo.txt', text('Memo'));
  src.putFile(library, 'Folder1/plan.txt', text('Plan'));
  const inbox = src.addMailFolder(UPN, 'Inbox');
  for (let i = 1; i <= 3; i++) src.putMessage(UPN, inbox, mail(i));
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  await od?.stop();
  restore('CONNECTOR_CA_FILE', saved.ca);
  restore('GRAPH_API_ENDPOINT', saved.graph);
  resetConfig();
});

async function runToEnd(workflowId: string) {
  const run = await stack.call('POST', `/api/v1/workflows/${workflowId}/run`);
  assert.equal(run.status, 202, run.text);
  const job = await eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${run.body.id}`);
    return ['COMPLETED', 'COMPLETED_WITH_ERRORS', 'FAILED', 'STOPPED'].includes(r.body.status) ? r.body : undefined;
  }, 'workflow job', 180_000);
  assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
  return { job, details: (await stack.call('GET', `/api/v1/jobs/${job.id}/details`)).body };
}

function outputs(dir: string): any[][] {
  const out: any[][] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.json')) out.push(JSON.parse(readFileSync(join(e.parentPath, e.name), 'utf8')));
  }
  return out;
}

const cases: { type: string; config: () => Record<string, unknown>; docs: number; check: (ds: any) => void }[] = [
  {
    type: 'onedrive',
    config: () => ({ authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: od.clientSecret, user_pname: UPN, path: 'Reports', recursive: true }),
    docs: 3,
    check: (ds) => {
      assert.match(ds.url, /^\/drive\/root:\/Reports\//);
      assert.equal(ds.record_locator.user_pname, UPN);
      assert.equal(ds.permissions_data.length, 3, 'read/update/delete');
      assert.match(ds.record_locator.server_relative_path, /^Reports\/(alpha\.txt|sub\/beta\.md|sub\/gamma\.txt)$/);
    },
  },
  {
    type: 'sharepoint',
    config: () => ({ authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: od.clientSecret, site: SITE, path: 'Shared Documents', recursive: true }),
    docs: 2,
    check: (ds) => {
      assert.match(ds.url, /^\/drives\/b!.+\/root:\/(memo\.txt|Folder1\/plan\.txt)$/);
      assert.match(ds.record_locator.server_relative_path, /^(\/memo\.txt|Folder1\/plan\.txt)$/);
      assert.equal(ds.permissions_data.length, 3, 'read/update/delete');
    },
  },
  {
    type: 'outlook',
    config: () => ({ authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: od.clientSecret, user_email: UPN, outlook_folders: ['Inbox'] }),
    docs: 3,
    check: (ds) => {
      assert.match(ds.url, new RegExp(`^${od.url}/v1\\.0/users/${UPN}/mailFolders/.+/messages/.+$`));
      assert.deepEqual(Object.keys(ds.record_locator).sort(), ['message_id', 'user_email']);
    },
  },
];

for (const c of cases) {
  test(`${c.type} source: run 1 processes every document with the platform's data_source, run 2 skips them all`, { skip: NEEDS_LOCAL }, async () => {
    const source = await stack.call('POST', '/api/v1/sources/', { body: { name: `src-${c.type}`, type: c.type, config: c.config() } });
    assert.equal(source.status, 200, source.text);
    assert.equal(source.body.config.client_cred, '**********');
    await stack.call('POST', `/api/v1/sources/${source.body.id}/connection-check`);
    const chk = await eventually(async () => {
      const r = await stack.call('GET', `/api/v1/sources/${source.body.id}/connection-check`);
      return r.body.status !== 'SCHEDULED' ? r.body : undefined;
    }, 'connection check');
    assert.equal(chk.status, 'SUCCESS', chk.reason);
    const outDir = join(base, c.type);
    mkdirSync(outDir);
    const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name: `out-${c.type}`, type: 'local', config: { remote_url: outDir } } });
    assert.equal(dest.status, 200, dest.text);
    const wf = await stack.call('POST', '/api/v1/workflows/', {
      body: { name: `from-${c.type}`, workflow_type: 'custom', workflow_nodes: nodes, source_id: source.body.id, destination_id: dest.body.id },
    });
    assert.equal(wf.status, 200, wf.text);

    const r1 = await runToEnd(wf.body.id);
    assert.equal(r1.details.source_documents.processed, c.docs, JSON.stringify(r1.details.source_documents));
    const docs = outputs(outDir);
    assert.equal(docs.length, c.docs);
    for (const elements of docs) {
      assert.ok(elements.length > 0);
      for (const el of elements) {
        const ds = el.metadata.data_source;
        assert.ok(ds?.version, `data_source.version on ${JSON.stringify(el.metadata)}`);
        assert.ok(ds.date_modified && ds.date_processed);
        c.check(ds);
      }
    }

    const r2 = await runToEnd(wf.body.id);
    assert.equal(r2.job.input_file_ids.length, 0);
    assert.equal(r2.details.source_documents.processed, 0);
    assert.equal(r2.details.source_documents.unchanged_skipped, c.docs);
  });
}
