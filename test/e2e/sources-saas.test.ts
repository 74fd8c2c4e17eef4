// Sources gcs, google_drive, slack and zendesk through the HTTP API, each against its
// stand-in: source → partition (fast) → local destination, run twice. Run 1 processes every
// document and its elements carry metadata.data_source (url, version, record_locator); run 2 finds
// nothing changed and processes none (source_documents.unchanged_skipped = all).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows } from '../support/e2e-flows';
import { makeServiceAccount, startGcsStandIn, type GcsStandIn } from '../../lambdas/connectors/gcs/test-server';
import { startDriveStandIn, type DriveStandIn } from '../../lambdas/connectors/google-drive/test-server';
import { startSlackStandIn, type SlackStandIn } from '../../lambdas/connectors/slack/test-server';
import { startZendeskStandIn, type ZendeskStandIn } from '../../lambdas/connectors/zendesk/test-server';

let stack: TestStack;
const flows = e2eFlows(() => stack);
let gcs: GcsStandIn;
let drive: DriveStandIn;
let slack: SlackStandIn;
let zd: ZendeskStandIn;
const sa = makeServiceAccount('e2e@test-project.iam.gserviceaccount.com');
const base = mkdtempSync(join(tmpdir(), 'wps-src-saas-'));
const saved: Record<string, string | undefined> = {};
const nodes = [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }];
const text = (title: string) => `${title}\n\nA short paragraph about ${title}, long enough to be a narrative text element of its own.\n`;

function setEnv(vars: Record<string, string>) {
  for (const [k, v] of Object.entries(vars)) {
    if (!(k in saved)) saved[k] = process.env[k];
    process.env[k] = v;
  }
}

before(async () => {
  if (NEEDS_LOCAL) return;
  gcs = await startGcsStandIn({ accounts: [sa], buckets: ['e2e-bucket'], pageSize: 2 });
  for (const n of ['a', 'b', 'c']) gcs.put('e2e-bucket', `in/${n}.txt`, text(`GCS ${n}`), 'text/plain');
  drive = await startDriveStandIn({ accounts: [sa], pageSize: 2 });
  drive.folder('e2eRoot', 'Team');
  drive.file({ id: 'dTxt', name: 'memo.txt', mimeType: 'text/plain', parents: ['e2eRoot'], data: Buffer.from(text('Drive memo')) });
  drive.folder('e2eSub', 'sub', 'e2eRoot');
  drive.file({ id: 'dHtml', name: 'page.html', mimeType: 'text/html', parents: ['e2eSub'], data: Buffer.from(`<html><body><h1>Drive page</h1><p>${text('Drive page')}</p></body></html>`) });
  slack = await startSlackStandIn({ pageSize: 2 });
  slack.channel('C0E2E', 'e2e');
  const root = slack.post('C0E2E', new Date(Date.UTC(2026, 10, 20, 9)), 'Kickoff meeting notes for the quarterly planning');
  slack.reply('C0E2E', root.ts, new Date(Date.UTC(2026, 10, 20, 10)), 'Thanks, I added the budget section');
  slack.post('C0E2E', new Date(Date.UTC(2026, 10, 20, 11)), 'Lunch at noon?');
  slack.post('C0E2E', new Date(Date.UTC(2026, 10, 21, 9)), 'Retrospective tomorrow morning');
  zd = await startZendeskStandIn({ email: 'agent@example.com', apiToken: 'zd-token', pageSize: 2 });
  zd.ticket(1, 'Printer on fire', 'The printer in room 4 is on fire since this morning.', ['Have you tried turning it off and on again?']);
  zd.ticket(2, 'Password reset', 'I cannot log in after the password reset email expired.');
  zd.article(101, 'How to reset your password', '<p>Open the login page and follow the reset link.</p>');
  setEnv({ GCS_API_ENDPOINT: gcs.url, GOOGLE_DRIVE_API_ENDPOINT: drive.url, GOOGLE_OAUTH_TOKEN_URL: drive.tokenUrl, SLACK_API_URL: slack.url, ZENDESK_BASE_URL: zd.url });
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  await gcs?.stop();
  await drive?.stop();
  await slack?.stop();
  await zd?.stop();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(base, { recursive: true, force: true });
});

const runToEnd = async (workflowId: string) => (await flows.runCompleted(workflowId)).details;

