// Finding 7 (issue 27): every value that can carry a credential is masked in every response,
// whatever the config's shape. Played through the HTTP API of a keyed local stack: for EVERY
// registered connector type (source and destination) a config is built from the type's own schema,
// each secret field and every credential-shaped value (a URL with userinfo or a query token, extra
// keys such as Authorization and webhook_url, a headers map, a nested list) holding a sentinel; the
// sentinel must never come back from create, get, list or update, and an update that sends a
// response back unchanged keeps the stored secrets. Slack's free-form config is played on its own,
// and so are node settings (api_key, header maps, URLs with userinfo) in workflow responses and
// webhook channel URLs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { z } from 'zod';
import { CONNECTOR_DEFINITIONS } from '../../lambdas/connectors/types/index';
import type { ConnectorDefinition } from '../../lambdas/connectors/definition';
import { coreStore } from '../../lambdas/services/core';
import { connectorService } from '../../lambdas/services/connectors';
import { keys } from '../../lambdas/data/keys';
import { keyedStack, type Tenants } from './helpers';

const SENTINEL = 'S3NT1NEL';
let t: Tenants;
let n = 0;
const sentinel = () => `${SENTINEL}${String(++n).padStart(4, '0')}x`;
/** A real RSA key for types that parse theirs (salesforce): no sentinel fits inside, so its body is looked for. */
const PEM = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PEM_BODY = PEM.split('\n')[1]!;

before(async () => {
  t = await keyedStack();
});
after(async () => {
  await t?.stack.close();
});

const URL_SCHEMES = ['https', 's3', 'az', 'abfs', 'box', 'dropbox', 'gs', 'onedrive', 'mongodb', 'mongodb+srv', 'neo4j', 'bolt', 'redis', 'couchbase'];
const PLAIN: unknown[] = [
  'plain-value',
  'account1',
  's3://bucket/in/',
  'az://container/in',
  'abfs://container/in',
  'box://folder/',
  'dropbox://folder/',
  'gs://bucket/in/',
  'onedrive://folder/',
  'https://tenant.sharepoint.com/sites/docs',
  'https://host.example.com',
  'mongodb://host.example.com/db',
  'neo4j://host.example.com:7687',
  'neo4j+s://host.example.com:7687',
  'couchbase://host.example.com',
  'couchbases://host.example.com',
  'rediss://host.example.com:6380',
  'collection_1',
  'us-east-1',
  'es',
  'arn:aws:iam::123456789012:role/reader',
  '/sql/1.0/warehouses/abc123',
  false,
  1,
  10,
  100,
  1_000_000,
  15_000_000,
  true,
  ['plain-item'],
  ['Account'],
  // -- a host list where a credential needs TLS (a bare host is plain http for OpenSearch) --
  ['https://host.example.com:9200'],
];

/** Values the field's own schema accepts, best first: a sentinel for secrets, a credential-bearing URL where one fits. */
function candidatesFor(def: ConnectorDefinition, field: string, schema: z.ZodType): unknown[] {
  const candidates: unknown[] = [];
  // -- a secret some other secret excludes (token or client_secret) is left out next --
  if (def.secretFields.includes(field)) candidates.push(sentinel(), `mongodb://user:${sentinel()}@host.example.com/db`, PEM, undefined);
  else if (/url|uri|endpoint|host|site/i.test(field)) {
    for (const scheme of URL_SCHEMES) {
      candidates.push(`${scheme}://user:${sentinel()}@host.example.com/in/?token=${sentinel()}`, `${scheme}://user:${sentinel()}@host.example.com:7687`);
    }
  }
  candidates.push(...PLAIN, undefined);
  const fits = candidates.filter((c) => schema.safeParse(c).success);
  if (!fits.length) throw new Error(`${def.kind} ${def.type}: no candidate value fits field ${field}; add one to PLAIN`);
  return fits;
}

/** Keys the schema does not type, where the tenant's shape decides: credentials by name and by value. */
const extras = () => ({
  Authorization: `Bearer ${sentinel()}`,
  webhook_url: `https://hooks.slack.com/services/T0000/B0000/${sentinel()}`,
  headers: { Authorization: `Basic ${sentinel()}`, 'X-Custom-Auth': sentinel() },
  callback: `https://hooks.example.com/cb?sig=${sentinel()}`,
  nested: [{ password: sentinel(), label: 'kept' }],
  session_token: sentinel(),
});

/**
 * Creates a connector of the type from its schema: every field filled with its first candidate; a
 * field the type's own checks refuse (a 422 at its loc) moves on to its next candidate.
 */
