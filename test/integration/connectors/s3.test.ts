// S3 connector through the real AWS SDK against s3rver (started by local/emulators/s3.ts on a free
// port): validation and masking, connection checks (SUCCESS and each FAILURE reason), and the
// runtime list/read/write round trip including paged listings.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { S3RVER_CREDENTIALS, startS3 } from '../../../local/emulators/s3';
import {
  SECRET_MASK,
  checkConnection,
  listSourceObjects,
  outputConfig,
  readSourceObject,
  validateConfig,
  writeDestinationObject,
} from '../../../lambdas/connectors/registry';
import { blackHole, closedPort, collect, tempDir, text, untext } from './helpers';

const dir = tempDir('s3-connector');
let s3: Awaited<ReturnType<typeof startS3>>;
let raw: S3Client;

const creds = { key: S3RVER_CREDENTIALS.accessKeyId, secret: S3RVER_CREDENTIALS.secretAccessKey };

before(async () => {
  s3 = await startS3({ dataDir: dir.path, buckets: ['in-bucket', 'out-bucket', 'many'], accessKeys: [{ accessKeyId: 'EXTRA', secretAccessKey: 'x' }] });
  raw = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  for (const [k, body] of [
    ['docs/a.txt', 'alpha'],
    ['docs/sub/b.txt', 'bravo!'],
    ['other/c.txt', 'charlie'],
  ] as const) {
    await raw.send(new PutObjectCommand({ Bucket: 'in-bucket', Key: k, Body: body }));
  }
});

after(async () => {
  raw?.destroy();
  await s3?.stop();
  dir.remove();
});

function source(extra: Record<string, unknown> = {}) {
  return validateConfig('source', 's3', { remote_url: 's3://in-bucket/docs', endpoint_url: s3.endpoint, ...creds, ...extra });
}

function destination(extra: Record<string, unknown> = {}) {
  return validateConfig('destination', 's3', { remote_url: 's3://out-bucket/results/', endpoint_url: s3.endpoint, ...creds, ...extra });
}

test('validated config has defaults; the response masks key and secret', () => {
  const c = source();
  assert.equal(c.recursive, true);
  assert.equal(c.anonymous, false);
  const out = outputConfig('source', 's3', c);
  assert.equal(out.key, SECRET_MASK);
  assert.equal(out.secret, SECRET_MASK);
  assert.equal(out.endpoint_url, s3.endpoint);
  assert.ok(!JSON.stringify(out).includes('"S3RVER"'));
});

test('check SUCCESS for source and destination against the emulator', async () => {
  assert.deepEqual(await checkConnection('source', 's3', source()), { status: 'SUCCESS' });
  assert.deepEqual(await checkConnection('destination', 's3', destination()), { status: 'SUCCESS' });
});

test('check uses AWS_ENDPOINT_URL_S3 when the config has no endpoint_url', async () => {
  const saved = process.env.AWS_ENDPOINT_URL_S3;
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  try {
    const c = validateConfig('source', 's3', { remote_url: 's3://in-bucket/docs', ...creds });
    assert.deepEqual(await checkConnection('source', 's3', c), { status: 'SUCCESS' });
  } finally {
    if (saved === undefined) delete process.env.AWS_ENDPOINT_URL_S3;
    else process.env.AWS_ENDPOINT_URL_S3 = saved;
  }
});

test('check FAILURE with a reason: wrong bucket', async () => {
  const src = await checkConnection('source', 's3', source({ remote_url: 's3://no-such-bucket/x' }));
  assert.equal(src.status, 'FAILURE');
  assert.match(src.reason!, /bucket "no-such-bucket" does not exist/);
  const dst = await checkConnection('destination', 's3', destination({ remote_url: 's3://no-such-bucket/' }));
  assert.equal(dst.status, 'FAILURE');
  assert.match(dst.reason!, /bucket "no-such-bucket" does not exist/);
});

test('the launcher accepts extra access keys it was given', async () => {
  assert.deepEqual(await checkConnection('source', 's3', source({ key: 'EXTRA', secret: 'x' })), { status: 'SUCCESS' });
});