/** Creates source, local destination and workflow; runs twice; returns the output elements by file. */
async function twoRuns(type: string, config: Record<string, unknown>, documents: number): Promise<Map<string, any[]>> {
  const src = await stack.call('POST', '/api/v1/sources/', { body: { name: `${type}-src`, type, config } });
  assert.equal(src.status, 200, src.text);
  const outDir = join(base, type);
  mkdirSync(outDir);
  const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name: `${type}-out`, type: 'local', config: { remote_url: outDir } } });
  assert.equal(dest.status, 200, dest.text);
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: `${type}-wf`, workflow_type: 'custom', workflow_nodes: nodes, source_id: src.body.id, destination_id: dest.body.id },
  });
  assert.equal(wf.status, 200, wf.text);
  const d1 = await runToEnd(wf.body.id);
  assert.equal(d1.source_documents.listed, documents, JSON.stringify(d1.source_documents));
  assert.equal(d1.source_documents.processed, documents);
  const out = new Map<string, any[]>();
  const walk = (dir: string, rel = '') => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name), `${rel}${e.name}/`);
      else out.set(`${rel}${e.name}`, JSON.parse(readFileSync(join(dir, e.name), 'utf8')));
    }
  };
  walk(outDir);
  assert.equal(out.size, documents, [...out.keys()].join(', '));
  const d2 = await runToEnd(wf.body.id);
  assert.equal(d2.source_documents.processed, 0, JSON.stringify(d2.source_documents));
  assert.equal(d2.source_documents.unchanged_skipped, documents);
  return out;
}

test('gcs source: every object partitioned with its data_source; the second run skips them all', { skip: NEEDS_LOCAL }, async () => {
  const out = await twoRuns('gcs', { remote_url: 'gs://e2e-bucket/in', service_account_key: sa.keyJson }, 3);
  const b = out.get('b.txt.json')!;
  assert.ok(b.length > 0);
  const o = gcs.object('e2e-bucket', 'in/b.txt')!;
  for (const el of b) {
    assert.equal(el.metadata.filename, 'b.txt');
    assert.equal(el.metadata.data_source.url, 'gs://e2e-bucket/in/b.txt');
    assert.equal(el.metadata.data_source.version, Buffer.from(`${o.generation}/1`).toString('base64'));
    assert.deepEqual(el.metadata.data_source.record_locator, { protocol: 'gs', remote_file_path: 'gs://e2e-bucket/in', file_id: `e2e-bucket/in/b.txt/${o.generation}` });
  }
});

test('google_drive source: the folder walked, each file partitioned under its name with its data_source; the second run skips them all', { skip: NEEDS_LOCAL }, async () => {
  const out = await twoRuns('google_drive', { drive_id: 'e2eRoot', service_account_key: sa.keyJson, recursive: true }, 2);
  const page = out.get('dHtml.json')!;
  assert.ok(page.some((el) => el.type === 'Title' && el.text === 'Drive page'), JSON.stringify(page.map((e) => e.type)));
  for (const el of page) {
    assert.equal(el.metadata.filename, 'page.html');
    assert.equal(el.metadata.data_source.url, 'https://drive.google.com/uc?id=dHtml&export=download');
    assert.equal(el.metadata.data_source.version, '1');
    assert.deepEqual(el.metadata.data_source.record_locator, { file_id: 'dHtml', drive_id: 'e2eRoot' });
  }
});

test('slack source: one XML document per channel and day, partitioned with its data_source; the second run skips them all', { skip: NEEDS_LOCAL }, async () => {
  const out = await twoRuns('slack', { token: slack.botToken, channels: ['C0E2E'] }, 2);
  const day = out.get('C0E2E-2026-11-20.json')!;
  assert.ok(day.some((el) => /Kickoff meeting notes/.test(el.text) && /added the budget section/.test(el.text)), JSON.stringify(day.map((e) => e.text)));
  for (const el of day) {
    assert.match(el.metadata.filename, /^[0-9a-f]{16}\.xml$/);
    assert.match(el.metadata.data_source.url, /^https:\/\/test-team\.slack\.com\/archives\/C0E2E\/p\d+$/);
    assert.match(el.metadata.data_source.version, /^\d+\.\d{6}$/);
    assert.equal(el.metadata.data_source.record_locator.channel, 'C0E2E');
    assert.equal(el.metadata.data_source.record_locator.day, '2026-11-20');
  }
});

test('zendesk source: tickets (with comments) and articles partitioned with their data_source; the second run skips them all', { skip: NEEDS_LOCAL }, async () => {
  const out = await twoRuns('zendesk', { subdomain: 'acme', email: 'agent@example.com', api_token: 'zd-token', item_type: 'all' }, 3);
  const ticket = out.get('tickets/1.txt.json')!;
  assert.ok(ticket.some((el) => /turning it off and on again/.test(el.text)), JSON.stringify(ticket.map((e) => e.text)));
  for (const el of ticket) {
    assert.equal(el.metadata.filename, '1.txt');
    assert.equal(el.metadata.data_source.url, `${zd.url}/api/v2/tickets/1.json`);
    assert.equal(el.metadata.data_source.version, zd.tickets.get(1)!.updated_at);
    assert.deepEqual(el.metadata.data_source.record_locator, { item_type: 'ticket', id: 1, subdomain: 'acme' });
  }
  const article = out.get('articles/101.html.json')!;
  assert.ok(article.some((el) => el.type === 'Title' && el.text === 'How to reset your password'), JSON.stringify(article));
});