async function createFromSchema(def: ConnectorDefinition): Promise<{ config: Record<string, unknown>; created: Awaited<ReturnType<Tenants['stack']['call']>> }> {
  const shape = (def.input as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const options = Object.fromEntries(Object.entries(shape).map(([f, schema]) => [f, candidatesFor(def, f, schema)]));
  const pick: Record<string, number> = Object.fromEntries(Object.keys(shape).map((f) => [f, 0]));
  for (let attempt = 0; ; attempt++) {
    const config: Record<string, unknown> = { ...Object.fromEntries(Object.keys(shape).map((f) => [f, options[f]![pick[f]!]])), ...extras() };
    const created = await t.stack.call('POST', path(def.kind), { ...t.asA, body: { name: `mask-${def.type}`, type: def.type, config } });
    assertNoSentinel(`${def.kind} ${def.type} create (${created.status})`, created.text);
    if (created.status !== 422 || attempt > 40) return { config, created };
    let moved = false;
    for (const d of created.body.detail as { loc: (string | number)[] }[]) {
      const f = String(d.loc[2]);
      if (options[f] && pick[f]! + 1 < options[f]!.length) {
        pick[f]! += 1;
        moved = true;
      }
    }
    if (!moved) return { config, created };
  }
}

const path = (kind: string) => (kind === 'source' ? '/api/v1/sources/' : '/api/v1/destinations/');

function assertNoSentinel(what: string, text: string): void {
  assert.ok(!text.includes(PEM_BODY), `${what} echoes a private key`);
  const at = text.indexOf(SENTINEL);
  assert.equal(at, -1, `${what} echoes a credential: …${text.slice(Math.max(0, at - 80), at + 20)}…`);
}

test('every connector type: no credential comes back from create, get, list or update; a round trip keeps them', async () => {
  const covered: string[] = [];
  for (const def of CONNECTOR_DEFINITIONS) {
    if (def.unavailable?.()) continue;
    const what = `${def.kind} ${def.type}`;
    const { config, created } = await createFromSchema(def);
    assert.ok(JSON.stringify(config).includes(SENTINEL), `${what}: the config carries sentinels`);
    assert.equal(created.status, 200, `${what}: ${created.text}`);
    const id = created.body.id as string;
    const got = await t.stack.call('GET', `${path(def.kind)}${id}`, t.asA);
    assert.equal(got.status, 200, got.text);
    assertNoSentinel(`${what} get`, got.text);
    const listed = await t.stack.call('GET', `${path(def.kind)}?type=${encodeURIComponent(def.type)}`, t.asA);
    assert.equal(listed.status, 200, listed.text);
    assertNoSentinel(`${what} list`, listed.text);
    // The response sent back unchanged: nothing leaks, and the stored credentials are the ones given.
    const before = await connectorService().clearConfig((await coreStore().get(keys.connector('tenant-a', def.kind, id)))!);
    const put = await t.stack.call('PUT', `${path(def.kind)}${id}`, { ...t.asA, body: { config: got.body.config } });
    assert.equal(put.status, 200, `${what} update: ${put.text}`);
    assertNoSentinel(`${what} update`, put.text);
    const afterPut = await connectorService().clearConfig((await coreStore().get(keys.connector('tenant-a', def.kind, id)))!);
    assert.deepEqual(afterPut, before, `${what}: a round trip keeps every stored value`);
    // Nothing of the clear values is kept outside the sealed part of the record.
    const item = (await coreStore().get(keys.connector('tenant-a', def.kind, id)))!;
    assertNoSentinel(`${what} stored config`, JSON.stringify({ ...item, sealedSecrets: undefined }));
    covered.push(what);
  }
  assert.ok(covered.length >= CONNECTOR_DEFINITIONS.length - 2, `covered ${covered.length} of ${CONNECTOR_DEFINITIONS.length}`);
});

test('slack (free-form): Authorization, webhook_url, token and header maps never come back', async () => {
  const token = `xoxb-${sentinel()}`;
  const config = {
    channels: ['C0001'],
    token,
    Authorization: `Bearer ${sentinel()}`,
    webhook_url: `https://hooks.slack.com/services/T0/B0/${sentinel()}`,
    headers: { Authorization: `Bearer ${sentinel()}` },
    proxy: `https://user:${sentinel()}@proxy.example.com:3128`,
  };
  const created = await t.stack.call('POST', '/api/v1/sources/', { ...t.asA, body: { name: 'slack', type: 'slack', config } });
  assert.equal(created.status, 200, created.text);
  assertNoSentinel('slack create', created.text);
  assert.equal(created.body.config.Authorization, '**********');
  assert.equal(created.body.config.webhook_url, '**********');
  assert.deepEqual(created.body.config.headers, { Authorization: '**********' });
  assert.deepEqual(created.body.config.channels, ['C0001']);
  const listed = await t.stack.call('GET', '/api/v1/sources/', t.asA);
  assertNoSentinel('slack list', listed.text);
  const put = await t.stack.call('PUT', `/api/v1/sources/${created.body.id}`, { ...t.asA, body: { config: { ...created.body.config, channels: ['C0002'] } } });
  assert.equal(put.status, 200, put.text);
  assertNoSentinel('slack update', put.text);
  const stored = await connectorService().clearConfig((await coreStore().get(keys.connector('tenant-a', 'source', created.body.id)))!);
  assert.deepEqual(stored, { ...config, channels: ['C0002'] }, 'the masked values sent back kept the stored ones');
  // A record stored before these rules (headers and webhook_url in clear in the config) round-trips too.
  const key = keys.connector('tenant-a', 'source', created.body.id);
  const item = (await coreStore().get(key))!;
  const sealed = { ...(item.sealedSecrets as Record<string, string>) };
  delete sealed.headers;
  delete sealed.webhook_url;
  await coreStore().put({ ...item, config: { ...(item.config as object), headers: config.headers, webhook_url: config.webhook_url }, sealedSecrets: sealed, sealedJson: [], maskedSecrets: {} });
  const legacy = await t.stack.call('GET', `/api/v1/sources/${created.body.id}`, t.asA);
  assertNoSentinel('legacy get', legacy.text);
  const again = await t.stack.call('PUT', `/api/v1/sources/${created.body.id}`, { ...t.asA, body: { config: legacy.body.config } });
  assert.equal(again.status, 200, again.text);
  const kept = await connectorService().clearConfig((await coreStore().get(key))!);
  assert.deepEqual(kept, { ...config, channels: ['C0002'] }, 'a legacy record keeps its values through a masked round trip');
  // A 422 never echoes a credential either.
  const bad = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asA, body: { name: 'x', type: 'mongodb', config: { uri: `mongo://u:${sentinel()}@h`, database: 'd', collection: 'c' } } });
  assert.equal(bad.status, 422, bad.text);
  assertNoSentinel('422', bad.text);
});

