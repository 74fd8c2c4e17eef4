// Dropbox, Box, Confluence and Jira sources through the HTTP API and the whole local stack: each
// source (against its stand-in) → partition (fast) → local destination, run twice. Run 1 processes
// every document and each element carries the source's metadata.data_source (url, version,
// record_locator); run 2 processes none (all unchanged_skipped).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows } from '../support/e2e-flows';
import { startDropboxStandIn, type DropboxStandIn } from '../../lambdas/connectors/dropbox/test-server';
import { startBoxStandIn, type BoxStandIn } from '../../lambdas/connectors/box/test-server';
import { startConfluenceStandIn, type ConfluenceStandIn } from '../../lambdas/connectors/confluence/test-server';
import { startJiraStandIn, type JiraStandIn } from '../../lambdas/connectors/jira/test-server';
import { trustStandIns } from '../support/stand-in-ca';

let stack: TestStack;
const flows = e2eFlows(() => stack);
let dbx: DropboxStandIn;
let box: BoxStandIn;
let cf: ConfluenceStandIn;
let jira: JiraStandIn;
let untrust: (() => void) | undefined;
const base = mkdtempSync(join(tmpdir(), 'wps-src-saas-'));
const saved = { dropbox: process.env.DROPBOX_API_URL, box: process.env.BOX_API_URL };
const nodes = [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }];
const para = (t: string) => `${t}\n\nA short paragraph about ${t}, long enough to be a narrative text element of its own.\n`;

function restore(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

before(async () => {
  if (NEEDS_LOCAL) return;
  untrust = trustStandIns(); // the Confluence and Jira stand-ins serve TLS: credentials go over TLS only
  [dbx, box, cf, jira] = await Promise.all([startDropboxStandIn(), startBoxStandIn(), startConfluenceStandIn(), startJiraStandIn()]);
  process.env.DROPBOX_API_URL = dbx.url;
  process.env.BOX_API_URL = box.url;
  for (const name of ['alpha.txt', 'sub/beta.md', 'gamma.txt']) {
    dbx.put(`/Docs/${name}`, para(name));
    box.put(`/Docs/${name}`, para(name));
  }
  cf.addSpace('ENG');
  for (const t of ['Design', 'Runbook', 'Postmortem']) cf.putPage('ENG', t, `<p>${para(t)}</p>`);
  for (let i = 1; i <= 3; i++) jira.putIssue(`ENG-${i}`, { summary: `Task ${i}`, description: para(`task ${i}`) });
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  await Promise.all([dbx?.stop(), box?.stop(), cf?.stop(), jira?.stop()]);
  untrust?.();
  restore('DROPBOX_API_URL', saved.dropbox);
  restore('BOX_API_URL', saved.box);
});

const runToEnd = async (workflowId: string) => (await flows.runCompleted(workflowId)).details;

const cases = () => [
  { type: 'dropbox', config: { remote_url: 'dropbox://Docs', token: dbx.token }, keys: ['alpha.txt', 'gamma.txt', 'sub/beta.md'], url: /^dropbox:\/\/Docs\// },
  { type: 'box', config: { remote_url: 'box://Docs', access_token: box.token }, keys: ['alpha.txt', 'gamma.txt', 'sub/beta.md'], url: /^box:\/\/Docs\// },
  { type: 'confluence', config: { url: cf.siteUrl, cloud: true, username: cf.username, api_token: cf.apiToken, spaces: ['ENG'] }, keys: null, url: new RegExp(`^${cf.siteUrl}/pages/\\d+$`) },
  { type: 'jira', config: { url: jira.url, cloud: true, username: jira.username, password: jira.apiToken, projects: ['ENG'] }, keys: ['ENG/ENG-1.txt', 'ENG/ENG-2.txt', 'ENG/ENG-3.txt'], url: new RegExp(`^${jira.url}/browse/ENG-\\d$`) },
];

test('sources dropbox, box, confluence, jira: run 1 processes all with data_source, run 2 skips all', { skip: NEEDS_LOCAL }, async () => {
  for (const k of cases()) {
    const src = await stack.call('POST', '/api/v1/sources/', { body: { name: `${k.type}-in`, type: k.type, config: k.config } });
    assert.equal(src.status, 200, src.text);
    const outDir = join(base, `${k.type}-out`);
    const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name: `${k.type}-out`, type: 'local', config: { remote_url: outDir } } });
    assert.equal(dest.status, 200, dest.text);
    const wf = await stack.call('POST', '/api/v1/workflows/', { body: { name: `${k.type}-wf`, workflow_type: 'custom', workflow_nodes: nodes, source_id: src.body.id, destination_id: dest.body.id } });
    assert.equal(wf.status, 200, wf.text);

    const first = await runToEnd(wf.body.id);
    assert.equal(first.source_documents.listed, 3, `${k.type}: ${JSON.stringify(first)}`);
    assert.equal(first.source_documents.processed, 3, k.type);
    // confluence documents are <space key>/<page id>.html
    const keys = k.keys ?? readdirSync(join(outDir, 'ENG')).map((f) => `ENG/${f.replace(/\.json$/, '')}`);
    assert.equal(keys.length, 3, k.type);
    for (const key of keys) {
      const elements = JSON.parse(readFileSync(join(outDir, `${key}.json`), 'utf8')) as { metadata: { data_source?: Record<string, any> } }[];
      assert.ok(elements.length > 0, `${k.type} ${key}`);
      for (const e of elements) {
        const ds = e.metadata.data_source!;
        assert.match(ds.url, k.url, `${k.type} ${key} url`);
        assert.ok(ds.version, `${k.type} ${key} version`);
        assert.ok(ds.record_locator && Object.keys(ds.record_locator).length > 0, `${k.type} ${key} record_locator`);
        assert.ok(ds.date_processed, `${k.type} ${key} date_processed`);
      }
    }

    const second = await runToEnd(wf.body.id);
    assert.equal(second.source_documents.processed, 0, `${k.type}: ${JSON.stringify(second.source_documents)}`);
    assert.equal(second.source_documents.unchanged_skipped, 3, k.type);
  }
});
