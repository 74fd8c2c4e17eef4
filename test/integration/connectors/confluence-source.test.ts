// Confluence source through the registry against the stand-in speaking Confluence Cloud's REST API v2
// as the platform's connector calls it (there is no official Node client: documented REST through
// the guarded fetch): the check (first space, configured spaces) with Confluence's own error text,
// spaces and pages paged through _links.next cursors to the end (page size 2), the per-space cap,
// a 429 with Retry-After retried, the page's view HTML as the platform writes it, version.number
// as version (changes with an edit), data_source fields, an unreadable page failing with
// Confluence's text, the outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFails, issuesWith, withEnv } from '../../support/connector-tests';
import { checkConnection, listSourceObjects, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { startConfluenceStandIn, type ConfluenceStandIn } from '../../../lambdas/connectors/confluence/test-server';
import { collect, untext } from './helpers';
import { trustStandIns } from '../../support/stand-in-ca';

let cf: ConfluenceStandIn;
const ids: Record<string, string> = {};
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'confluence', { url: cf.siteUrl, cloud: true, username: cf.username, api_token: cf.apiToken, ...over });

let untrust: (() => void) | undefined;
before(async () => {
  untrust = trustStandIns(); // the stand-in serves TLS: credentials go over TLS only
  cf = await startConfluenceStandIn({ pageSize: 2 });
  for (const key of ['ENG', 'OPS', 'HR']) cf.addSpace(key);
  for (let i = 1; i <= 5; i++) ids[`eng-${i}`] = cf.putPage('ENG', `Design ${i}`, `<p>design note ${i}</p>`);
  ids.ops = cf.putPage('OPS', 'Runbook <ops> & more', '<h2>Steps</h2><p>restart</p>');
});
after(async () => {
  untrust?.();
  await cf?.stop();
});

test('config: one form of auth, the platform defaults, secrets masked', () => {
  const c = config();
  assert.equal(c.max_num_of_docs_from_each_space, 150);
  assert.equal(c.max_num_of_spaces, 500);
  const issues = issuesWith(config);
  assert.match(issues({ password: 'p' }), /both password and api_token provided/);
  assert.match(issues({ api_token: undefined }), /no form of auth provided/);
  assert.match(issues({ cloud: false, token: 'pat' }), /mutually exclusive/);
  assert.match(issues({ url: 'not a url' }), /body\.config\.url: url must be an http\(s\) URL/);
});

test('check: SUCCESS with an API token or a PAT; FAILURE with Confluence text, never the secret', async () => {
  const ok = await checkConnection('source', 'confluence', config({ spaces: ['ENG', 'OPS'] }));
  assert.deepEqual(ok, { status: 'SUCCESS', reason: 'spaces ENG, OPS found' });
  const pat = await checkConnection('source', 'confluence', config({ cloud: false, url: `${cf.siteUrl}/wiki`, api_token: undefined, token: cf.pat }));
  assert.equal(pat.status, 'SUCCESS', pat.reason);
  const bad = await checkConnection('source', 'confluence', config({ api_token: 'wrong-api-token' }));
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason!, /confluence space listing failed: HTTP 401: Unauthorized; scope does not match/);
  assert.ok(!bad.reason!.includes('wrong-api-token'));
  const missing = await checkConnection('source', 'confluence', config({ spaces: ['NOPE'] }));
  assert.equal(missing.status, 'FAILURE');
  assert.match(missing.reason!, /failed to find 'NOPE' space/);
});