test('workflow node settings: api_key, header maps and URLs with userinfo never come back; a round trip keeps them', async () => {
  const apiKey = sentinel();
  const settings = {
    model_name: 'text-embedding-3-small',
    api_key: apiKey,
    base_url: `https://user:${sentinel()}@api.example.com/v1`,
    headers: { 'X-Api-Key': sentinel() },
    max_retries: 2,
  };
  const nodes = [
    { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
    { name: 'Embedder', type: 'embed', subtype: 'openai', settings },
  ];
  const created = await t.stack.call('POST', '/api/v1/workflows/', { ...t.asA, body: { name: 'keys', workflow_type: 'custom', workflow_nodes: nodes } });
  assert.equal(created.status, 200, created.text);
  assertNoSentinel('workflow create', created.text);
  const shown = created.body.workflow_nodes[1].settings;
  assert.equal(shown.api_key, '**********');
  assert.equal(shown.base_url, '**********');
  assert.deepEqual(shown.headers, { 'X-Api-Key': '**********' });
  assert.equal(shown.max_retries, 2);
  for (const r of [
    await t.stack.call('GET', `/api/v1/workflows/${created.body.id}`, t.asA),
    await t.stack.call('GET', '/api/v1/workflows/', t.asA),
    await t.stack.call('PUT', `/api/v1/workflows/${created.body.id}`, { ...t.asA, body: { workflow_nodes: created.body.workflow_nodes } }),
  ]) {
    assert.equal(r.status, 200, r.text);
    assertNoSentinel('workflow get/list/update', r.text);
  }
  const stored = (await coreStore().get(keys.workflow('tenant-a', created.body.id)))!;
  const dump = JSON.stringify(stored);
  assert.ok(!dump.includes(SENTINEL), 'no credential is stored in clear');
  const { openNodeSecrets } = await import('../../lambdas/domain/node-secrets');
  const { lazySecretBox } = await import('../../lambdas/adapters/secret-box');
  const opened = await openNodeSecrets(stored.nodes as never, lazySecretBox);
  assert.deepEqual(opened[1]!.settings, settings, 'the masked round trip kept every stored setting');
});

test('webhook channels: a URL carrying a credential is masked; sent back masked it is kept', async () => {
  const url = `https://hooks.example.com/in?token=${sentinel()}`;
  const created = await t.stack.call('POST', '/api/v1/notifications/channels', {
    ...t.asA,
    body: { channel_type: 'webhook', url, event_types: ['job.completed'] },
  });
  assert.ok([200, 201].includes(created.status), created.text);
  assertNoSentinel('channel create', created.text);
  assert.equal(created.body.url, '**********');
  const id = created.body.id as string;
  for (const r of [
    await t.stack.call('GET', `/api/v1/notifications/channels/${id}`, t.asA),
    await t.stack.call('GET', '/api/v1/notifications/channels?channel_type=webhook', t.asA),
    await t.stack.call('PATCH', `/api/v1/notifications/channels/${id}`, { ...t.asA, body: { url: created.body.url, description: 'masked round trip' } }),
  ]) {
    assert.equal(r.status, 200, r.text);
    assertNoSentinel('channel get/list/update', r.text);
  }
  const bad = await t.stack.call('POST', '/api/v1/notifications/channels', { ...t.asA, body: { channel_type: 'webhook', url: `ftp://u:${sentinel()}@h/x`, event_types: ['job.completed'] } });
  assert.equal(bad.status, 422, bad.text);
  assertNoSentinel('channel 422', bad.text);
});
