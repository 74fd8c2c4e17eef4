// Salesforce source through the registry (JWT bearer login + SOQL over the REST API with the
// outbound-guarded fetch), against the stand-in (pages of 2, assertion signatures verified with the
// connected app's public key): categories listed to the end through nextRecordsUrl, the platform's
// XML and EML documents, SystemModstamp as version, data_source, 429/503/403 REQUEST_LIMIT_EXCEEDED
// retried (Retry-After honoured), an expired session renewed once, unreadable records failing with
// Salesforce's text, checks with Salesforce's text and never the key, and the outbound policy on
// the login host and on the instance_url the token answer names.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { resetConfig } from '../../../lambdas/config';
import { checkConnection, listSourceObjects, outputConfig, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { float, startSalesforceStandIn, type SalesforceStandIn } from '../../../lambdas/connectors/salesforce/test-server';
import { collect, untext } from './helpers';

const pem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const KEY = pem();
const OTHER_KEY = pem();
const CONSUMER = '3MVG9STANDINconsumerKey';
const USER = 'integration@acme.example';
let sf: SalesforceStandIn;
const campaigns: string[] = [];
let emailId = '';
const saved: Record<string, string | undefined> = {};
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'salesforce', { categories: ['Campaign', 'EmailMessage'], consumer_key: CONSUMER, private_key: KEY, username: USER, ...over });
const setLogin = (url: string) => {
  process.env.SALESFORCE_LOGIN_URL = url;
  resetConfig();
};
const secretsAbsent = (s: string | undefined) => {
  assert.ok(!String(s).includes('PRIVATE KEY') && !String(s).includes(KEY.split('\n')[1]!), 'no key material');
  assert.ok(!/00DSTANDIN!/.test(String(s)), 'no access token');
};

before(async () => {
  for (const k of ['SALESFORCE_LOGIN_URL', 'CONNECTORS_DENY_PRIVATE_NETWORKS']) saved[k] = process.env[k];
  sf = await startSalesforceStandIn({ consumerKey: CONSUMER, publicKey: KEY, usernames: [USER], pageSize: 2 });
  for (let i = 1; i <= 5; i++) {
    campaigns.push(sf.add('Campaign', { IsDeleted: false, Name: `Webinar ${i} & friends`, ParentId: null, ExpectedRevenue: float('3000000.0'), NumberOfLeads: 0, IsActive: i % 2 === 1 }));
  }
  emailId = sf.add('EmailMessage', {
    Subject: 'Quarterly numbers',
    FromAddress: 'ceo@acme.example',
    ToAddress: 'board@acme.example',
    TextBody: 'Numbers are up.\nSee you Monday.',
    HtmlBody: '<p>Numbers are up.</p>',
    MessageDate: '2026-03-01T08:30:00.000+0000',
    MessageIdentifier: '<abc123@acme.example>',
  });
  setLogin(sf.loginUrl);
});
after(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
  await sf?.stop();
});

test('config: categories outside the platform\'s list are a 422 naming the accepted ones; a non-PEM key is refused unechoed; the key is masked', () => {
  const issues = (over: Record<string, unknown>) => {
    try {
      config(over);
      return [];
    } catch (e: any) {
      return e.issues as { loc: (string | number)[]; msg: string; input?: unknown }[];
    }
  };
  const cat = issues({ categories: ['Campaign', 'Opportunity'] });
  assert.deepEqual(cat.map((i) => [i.loc.join('.'), i.msg]), [['body.config.categories.1', '"Opportunity" is not an accepted Salesforce category (accepted: Account, Case, Campaign, EmailMessage, Lead)']]);
  assert.match(issues({ categories: [] })[0]!.msg, /at least one of Account, Case, Campaign, EmailMessage, Lead/);
  const bad = issues({ private_key: 'not-a-key-SECRETKEYMATERIAL123' });
  assert.equal(bad[0]!.loc.join('.'), 'body.config.private_key');
  assert.ok(!JSON.stringify(bad).includes('SECRETKEYMATERIAL123'), JSON.stringify(bad));
  assert.equal(outputConfig('source', 'salesforce', config()).private_key, '**********');
});