test('check FAILURE with a reason: wrong credentials', async () => {
  const src = await checkConnection('source', 's3', source({ key: 'AKIAWRONG' }));
  assert.equal(src.status, 'FAILURE');
  assert.match(src.reason!, /access to bucket "in-bucket" denied.*InvalidAccessKeyId/);
  const dst = await checkConnection('destination', 's3', destination({ key: 'AKIAWRONG' }));
  assert.equal(dst.status, 'FAILURE');
  assert.match(dst.reason!, /access to bucket "out-bucket" denied.*HTTP 403/);
});

test('check FAILURE with a reason: no credentials, unreachable endpoint', async () => {
  const none = await checkConnection('source', 's3', validateConfig('source', 's3', { remote_url: 's3://in-bucket', endpoint_url: s3.endpoint }));
  assert.equal(none.status, 'FAILURE');
  assert.match(none.reason!, /no credentials/);
  const port = await closedPort();
  const down = await checkConnection('source', 's3', source({ endpoint_url: `http://127.0.0.1:${port}` }));
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /ECONNREFUSED/);
});

test('a hung endpoint ends in FAILURE at the time bound instead of hanging', async () => {
  const hole = await blackHole();
  try {
    const r = await checkConnection('destination', 's3', destination({ endpoint_url: `http://127.0.0.1:${hole.port}` }), { timeoutMs: 500 });
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /timed out after 500 ms/);
  } finally {
    await hole.close();
  }
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS refuses an endpoint_url on a private address', async () => {
  const stored = { source: source(), destination: destination() };
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    // a literal private address is a 422 at validation...
    assert.equal(issuesOf422(() => source()), 'body.config.endpoint_url');
    // ...and a record stored before the policy was switched on is refused at use
    const r = await checkConnection('source', 's3', stored.source);
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /private network address/);
    await assert.rejects(writeDestinationObject('s3', stored.destination, 'x.txt', text('x')), /private network address/);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});

test('anonymous: true sends unsigned requests (s3rver accepts them)', async () => {
  const c = validateConfig('source', 's3', { remote_url: 's3://in-bucket/docs', endpoint_url: s3.endpoint, anonymous: true });
  assert.deepEqual(await checkConnection('source', 's3', c), { status: 'SUCCESS' });
  assert.deepEqual((await collect(listSourceObjects('s3', c))).map((o) => o.key).sort(), ['a.txt', 'sub/b.txt']);
});

test('list is relative to the prefix, recursive by default, flat with recursive: false', async () => {
  const all = await collect(listSourceObjects('s3', source()));
  assert.deepEqual(all.sort((a, b) => a.key.localeCompare(b.key)).map(({ key, size }) => ({ key, size })), [
    { key: 'a.txt', size: 5 },
    { key: 'sub/b.txt', size: 6 },
  ]);
  for (const o of all) assert.ok(o.version, 'the ETag is the version');
  const flat = await collect(listSourceObjects('s3', source({ recursive: false })));
  assert.deepEqual(flat.map(({ key, size }) => ({ key, size })), [{ key: 'a.txt', size: 5 }]);
  const root = await collect(listSourceObjects('s3', source({ remote_url: 's3://in-bucket' })));
  assert.deepEqual(root.map((o) => o.key).sort(), ['docs/a.txt', 'docs/sub/b.txt', 'other/c.txt']);
});

test('read returns the bytes; write lands under the destination prefix', async () => {
  assert.equal(untext(await readSourceObject('s3', source(), 'sub/b.txt')), 'bravo!');
  await writeDestinationObject('s3', destination(), 'job-1/out.json', text('{"ok":true}'));
  const got = await raw.send(new GetObjectCommand({ Bucket: 'out-bucket', Key: 'results/job-1/out.json' }));
  assert.equal(await got.Body!.transformToString(), '{"ok":true}');
  await assert.rejects(readSourceObject('s3', source(), 'missing.txt'), /GetObject on bucket "in-bucket" failed|NoSuchKey/);
  await assert.rejects(writeDestinationObject('s3', destination(), '../escape.txt', text('x')), /invalid object key/);
});

