// Runtime credentials never act as the service's own role (issue 8 finding 1, the AWS path): with
// CONNECTOR_ROLE_ARN the s3 connector first assumes the connector role with an inline session policy
// denying the service's bucket, table and key, and signs S3 calls with that session's keys; a tenant's
// role_arn chains from the session. Driven through the real SDK against s3rver (which knows only the
// session's access key, so a call signed with the runtime's own key fails) and an STS stand-in that
// records each AssumeRole and who signed it. Inside Lambda without the role, such calls are refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { startS3 } from '../../../local/emulators/s3';
import { checkConnection, listSourceObjects, validateConfig } from '../../../lambdas/connectors/registry';
import { resetConnectorSession } from '../../../lambdas/connectors/service-boundary';
import { collect, tempDir } from './helpers';

const CONNECTOR_ROLE = 'arn:aws:iam::123456789012:role/WorkflowService-ConnectorRole';
const TENANT_ROLE = 'arn:aws:iam::210987654321:role/tenant-reader';
const dir = tempDir('s3-connector-role');
let s3: Awaited<ReturnType<typeof startS3>>;
const calls: { form: URLSearchParams; headers: IncomingHttpHeaders }[] = [];
const sts = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const form = new URLSearchParams(body);
    calls.push({ form, headers: req.headers });
    // The connector role's session gets SESSIONKEY; the tenant's role (chained) gets TENANTKEY.
    const key = form.get('RoleArn') === CONNECTOR_ROLE ? 'SESSIONKEY' : form.get('RoleArn') === TENANT_ROLE ? 'TENANTKEY' : undefined;
    res.writeHead(key ? 200 : 403, { 'content-type': 'text/xml' });
    res.end(
      key
        ? `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>${key}</AccessKeyId><SecretAccessKey>${key.toLowerCase()}</SecretAccessKey><SessionToken>token-${key}</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials><AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/x/s</Arn><AssumedRoleId>AROA:s</AssumedRoleId></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>r1</RequestId></ResponseMetadata></AssumeRoleResponse>`
        : `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>not authorized</Message></Error><RequestId>r2</RequestId></ErrorResponse>`,
    );
  });
});
const ENV_KEYS = ['AWS_ENDPOINT_URL_STS', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'CONNECTOR_ROLE_ARN', 'CONNECTOR_DENIED_ARNS', 'CONNECTORS_ALLOW_AMBIENT_CREDENTIALS', 'AWS_LAMBDA_FUNCTION_NAME', 'BUCKET_NAME'] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

before(async () => {
  s3 = await startS3({
    dataDir: dir.path,
    buckets: ['tenant-bucket'],
    accessKeys: [
      { accessKeyId: 'SESSIONKEY', secretAccessKey: 'sessionkey' },
      { accessKeyId: 'TENANTKEY', secretAccessKey: 'tenantkey' },
    ],
  });
  await new Promise<void>((r) => sts.listen(0, '127.0.0.1', r));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_STS: `http://127.0.0.1:${(sts.address() as { port: number }).port}`,
    // The function's own (ambient) credentials: unknown to s3rver, so any call signed with them fails.
    AWS_ACCESS_KEY_ID: 'RUNTIMEKEY',
    AWS_SECRET_ACCESS_KEY: 'runtime',
    CONNECTORS_ALLOW_AMBIENT_CREDENTIALS: 'true',
    BUCKET_NAME: 'service-data-bucket',
    CONNECTOR_DENIED_ARNS: JSON.stringify([
      'arn:aws:s3:::service-data-bucket',
      'arn:aws:s3:::service-data-bucket/*',
      'arn:aws:dynamodb:us-east-1:123456789012:table/service-table',
      'arn:aws:kms:us-east-1:123456789012:key/1234',
    ]),
  });
  delete process.env.AWS_SESSION_TOKEN;
});

