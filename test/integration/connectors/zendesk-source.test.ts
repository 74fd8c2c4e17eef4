// Zendesk source through the registry (REST API v2 with guardedFetch), against the stand-in (pages
// of 2): tickets and articles listed by cursor pagination to the end, the platform's ticket text
// with paged comments and article HTML, updated_at as version, data_source, 429 + Retry-After
// retried, a missing record failing with Zendesk's text, an off-instance next link refused, check
// with Zendesk's answer, the outbound policy.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFails, envScope, issuesWith, restoreAfter, withEnv } from '../../support/connector-tests';
import { checkConnection, listSourceObjects, outputConfig, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { startZendeskStandIn, type ZendeskStandIn } from '../../../lambdas/connectors/zendesk/test-server';
import { collect, untext } from './helpers';

const EMAIL = 'agent@example.com';
const TOKEN = 'zd-api-token-secret-123';
let zd: ZendeskStandIn;
const env = envScope(['ZENDESK_BASE_URL']);
const config = (over: Record<string, unknown> = {}) => validateConfig('source', 'zendesk', { subdomain: 'acme', email: EMAIL, api_token: TOKEN, ...over });

before(async () => {
  zd = await startZendeskStandIn({ email: EMAIL, apiToken: TOKEN, pageSize: 2 });
  zd.ticket(1, 'Printer on fire', 'The printer is on fire.', ['Have you tried turning it off?', 'It is off now.', 'Great.']);
  for (let i = 2; i <= 5; i++) zd.ticket(i, `Ticket ${i}`, `Description ${i}`);
  zd.article(101, 'How to reset', '<p>Press <b>reset</b>.</p>');
  zd.article(102, 'FAQ', '<p>Questions &amp; answers</p>');
  zd.article(103, 'Billing', '<p>Invoices</p>');
  env.set({ ZENDESK_BASE_URL: zd.url });
});
restoreAfter(env, () => zd);

test('config: item_type, subdomain and batch_size checked; the token masked', () => {
  const issues = issuesWith(config);
  assert.match(issues({ item_type: 'users' }), /body\.config\.item_type: item_type must be one of tickets, articles, all/);
  assert.match(issues({ subdomain: 'evil.com/x' }), /body\.config\.subdomain/);
  assert.match(issues({ batch_size: 500 }), /body\.config\.batch_size/);
  assert.equal(outputConfig('source', 'zendesk', config()).api_token, '**********');
});

test('list: tickets (default) and articles paged to the end, updated_at as version, data_source', async () => {
  const before = zd.calls.length;
  const tickets = await collect(listSourceObjects('zendesk', config()));
  assert.deepEqual(tickets.map((o) => o.key), ['tickets/1.txt', 'tickets/2.txt', 'tickets/3.txt', 'tickets/4.txt', 'tickets/5.txt']);
  const pages = zd.calls.slice(before).filter((c) => c.path === '/api/v2/tickets.json');
  assert.equal(pages.length, 3);
  assert.ok(pages.slice(1).every((c) => c.query.get('page[after]')) && pages.every((c) => c.user === `${EMAIL}/token`));
  const t1 = zd.tickets.get(1)!;
  assert.equal(tickets[0]!.filename, '1.txt');
  assert.equal(tickets[0]!.version, t1.updated_at);
  assert.deepEqual(tickets[0]!.dataSource, {
    url: `${zd.url}/api/v2/tickets/1.json`,
    version: t1.updated_at,
    record_locator: { item_type: 'ticket', id: 1, subdomain: 'acme' },
    date_created: String(Date.parse(t1.created_at) / 1000) + '.0',
    date_modified: String(Date.parse(t1.updated_at) / 1000) + '.0',
  });
  const all = await collect(listSourceObjects('zendesk', config({ item_type: 'all', batch_size: 1 })));
  assert.deepEqual(all.map((o) => o.key), ['articles/101.html', 'articles/102.html', 'articles/103.html', ...tickets.map((o) => o.key)]);
  assert.equal(all[0]!.filename, '101.html');
});

test('read: the platform\'s ticket text with every comment (paged) and the article HTML; a new comment changes the version', async () => {
  const t1 = zd.tickets.get(1)!;
  const py = (iso: string) => iso.replace('T', ' ').replace('Z', '+00:00');
  const text = untext(await readSourceObject('zendesk', config(), 'tickets/1.txt'));
  const c = t1.comments;
  assert.equal(
    text,
    `ticket\ncreated_at: ${py(t1.created_at)}\ndescription: The printer is on fire.\nid: 1\nsubject: Printer on fire\n` +
      c.map((x) => `comment\nauthor_id: ${x.author_id}\nbody: ${x.body}\ncreated_at: ${py(x.created_at)}\nid: ${x.id}\n`).join(''),
  );
  assert.ok(zd.calls.filter((x) => x.path === '/api/v2/tickets/1/comments.json').length >= 2, 'comments paged');
  assert.equal(untext(await readSourceObject('zendesk', config(), 'articles/101.html')), "<body class='Document' ><h1>How to reset</h1><p>Press <b>reset</b>.</p></body>");

  const v1 = (await collect(listSourceObjects('zendesk', config()))).find((o) => o.key === 'tickets/2.txt')!.version;
  zd.comment(2, 'A follow-up');
  const v2 = (await collect(listSourceObjects('zendesk', config()))).find((o) => o.key === 'tickets/2.txt')!.version;
  assert.notEqual(v2, v1);
  assert.match(untext(await readSourceObject('zendesk', config(), 'tickets/2.txt')), /body: A follow-up\n/);
});

test('throttling: a 429 with Retry-After on a page and on a read is retried', async () => {
  const limited = { status: 429, headers: { 'retry-after': '1' }, body: { error: 'APIRateLimitExceeded', description: 'Number of allowed API requests per minute exceeded' } };
  zd.fail({ ...limited, match: (c) => c.path === '/api/v2/tickets.json' && Boolean(c.query.get('page[after]')) });
  const started = Date.now();
  assert.equal((await collect(listSourceObjects('zendesk', config()))).length, 5);
  assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
  zd.fail({ ...limited, match: (c) => c.path === '/api/v2/tickets/3.json' });
  zd.fail({ status: 503, body: { error: 'ServiceUnavailable' }, match: (c) => c.path === '/api/v2/tickets/3.json' });
  assert.match(untext(await readSourceObject('zendesk', config(), 'tickets/3.txt')), /^ticket\n/);
  assert.equal(zd.calls.filter((c) => c.path === '/api/v2/tickets/3.json').map((c) => c.status).slice(-3).join(','), '429,503,200');
});

test('read failures: a missing record carries Zendesk\'s text; a next link off the instance is refused', async () => {
  await assert.rejects(readSourceObject('zendesk', config(), 'tickets/999.txt'), { message: 'Zendesk GET /api/v2/tickets/999.json failed: RecordNotFound: Not found (HTTP 404)' });
  await assert.rejects(readSourceObject('zendesk', config(), '../x'), /invalid Zendesk document key/);
  zd.fail({ status: 200, body: { tickets: [], meta: { has_more: true }, links: { next: 'https://attacker.example/steal' } }, match: (c) => c.path === '/api/v2/tickets.json' });
  const before = zd.calls.length;
  await assert.rejects(collect(listSourceObjects('zendesk', config())), /the next page link leaves 127\.0\.0\.1:\d+; refused/);
  assert.equal(zd.calls.length, before + 1);
});

test('check: the platform\'s HEAD /groups.json with the credentials; failures never show the token', async () => {
  const ok = await checkConnection('source', 'zendesk', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, `authenticated to acme.zendesk.com as ${EMAIL}`);
  const bad = await checkConnection('source', 'zendesk', config({ api_token: 'wrong-token-456' }));
  assert.equal(bad.status, 'FAILURE');
  assert.equal(bad.reason, 'Zendesk authentication failed (HEAD /api/v2/groups.json: Unauthorized, HTTP 401)');
  const list = collect(listSourceObjects('zendesk', config({ api_token: 'wrong-token-456' })));
  await assert.rejects(list, { message: "Zendesk authentication failed (GET /api/v2/tickets.json: Couldn't authenticate you, HTTP 401)" });
});

test('outbound policy: an instance resolving to loopback is refused; nothing arrives', async () => {
  await withEnv({ CONNECTORS_DENY_PRIVATE_NETWORKS: 'true', ZENDESK_BASE_URL: `http://localhost:${zd.port}` }, async () => {
    const before = zd.calls.length;
    await checkFails('source', 'zendesk', config(), /^Zendesk connect refused: host localhost resolves to a private network address/);
    await assert.rejects(collect(listSourceObjects('zendesk', config())), /private network address/);
    await assert.rejects(readSourceObject('zendesk', config(), 'tickets/1.txt'), /private network address/);
    assert.equal(zd.calls.length, before);
  });
});