test('listing pages past 1000 keys', async () => {
  const names = Array.from({ length: 1005 }, (_, i) => `p/${String(i).padStart(4, '0')}.txt`);
  for (let i = 0; i < names.length; i += 50) {
    await Promise.all(names.slice(i, i + 50).map((k) => raw.send(new PutObjectCommand({ Bucket: 'many', Key: k, Body: 'x' }))));
  }
  const listed = await collect(listSourceObjects('s3', source({ remote_url: 's3://many/p/' })));
  assert.equal(listed.length, 1005);
  assert.equal(new Set(listed.map((o) => o.key)).size, 1005);
});

test('role_arn: AssumeRole (with external_id) through STS, then S3 with the temporary credentials', async () => {
  // STS stand-in: grants S3RVER credentials for the expected role and external id, AccessDenied otherwise.
  const calls: URLSearchParams[] = [];
  const sts = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      calls.push(form);
      const ok = form.get('Action') === 'AssumeRole' && form.get('RoleArn') === 'arn:aws:iam::123456789012:role/reader' && form.get('ExternalId') === 'ext-1';
      res.writeHead(ok ? 200 : 403, { 'content-type': 'text/xml' });
      res.end(
        ok
          ? `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>S3RVER</AccessKeyId><SecretAccessKey>S3RVER</SecretAccessKey><SessionToken>session</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials><AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/reader/s</Arn><AssumedRoleId>AROA:s</AssumedRoleId></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>r1</RequestId></ResponseMetadata></AssumeRoleResponse>`
          : `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>not authorized to assume the role</Message></Error><RequestId>r2</RequestId></ErrorResponse>`,
      );
    });
  });
  await new Promise<void>((r) => sts.listen(0, '127.0.0.1', r));
  const saved = { sts: process.env.AWS_ENDPOINT_URL_STS, id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ENDPOINT_URL_STS = `http://127.0.0.1:${(sts.address() as { port: number }).port}`;
  try {
    const base = { remote_url: 's3://in-bucket/docs', endpoint_url: s3.endpoint, role_arn: 'arn:aws:iam::123456789012:role/reader' };
    // base credentials from the config
    const withKeys = validateConfig('source', 's3', { ...base, external_id: 'ext-1', key: 'BASEKEY', secret: 'base' });
    assert.deepEqual(await checkConnection('source', 's3', withKeys), { status: 'SUCCESS' });
    assert.deepEqual((await collect(listSourceObjects('s3', withKeys))).map((o) => o.key).sort(), ['a.txt', 'sub/b.txt']);
    assert.equal(calls[0]?.get('RoleSessionName'), 'workflow-connector');
    // base credentials from the runtime when the config has none
    process.env.AWS_ACCESS_KEY_ID = 'RUNTIMEKEY';
    process.env.AWS_SECRET_ACCESS_KEY = 'runtime';
    const ambient = validateConfig('source', 's3', { ...base, external_id: 'ext-1' });
    assert.deepEqual(await checkConnection('source', 's3', ambient), { status: 'SUCCESS' });
    // the role refuses a wrong external id
    const denied = await checkConnection('source', 's3', validateConfig('source', 's3', { ...base, external_id: 'other' }));
    assert.equal(denied.status, 'FAILURE');
    assert.match(denied.reason!, /AccessDenied|not authorized to assume the role/);
    assert.equal(issuesOf422(() => validateConfig('source', 's3', { ...base, role_arn: 'reader' })), 'body.config.role_arn');
  } finally {
    for (const [k, v] of [['AWS_ENDPOINT_URL_STS', saved.sts], ['AWS_ACCESS_KEY_ID', saved.id], ['AWS_SECRET_ACCESS_KEY', saved.secret]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    sts.closeAllConnections();
    await new Promise<void>((r) => sts.close(() => r()));
  }
});

function issuesOf422(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { issues?: { loc: (string | number)[] }[] }).issues?.[0]?.loc.join('.');
  }
  return undefined;
}
