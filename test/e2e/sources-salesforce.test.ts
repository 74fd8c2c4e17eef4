// Salesforce source through the HTTP API against the Salesforce stand-in (JWT bearer login verified
// with the app's public key, SOQL pages of 2): source → partition (fast) → local destination, run
// twice. Run 1 processes every record (Campaign XML, EmailMessage EML) and the elements carry
// metadata.data_source (url, version, record_locator); run 2 finds nothing changed and processes
// none (source_documents.unchanged_skipped = all).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows } from '../support/e2e-flows';
import { float, startSalesforceStandIn, type SalesforceStandIn } from '../../lambdas/connectors/salesforce/test-server';

const KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const USER = 'e2e@acme.example';
let stack: TestStack;
const flows = e2eFlows(() => stack);
let sf: SalesforceStandIn;
let saved: string | undefined;
const out = mkdtempSync(join(tmpdir(), 'wps-src-salesforce-'));
const ids: Record<string, string> = {};

before(async () => {
  if (NEEDS_LOCAL) return;
  sf = await startSalesforceStandIn({ consumerKey: 'e2e-consumer', publicKey: KEY, usernames: [USER], pageSize: 2 });
  ids.c1 = sf.add('Campaign', { IsDeleted: false, Name: 'Spring product webinar', Status: 'Planned', ExpectedRevenue: float('250000.0'), NumberOfLeads: 3 });
  ids.c2 = sf.add('Campaign', { IsDeleted: false, Name: 'Autumn trade fair', Status: 'Completed', ExpectedRevenue: float('90000.0'), NumberOfLeads: 12 });
  ids.c3 = sf.add('Campaign', { IsDeleted: false, Name: 'Winter newsletter', Status: 'Aborted', ExpectedRevenue: null, NumberOfLeads: 0 });
  ids.e1 = sf.add('EmailMessage', {
    Subject: 'Webinar follow-up',
    FromAddress: 'events@acme.example',
    ToAddress: 'jane@customer.example',
    TextBody: 'Thank you for attending the spring product webinar. The recording and the slides are attached to this message for your team.',
    HtmlBody: '<p>Thank you for attending the spring product webinar.</p>',
    MessageDate: '2026-03-03T10:15:00.000+0000',
    MessageIdentifier: '<webinar-42@acme.example>',
  });
  saved = process.env.SALESFORCE_LOGIN_URL;
  process.env.SALESFORCE_LOGIN_URL = sf.loginUrl;
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  await sf?.stop();
  if (saved === undefined) delete process.env.SALESFORCE_LOGIN_URL;
  else process.env.SALESFORCE_LOGIN_URL = saved;
  rmSync(out, { recursive: true, force: true });
});

const runToEnd = async (workflowId: string) => (await flows.runCompleted(workflowId)).details;

test('salesforce source: Campaign and EmailMessage records partitioned with their data_source; the second run skips them all', { skip: NEEDS_LOCAL }, async () => {
  const config = { categories: ['Campaign', 'EmailMessage'], consumer_key: 'e2e-consumer', private_key: KEY, username: USER };
  const bad = await stack.call('POST', '/api/v1/sources/', { body: { name: 'sf-bad', type: 'salesforce', config: { ...config, categories: ['Opportunity'] } } });
  assert.equal(bad.status, 422, bad.text);
  assert.match(bad.text, /accepted: Account, Case, Campaign, EmailMessage, Lead/);
  const src = await stack.call('POST', '/api/v1/sources/', { body: { name: 'sf-src', type: 'salesforce', config } });
  assert.equal(src.status, 200, src.text);
  assert.equal(src.body.config.private_key, '**********');
  const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name: 'sf-out', type: 'local', config: { remote_url: out } } });
  assert.equal(dest.status, 200, dest.text);
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: {
      name: 'sf-wf',
      workflow_type: 'custom',
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
      source_id: src.body.id,
      destination_id: dest.body.id,
    },
  });
  assert.equal(wf.status, 200, wf.text);

  const d1 = await runToEnd(wf.body.id);
  assert.equal(d1.source_documents.listed, 4, JSON.stringify(d1.source_documents));
  assert.equal(d1.source_documents.processed, 4);
  const read = (dir: string, file: string) => JSON.parse(readFileSync(join(out, dir, file), 'utf8')) as any[];
  assert.deepEqual(readdirSync(join(out, 'Campaign')).sort(), [ids.c1, ids.c2, ids.c3].map((id) => `${id}.xml.json`).sort());
  const campaign = read('Campaign', `${ids.c1}.xml.json`);
  assert.ok(campaign.some((el) => el.text === 'Name: Spring product webinar'), JSON.stringify(campaign.map((e) => e.text)));
  assert.ok(campaign.some((el) => el.text === 'ExpectedRevenue: 250000.0'));
  const r = sf.records.get('Campaign')!.get(ids.c1!)!;
  for (const el of campaign) {
    assert.equal(el.metadata.filename, `${ids.c1}.xml`);
    assert.equal(el.metadata.data_source.url, `/services/data/v57.0/sobjects/Campaign/${ids.c1}`);
    assert.equal(el.metadata.data_source.version, `${Date.parse(String(r.SystemModstamp).replace('+0000', 'Z')) / 1000}.0`);
    assert.deepEqual(el.metadata.data_source.record_locator, { id: ids.c1 });
  }
  const email = read('EmailMessage', `${ids.e1}.eml.json`);
  // The .eml partitioner takes the HTML part when there is one.
  assert.deepEqual(email.map((e) => e.text), ['Thank you for attending the spring product webinar.']);
  assert.equal(email[0].metadata.subject, 'Webinar follow-up');
  assert.deepEqual(email[0].metadata.data_source.record_locator, { id: ids.e1 });

  const d2 = await runToEnd(wf.body.id);
  assert.equal(d2.source_documents.processed, 0, JSON.stringify(d2.source_documents));
  assert.equal(d2.source_documents.unchanged_skipped, 4);
});