test('list: every category paged to the end through nextRecordsUrl; SystemModstamp as version; the platform\'s data_source; a verified JWT', async () => {
  const before = sf.calls.length;
  const objs = await collect(listSourceObjects('salesforce', config()));
  assert.deepEqual(objs.map((o) => o.key), [...campaigns.map((id) => `Campaign/${id}.xml`), `EmailMessage/${emailId}.eml`]);
  const calls = sf.calls.slice(before);
  assert.equal(calls.filter((c) => /^\/services\/data\/v57\.0\/query\/01g/.test(c.path)).length, 2, 'campaign pages 2 and 3 through nextRecordsUrl');
  assert.equal(calls.filter((c) => c.path === '/services/data/v57.0/query').map((c) => c.query.get('q')).join(' | '),
    'select Id, SystemModstamp, CreatedDate, LastModifiedDate from Campaign | select Id, SystemModstamp, CreatedDate, LastModifiedDate from EmailMessage');
  const r = sf.records.get('Campaign')!.get(campaigns[0]!)!;
  const epoch = (s: unknown) => `${Date.parse(String(s).replace('+0000', 'Z')) / 1000}.0`;
  assert.equal(objs[0]!.filename, `${campaigns[0]}.xml`);
  assert.equal(objs[5]!.filename, `${emailId}.eml`);
  assert.equal(objs[0]!.version, epoch(r.SystemModstamp));
  assert.deepEqual(objs[0]!.dataSource, {
    url: `/services/data/v57.0/sobjects/Campaign/${campaigns[0]}`,
    version: epoch(r.SystemModstamp),
    record_locator: { id: campaigns[0] },
    date_created: epoch(r.CreatedDate),
    date_modified: epoch(r.LastModifiedDate),
  });
  const claims = sf.assertions.at(-1)!;
  assert.equal(claims.iss, CONSUMER);
  assert.equal(claims.sub, USER);
  assert.equal(claims.aud, sf.loginUrl);
  assert.ok(Number(claims.exp) > Date.now() / 1000 && Number(claims.exp) <= Date.now() / 1000 + 180);
});

test('read: FIELDS(STANDARD) of the record as the platform\'s XML (floats as Salesforce wrote them) and EML; an update changes version and bytes', async () => {
  const id = campaigns[1]!;
  const r = sf.records.get('Campaign')!.get(id)!;
  const xml = untext(await readSourceObject('salesforce', config(), `Campaign/${id}.xml`));
  assert.equal(
    xml,
    "<?xml version='1.0' encoding='utf-8'?>\n<root>" +
      [`attributes.type: Campaign`, `attributes.url: /services/data/v57.0/sobjects/Campaign/${id}`, `Id: ${id}`, 'IsDeleted: False', 'Name: Webinar 2 &amp; friends', 'ParentId: None', 'ExpectedRevenue: 3000000.0', 'NumberOfLeads: 0', 'IsActive: False',
        `CreatedDate: ${r.CreatedDate}`, `LastModifiedDate: ${r.LastModifiedDate}`, `SystemModstamp: ${r.SystemModstamp}`].map((t) => `<item>${t}</item>`).join('') +
      '</root>',
  );
  assert.equal(sf.calls.at(-1)!.query.get('q'), `select FIELDS(STANDARD) from Campaign where Id='${id}'`);
  const eml = untext(await readSourceObject('salesforce', config(), `EmailMessage/${emailId}.eml`));
  assert.equal(
    eml,
    'MIME-Version: 1.0\nDate: Sun, 01 Mar 2026 08:30:00 -0000\nMessage-ID: <abc123@acme.example>\nSubject: Quarterly numbers\nFrom: ceo@acme.example\nTo: board@acme.example\n' +
      'Content-Type: multipart/alternative; boundary="00000000000095c9b205eff92630"\n\n--00000000000095c9b205eff92630\nContent-Type: text/plain; charset="UTF-8"\n\nNumbers are up.\nSee you Monday.\n' +
      '--00000000000095c9b205eff92630\nContent-Type: text/html; charset="UTF-8"\n\n<p>Numbers are up.</p>\n--00000000000095c9b205eff92630--\n',
  );

  const version = async () => (await collect(listSourceObjects('salesforce', config({ categories: ['Campaign'] })))).find((o) => o.key === `Campaign/${id}.xml`)!.version;
  const v1 = await version();
  sf.update('Campaign', id, { Name: 'Webinar 2 renamed' });
  assert.notEqual(await version(), v1);
  assert.match(untext(await readSourceObject('salesforce', config(), `Campaign/${id}.xml`)), /<item>Name: Webinar 2 renamed<\/item>/);
});