test('list: spaces and pages paged through cursors to the end; one document per page with data_source', async () => {
  const before = cf.calls.length;
  const objs = await collect(listSourceObjects('confluence', config()));
  const calls = cf.calls.slice(before);
  assert.ok(calls.filter((c) => c.path === '/wiki/api/v2/spaces' && c.query.get('cursor')).length >= 1, 'spaces paged');
  assert.ok(calls.filter((c) => c.path === '/wiki/api/v2/pages' && c.query.get('cursor')).length >= 2, 'ENG pages read in 3 pages');
  assert.deepEqual(objs.map((o) => o.key).sort(), [...[1, 2, 3, 4, 5].map((i) => `ENG/${ids[`eng-${i}`]}.html`), `OPS/${ids.ops}.html`].sort());
  const o = objs.find((x) => x.key === `ENG/${ids['eng-1']}.html`)!;
  assert.equal(o.filename, `${ids['eng-1']}.html`);
  assert.equal(o.version, '1');
  assert.equal(o.dataSource!.url, `${cf.siteUrl}/pages/${ids['eng-1']}`);
  assert.deepEqual(o.dataSource!.record_locator, { space_id: 'ENG', document_id: ids['eng-1'] });
  assert.ok(Number(o.dataSource!.date_modified) > Number(o.dataSource!.date_created));

  const capped = await collect(listSourceObjects('confluence', config({ spaces: ['ENG'], max_num_of_docs_from_each_space: 3 })));
  assert.equal(capped.length, 3, 'max_num_of_docs_from_each_space honoured');
});

test('throttling: a 429 with Retry-After on a page of results is retried and the listing completes', async () => {
  cf.fail({ status: 429, headers: { 'retry-after': '1' }, body: { errors: [{ status: 429, code: 'TOO_MANY_REQUESTS', title: 'Rate limited', detail: null }] }, match: (c) => c.path === '/wiki/api/v2/pages' && Boolean(c.query.get('cursor')) });
  const before = cf.calls.length;
  const objs = await collect(listSourceObjects('confluence', config({ spaces: ['ENG'] })));
  assert.equal(objs.length, 5);
  assert.ok(cf.calls.slice(before).some((c) => c.status === 429), 'the stand-in answered 429 once');
});

test('a listing that would page forever (the same next link twice) fails with the reason', async () => {
  cf.fail({ status: 200, body: { results: [], _links: { next: '/wiki/api/v2/pages?space-id=1&cursor=loop' } }, match: (c) => c.path === '/wiki/api/v2/pages', times: 2 });
  await assert.rejects(collect(listSourceObjects('confluence', config({ spaces: ['ENG'] }))), /confluence page listing of space ENG: the service returned a page cursor it had already returned/);
});

test('read: the view HTML with the title as <h1>; version changes with an edit', async () => {
  const html = untext(await readSourceObject('confluence', config(), `OPS/${ids.ops}.html`));
  assert.equal(html, "<body class='Document' ><h1>Runbook &#60;ops&#62; &#38; more</h1><h2>Steps</h2><p>restart</p></body>");
  cf.putPage('ENG', 'Design 2', '<p>design note 2, revised</p>');
  const v = (await collect(listSourceObjects('confluence', config({ spaces: ['ENG'] })))).find((x) => x.key === `ENG/${ids['eng-2']}.html`)!;
  assert.equal(v.version, '2');
  assert.match(untext(await readSourceObject('confluence', config(), `ENG/${ids['eng-2']}.html`)), /design note 2, revised/);
});

test('read: an unreadable or vanished page throws with Confluence text; malformed keys refused', async () => {
  cf.denyPage(ids['eng-3']!, 403, 'FORBIDDEN', 'You do not have permission to view this page');
  await assert.rejects(readSourceObject('confluence', config(), `ENG/${ids['eng-3']}.html`), /confluence page \d+ failed: HTTP 403: FORBIDDEN: You do not have permission to view this page/);
  await assert.rejects(readSourceObject('confluence', config(), 'ENG/999999.html'), /HTTP 404: NOT_FOUND: Not Found/);
  await assert.rejects(readSourceObject('confluence', config(), '../x/1.html'), /invalid object key/);
});

test('outbound policy: a site name resolving to loopback is refused when private networks are denied', async () => {
  await withEnv({ CONNECTORS_DENY_PRIVATE_NETWORKS: 'true' }, async () => {
    const before = cf.calls.length;
    const c = config({ url: `https://localhost:${cf.port}` });
    await checkFails('source', 'confluence', c, /refused: host localhost resolves to a private network address/);
    await assert.rejects(collect(listSourceObjects('confluence', c)), /refused: host localhost resolves to a private network address/);
    assert.throws(() => config({ url: `https://127.0.0.1:${cf.port}` }), /private network address/);
    assert.equal(cf.calls.length, before, 'nothing reached the stand-in');
  });
});