after(async () => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetConnectorSession();
  sts.closeAllConnections();
  await new Promise<void>((r) => sts.close(() => r()));
  await s3?.stop();
  dir.remove();
});

const accessKeyOf = (headers: IncomingHttpHeaders) => /Credential=([^/]+)\//.exec(String(headers.authorization))?.[1];

test('ambient credentials: the connector role is assumed with a session policy denying the service resources; S3 is signed with the session keys', async () => {
  process.env.CONNECTOR_ROLE_ARN = CONNECTOR_ROLE;
  resetConnectorSession();
  calls.length = 0;
  const c = validateConfig('source', 's3', { remote_url: 's3://tenant-bucket/', endpoint_url: s3.endpoint, ambient_credentials: true });
  assert.deepEqual(await checkConnection('source', 's3', c), { status: 'SUCCESS' });
  assert.deepEqual(await collect(listSourceObjects('s3', c)), []);
  assert.equal(calls.length, 1, 'one AssumeRole, the session is reused');
  const { form, headers } = calls[0]!;
  assert.equal(form.get('Action'), 'AssumeRole');
  assert.equal(form.get('RoleArn'), CONNECTOR_ROLE);
  assert.equal(accessKeyOf(headers), 'RUNTIMEKEY', 'the runtime credentials only sign the AssumeRole');
  const policy = JSON.parse(form.get('Policy')!);
  const deny = policy.Statement.find((s: { Effect: string }) => s.Effect === 'Deny');
  assert.equal(deny.Action, '*');
  assert.deepEqual(deny.Resource, JSON.parse(process.env.CONNECTOR_DENIED_ARNS!));
});

test('without the connector role the same config runs on the runtime keys (s3rver refuses them), so the test above can fail', async () => {
  delete process.env.CONNECTOR_ROLE_ARN;
  resetConnectorSession();
  const c = validateConfig('source', 's3', { remote_url: 's3://tenant-bucket/', endpoint_url: s3.endpoint, ambient_credentials: true });
  const r = await checkConnection('source', 's3', c);
  assert.equal(r.status, 'FAILURE');
  assert.match(r.reason!, /InvalidAccessKeyId/);
});

test("role_arn without keys chains from the connector role's session, never from the runtime's keys", async () => {
  process.env.CONNECTOR_ROLE_ARN = CONNECTOR_ROLE;
  resetConnectorSession();
  calls.length = 0;
  const c = validateConfig('source', 's3', { remote_url: 's3://tenant-bucket/', endpoint_url: s3.endpoint, role_arn: TENANT_ROLE, external_id: 'e-1' });
  assert.deepEqual(await checkConnection('source', 's3', c), { status: 'SUCCESS' });
  assert.deepEqual(
    calls.map((x) => [x.form.get('RoleArn'), accessKeyOf(x.headers)]),
    [
      [CONNECTOR_ROLE, 'RUNTIMEKEY'],
      [TENANT_ROLE, 'SESSIONKEY'],
    ],
  );
  assert.ok(calls[0]!.form.get('Policy'));
});

test('inside Lambda without CONNECTOR_ROLE_ARN, runtime-credential calls are refused before any call', async () => {
  delete process.env.CONNECTOR_ROLE_ARN;
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'wps-worker';
  resetConnectorSession();
  calls.length = 0;
  try {
    const ambient = validateConfig('source', 's3', { remote_url: 's3://tenant-bucket/', endpoint_url: s3.endpoint, ambient_credentials: true });
    const chained = validateConfig('source', 's3', { remote_url: 's3://tenant-bucket/', endpoint_url: s3.endpoint, role_arn: TENANT_ROLE });
    for (const c of [ambient, chained]) {
      const r = await checkConnection('source', 's3', c);
      assert.equal(r.status, 'FAILURE');
      assert.match(r.reason!, /connector role \(CONNECTOR_ROLE_ARN\)/);
    }
    assert.equal(calls.length, 0);
  } finally {
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  }
});