test('throttling: 429 with Retry-After on a page, 503 and 403 REQUEST_LIMIT_EXCEEDED on a read are retried', async () => {
  sf.fail({ status: 429, headers: { 'retry-after': '1' }, body: [{ message: 'Too many requests', errorCode: 'REQUEST_LIMIT_EXCEEDED' }], match: (c) => /\/query\/01g/.test(c.path) });
  const started = Date.now();
  assert.equal((await collect(listSourceObjects('salesforce', config({ categories: ['Campaign'] })))).length, 5);
  assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
  const id = campaigns[2]!;
  const isRead = (c: { query: URLSearchParams }) => Boolean(c.query.get('q')?.includes(`Id='${id}'`));
  sf.fail({ status: 503, body: [{ message: 'Server unavailable', errorCode: 'SERVER_UNAVAILABLE' }], match: isRead });
  sf.fail({ status: 403, headers: { 'retry-after': '0' }, body: [{ message: 'ConcurrentPerOrgLongTxn Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }], match: isRead });
  assert.match(untext(await readSourceObject('salesforce', config(), `Campaign/${id}.xml`)), /<item>Name: Webinar 3 &amp; friends<\/item>/);
  assert.deepEqual(sf.calls.filter(isRead).map((c) => c.status), [503, 403, 200]);
});

test('session: an expired session is renewed once (a new JWT login); a 401 after renewal fails with Salesforce\'s text', async () => {
  await collect(listSourceObjects('salesforce', config({ categories: ['EmailMessage'] })));
  const logins = () => sf.calls.filter((c) => c.path === '/services/oauth2/token').length;
  const before = logins();
  sf.expireSessions();
  assert.equal((await collect(listSourceObjects('salesforce', config({ categories: ['EmailMessage'] })))).length, 1);
  assert.equal(logins(), before + 1);
  const expired = { status: 401, body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }], match: (c: { path: string }) => c.path === '/services/data/v57.0/query', times: 2 };
  sf.fail(expired);
  await assert.rejects(collect(listSourceObjects('salesforce', config({ categories: ['EmailMessage'] }))), {
    message: 'Salesforce listing of EmailMessage failed: INVALID_SESSION_ID: Session expired or invalid (HTTP 401)',
  });
  assert.equal(logins(), before + 2, 'renewed once, not in a loop');
});

test('read failures: a record gone since the listing, a 403 from Salesforce, a key that is no record', async () => {
  const gone = sf.add('Campaign', { Name: 'Short-lived' });
  sf.remove('Campaign', gone);
  await assert.rejects(readSourceObject('salesforce', config(), `Campaign/${gone}.xml`), {
    message: `Salesforce read of Campaign ${gone} failed: no record found with record id ${gone} (deleted since the listing, or not visible to ${USER})`,
  });
  sf.fail({ status: 403, body: [{ message: 'You do not have access to the Apex class named: Campaign', errorCode: 'INSUFFICIENT_ACCESS' }], match: (c) => Boolean(c.query.get('q')?.includes('FIELDS(STANDARD)')) });
  await assert.rejects(readSourceObject('salesforce', config(), `Campaign/${campaigns[0]}.xml`), {
    message: `Salesforce read of Campaign ${campaigns[0]} failed: INSUFFICIENT_ACCESS: You do not have access to the Apex class named: Campaign (HTTP 403)`,
  });
  for (const key of ['../x', `Opportunity/${campaigns[0]}.xml`, "Campaign/x' or Id!='.xml"]) await assert.rejects(readSourceObject('salesforce', config(), key), /invalid Salesforce document key/);
});

test('check: login and a query per category; Salesforce\'s own text on failure, never the key or the token', async () => {
  const ok = await checkConnection('source', 'salesforce', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, `authenticated to ${new URL(sf.url).host} as ${USER}; readable: Campaign, EmailMessage`);
  const cases: [Record<string, unknown>, string][] = [
    [{ private_key: OTHER_KEY }, 'Salesforce login failed: invalid_grant: invalid assertion (HTTP 400)'],
    [{ username: 'stranger@acme.example' }, "Salesforce login failed: invalid_grant: user hasn't approved this consumer (HTTP 400)"],
    [{ consumer_key: 'unknown-app' }, 'Salesforce login failed: invalid_client_id: client identifier invalid (HTTP 400)'],
  ];
  for (const [over, reason] of cases) {
    const r = await checkConnection('source', 'salesforce', config(over));
    assert.deepEqual([r.status, r.reason], ['FAILURE', reason]);
    secretsAbsent(r.reason);
  }
  sf.hidden.add('Lead');
  try {
    const r = await checkConnection('source', 'salesforce', config({ categories: ['Campaign', 'Lead'] }));
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /^Salesforce query of Lead failed: INVALID_TYPE: select Id from Lead limit 1 \^ ERROR at Row:1:Column:1 sObject type 'Lead' is not supported\./i);
    secretsAbsent(r.reason);
  } finally {
    sf.hidden.delete('Lead');
  }
});

test('outbound policy: the login host and the instance_url a token server names are both under the policy', async () => {
  // A hostile token server naming the metadata address as instance: refused before any call.
  const hostile = await startSalesforceStandIn({ consumerKey: CONSUMER, publicKey: KEY, usernames: [USER] });
  try {
    hostile.instanceUrl = 'http://169.254.169.254';
    setLogin(hostile.loginUrl);
    const r = await checkConnection('source', 'salesforce', config());
    assert.deepEqual([r.status, r.reason], ['FAILURE', 'Salesforce instance_url refused: host 169.254.169.254 is an instance metadata address (169.254.169.254), which the service never calls for a tenant']);
    await assert.rejects(collect(listSourceObjects('salesforce', config())), /Salesforce instance_url refused/);
    hostile.instanceUrl = 'ftp://files.example.com';
    assert.match((await checkConnection('source', 'salesforce', config())).reason!, /instance_url ftp:\/\/files\.example\.com is not https; refused/);
    // A nextRecordsUrl leaving the instance is refused (it would carry the token).
    hostile.instanceUrl = hostile.url;
    hostile.add('Lead', { LastName: 'One' });
    hostile.fail({ status: 200, body: { totalSize: 9, done: false, records: [], nextRecordsUrl: 'http://attacker.example/services/data/v57.0/query/01g-2' }, match: (c) => c.path === '/services/data/v57.0/query' });
    const before = hostile.calls.length;
    await assert.rejects(collect(listSourceObjects('salesforce', config({ categories: ['Lead'] }))), /"http:\/\/attacker\.example\/services\/data\/v57\.0\/query\/01g-2" is not a REST path of API v57\.0; refused/);
    assert.deepEqual(hostile.calls.slice(before).map((c) => c.path), ['/services/oauth2/token', '/services/data/v57.0/query'], 'a login and the first page only');

    // Under CONNECTORS_DENY_PRIVATE_NETWORKS a session won while allowed cannot reach an instance on a
    // name resolving to loopback (connect-time check), and the login host is refused alike.
    hostile.loginUrl = hostile.instanceUrl = `http://localhost:${hostile.port}`;
    hostile.closeConnections = true;
    setLogin(hostile.loginUrl);
    const allowed = await checkConnection('source', 'salesforce', config({ categories: ['Lead'] }));
    assert.equal(allowed.status, 'SUCCESS', allowed.reason);
    process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
    const arrived = hostile.calls.length;
    await assert.rejects(collect(listSourceObjects('salesforce', config({ categories: ['Lead'] }))), /Salesforce listing of Lead refused: host localhost resolves to a private network address/);
    await assert.rejects(readSourceObject('salesforce', config({ categories: ['Lead'] }), `Lead/${[...hostile.records.get('Lead')!.keys()][0]}.xml`), /private network address/);
    const r2 = await checkConnection('source', 'salesforce', config({ categories: ['Lead'] }));
    assert.match(r2.reason!, /^Salesforce login refused: host localhost resolves to a private network address/);
    assert.equal(hostile.calls.length, arrived, 'nothing arrived');
  } finally {
    if (saved.CONNECTORS_DENY_PRIVATE_NETWORKS === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved.CONNECTORS_DENY_PRIVATE_NETWORKS;
    setLogin(sf.loginUrl);
    await hostile.stop();
  }
});
