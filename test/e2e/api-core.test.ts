// HTTP behaviour of the core API through the local router (the same handlers CDK deploys):
// routing, validation bodies, status codes, connectors CRUD, masking and encryption at rest,
// asynchronous connection checks, and the OpenAPI document matching real responses.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { ROUTES } from '../../lambdas/routes';

let stack: TestStack;
const inputDir = mkdtempSync(join(tmpdir(), 'wps-src-'));

before(async () => {
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
});

describe('routing and errors', () => {
  test('healthcheck needs no key', async () => {
    const r = await stack.call('GET', '/healthcheck');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { healthcheck: 'HEALTHCHECK STATUS: EVERYTHING OK!' });
  });

  test('unknown route is a JSON 404, wrong method a 405', async () => {
    const a = await stack.call('GET', '/api/v1/nothing-here');
    assert.equal(a.status, 404);
    assert.deepEqual(a.body, { detail: 'Not Found' });
    const b = await stack.call('PATCH', '/api/v1/sources/');
    assert.equal(b.status, 405);
    assert.equal(typeof b.body.detail, 'string');
  });

  test('malformed JSON is a 422 with a FastAPI-style detail list', async () => {
    const r = await stack.call('POST', '/api/v1/sources/', { raw: '{"name": ', headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 422);
    assert.equal(r.body.detail[0].type, 'json_invalid');
    assert.deepEqual(r.body.detail[0].loc, ['body']);
  });

  test('missing fields are listed with their location', async () => {
    const r = await stack.call('POST', '/api/v1/destinations/', { body: { name: 'x' } });
    assert.equal(r.status, 422);
    const locs = r.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    assert.ok(locs.includes('body.type'), JSON.stringify(r.body));
    assert.ok(locs.includes('body.config'), JSON.stringify(r.body));
    for (const d of r.body.detail) {
      assert.equal(typeof d.msg, 'string');
      assert.equal(d.type, 'missing');
    }
  });

  test('wrong content type is a 4xx, not a 500', async () => {
    const r = await stack.call('POST', '/api/v1/sources/', { raw: 'name=x', headers: { 'content-type': 'text/plain' } });
    assert.ok(r.status >= 400 && r.status < 500, String(r.status));
  });

  test('an oversize upload is a 413, not a 500', async () => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(51 * 1000 * 1000)]), 'huge.txt');
    const r = await stack.call('POST', '/general/v0/general', { raw: form });
    assert.equal(r.status, 413);
    assert.match(r.body.detail, /exceeds/);
  });

  test('a partial result is a 200 with x-partition-warnings (decoded), documented in the OpenAPI description', async () => {
    const deep = Array.from({ length: 260 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
    const form = new FormData();
    form.append('files', new Blob([`# Heading\n\nA paragraph.\n\n${deep}\n`], { type: 'text/markdown' }), 'deep.md');
    const r = await stack.call('POST', '/general/v0/general', { raw: form });
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.body) && r.body.length > 0, 'the elements that were read come back');
    const header = r.headers.get('x-partition-warnings');
    assert.ok(header, 'a degraded result says so in x-partition-warnings');
    assert.match(decodeURIComponent(header!), /^deep\.md: Markdown nested deeper than \d+ levels/);
    const clean = new FormData();
    clean.append('files', new Blob(['A plain paragraph.'], { type: 'text/plain' }), 'plain.txt');
    const ok = await stack.call('POST', '/general/v0/general', { raw: clean });
    assert.equal(ok.headers.get('x-partition-warnings'), null, 'no header on a complete result');
    const doc = (await stack.call('GET', '/openapi.json')).body;
    const op = doc.paths['/general/v0/general'].post;
    assert.match(op.description, /x-partition-warnings/);
    assert.ok(op.responses['200'].headers['x-partition-warnings'], 'the 200 response lists the header');
  });

  test('a malformed id in the path is a 422, an unknown one a 404', async () => {
    const bad = await stack.call('GET', '/api/v1/sources/not-a-uuid');
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.detail[0].loc, ['path', 'source_id']);
    const unknown = await stack.call('GET', '/api/v1/sources/6f1f7a53-3a6d-4c55-9a43-1f1f9c1f0b11');
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.detail, /not found/i);
  });

  test('an unknown connector type is a 422 naming the field', async () => {
    const r = await stack.call('POST', '/api/v1/sources/', { body: { name: 'x', type: 'nope', config: {} } });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.detail[0].loc, ['body', 'type']);
  });
});

describe('sources and destinations', { skip: NEEDS_LOCAL }, () => {
  test('create, list with a type filter, get, update, delete', async () => {
    const created = await stack.call('POST', '/api/v1/sources/', {
      body: { name: 'inbox', type: 'local', config: { remote_url: inputDir } },
    });
    assert.equal(created.status, 200, created.text);
    const id = created.body.id;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(created.body.type, 'local');
    assert.equal(created.body.name, 'inbox');
    assert.ok(created.body.created_at);

    const list = await stack.call('GET', '/api/v1/sources/?source_type=local');
    assert.equal(list.status, 200);
    assert.ok(list.body.some((s: { id: string }) => s.id === id));
    const none = await stack.call('GET', '/api/v1/sources/?source_type=s3');
    assert.ok(!none.body.some((s: { id: string }) => s.id === id));

    const got = await stack.call('GET', `/api/v1/sources/${id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, created.body);

    const updated = await stack.call('PUT', `/api/v1/sources/${id}`, { body: { config: { remote_url: inputDir, recursive: false } } });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.config.recursive, false);
    assert.ok(updated.body.updated_at);

    const del = await stack.call('DELETE', `/api/v1/sources/${id}`);
    assert.equal(del.status, 200);
    assert.match(del.body.detail, /successfully deleted/);
    assert.equal((await stack.call('GET', `/api/v1/sources/${id}`)).status, 404);
    assert.equal((await stack.call('DELETE', `/api/v1/sources/${id}`)).status, 404);
  });

  test('secrets are masked in every response and encrypted at rest', async () => {
    const secret = 'super-secret-token-value-1234567890';
    const created = await stack.call('POST', '/api/v1/destinations/', {
      body: {
        name: 'vectors',
        type: 'astradb',
        config: { collection_name: 'docs', api_endpoint: 'https://db.example.invalid', token: secret },
      },
    });
    assert.equal(created.status, 200, created.text);
    assert.notEqual(created.body.config.token, secret);
    assert.ok(!created.text.includes(secret));
    // defaults of the input shape applied; flatten_metadata absent from the output shape
    assert.equal(created.body.config.batch_size, 20);
    assert.equal(created.body.config.binary_encode_vectors, true);
    assert.equal('flatten_metadata' in created.body.config, false);

    const got = await stack.call('GET', `/api/v1/destinations/${created.body.id}`);
    assert.ok(!got.text.includes(secret));

    // Round trip: sending the masked value back keeps the stored secret (and still never shows it).
    const put = await stack.call('PUT', `/api/v1/destinations/${created.body.id}`, { body: { config: got.body.config } });
    assert.equal(put.status, 200, put.text);
    assert.ok(!put.text.includes(secret));

    const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.endpoints.dynamodb });
    const scan = await ddb.send(new ScanCommand({ TableName: stack.env.TABLE_NAME }));
    ddb.destroy();
    assert.ok(scan.Items && scan.Items.length > 0);
    assert.ok(!JSON.stringify(scan.Items).includes(secret), 'the clear secret must not be stored');
  });

  test('connection checks run asynchronously and record SUCCESS or FAILURE with a reason', async () => {
    const ok = await stack.call('POST', '/api/v1/sources/', { body: { name: 'ok', type: 'local', config: { remote_url: inputDir } } });
    const bad = await stack.call('POST', '/api/v1/sources/', {
      body: { name: 'bad', type: 'local', config: { remote_url: join(inputDir, 'missing-dir') } },
    });
    for (const [src, expected] of [
      [ok.body, 'SUCCESS'],
      [bad.body, 'FAILURE'],
    ] as const) {
      const started = await stack.call('POST', `/api/v1/sources/${src.id}/connection-check`);
      assert.equal(started.status, 202, started.text);
      assert.equal(started.body.status, 'SCHEDULED');
      const done = await eventually(async () => {
        const r = await stack.call('GET', `/api/v1/sources/${src.id}/connection-check`);
        return r.body.status !== 'SCHEDULED' ? r : undefined;
      }, 'connection check');
      assert.equal(done.status, 200);
      assert.equal(done.body.status, expected, JSON.stringify(done.body));
      assert.equal(done.body.id, started.body.id);
      assert.ok(done.body.reported_at);
      if (expected === 'FAILURE') assert.ok(done.body.reason && done.body.reason.length > 0);
    }
  });

  test('no check yet is a 404', async () => {
    const src = await stack.call('POST', '/api/v1/sources/', { body: { name: 'fresh', type: 'local', config: { remote_url: inputDir } } });
    const r = await stack.call('GET', `/api/v1/sources/${src.body.id}/connection-check`);
    assert.equal(r.status, 404);
  });
});

describe('OpenAPI description', () => {
  test('lists every route, version 3.1.1, and real responses match its schemas', async () => {
    const r = await stack.call('GET', '/openapi.json');
    assert.equal(r.status, 200);
    assert.equal(r.body.openapi, '3.1.0');
    assert.equal(r.body.info.version, '3.1.1');
    for (const route of ROUTES) {
      const op = r.body.paths[route.path]?.[route.method.toLowerCase()];
      assert.ok(op, `${route.method} ${route.path} missing from openapi.json`);
      assert.equal(op.operationId, route.operationId);
      const ok = op.responses[String(route.status ?? 200)];
      assert.ok(ok);
      // -- a 204 documents no body at all (not an empty JSON schema) --
      if (route.status === 204) assert.equal(ok.content, undefined, route.operationId);
    }
    const docs = await stack.call('GET', '/docs');
    assert.equal(docs.status, 200);
    assert.match(docs.headers.get('content-type') ?? '', /text\/html/);
  });

  test('responses of the connector routes match the declared response schemas', { skip: NEEDS_LOCAL }, async () => {
    const created = await stack.call('POST', '/api/v1/sources/', { body: { name: 'shape', type: 'local', config: { remote_url: inputDir } } });
    const samples: [string, unknown][] = [
      ['create_source', created.body],
      ['get_source', (await stack.call('GET', `/api/v1/sources/${created.body.id}`)).body],
      ['list_sources', (await stack.call('GET', '/api/v1/sources/')).body],
      ['create_connection_check_sources', (await stack.call('POST', `/api/v1/sources/${created.body.id}/connection-check`)).body],
      ['healthcheck', (await stack.call('GET', '/healthcheck')).body],
      ['delete_source', (await stack.call('DELETE', `/api/v1/sources/${created.body.id}`)).body],
    ];
    for (const [operationId, body] of samples) {
      const route = ROUTES.find((x) => x.operationId === operationId)!;
      const res = route.response!.safeParse(body);
      assert.ok(res.success, `${operationId}: ${JSON.stringify(res.error?.issues)}`);
    }
  });
});
