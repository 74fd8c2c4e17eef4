// Amazon S3 source and destination (api-shapes.md §6 `s3`). The only connector that imports the
// AWS SDK, because the connector itself is an S3 client.
//
// Endpoint: config endpoint_url, else AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL (local emulators);
// path-style addressing whenever an endpoint is set. A tenant's endpoint is a bare origin (no path:
// path-style addressing would put it in front of the bucket), and every request is checked as sent.
// Credentials, in this order: role_arn (STS AssumeRole, with external_id, based on key+secret when
// given, else on runtime credentials); key+secret(+token); anonymous: true (unsigned requests);
// ambient_credentials: true (runtime credentials; off unless the operator enables it). Runtime
// credentials are never the service's own role: see ../service-boundary.ts (connector role with a
// session policy denying the service's resources). The service's own bucket is refused at validation,
// again before every call and on every request as the client resolved it (host and path); every
// connection goes through the outbound policy (lambdas/net/outbound.ts). AWS_ENDPOINT_URL_STS points
// AssumeRole at a stand-in (tests).
import {
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { assertSafeKey, defineConnector, describeError, fileObject, joinKey, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { assertAllowedUrl, guardedS3Agents, literalUrlProblem, policyReason } from '../../net/outbound';
import { AMBIENT_DISABLED, ambientCredentialsAllowed, bucketProblem, refuseServiceBucketRequests, runtimeCredentials, s3EndpointProblem } from '../service-boundary';
import { fieldsShape, RECURSIVE_FIELD, type FieldSpec } from '../schema';
import { z } from 'zod';

const COMMON: FieldSpec[] = [
  { name: 'remote_url', type: 'string', required: true, pattern: '^s3:\\/\\/', requiredInResponse: true },
  { name: 'ambient_credentials', type: 'boolean', required: false, default: false, requiredInResponse: false },
  { name: 'anonymous', type: 'boolean', required: false, default: false, requiredInResponse: true },
  { name: 'endpoint_url', type: 'string', required: false, requiredInResponse: false },
  { name: 'external_id', type: 'string', required: false, requiredInResponse: false },
  { name: 'key', type: 'string', required: false, requiredInResponse: false, secret: true },
  { name: 'role_arn', type: 'string', required: false, requiredInResponse: false },
  { name: 'secret', type: 'string', required: false, requiredInResponse: false, secret: true },
  { name: 'token', type: 'string', required: false, requiredInResponse: false, secret: true },
];
const SOURCE_FIELDS: FieldSpec[] = [...COMMON, RECURSIVE_FIELD];

export interface S3Config extends ConnectorConfig {
  remote_url: string;
  anonymous: boolean;
  ambient_credentials: boolean;
  endpoint_url?: string | null;
  key?: string | null;
  secret?: string | null;
  token?: string | null;
  role_arn?: string | null;
  external_id?: string | null;
  recursive?: boolean;
}

/** key and secret only make sense together; an endpoint must be a bare http(s) origin. */
function refine(schema: z.ZodType<ConnectorConfig>): z.ZodType<S3Config> {
  return schema.superRefine((c, ctx) => {
    if (Boolean(c.key) !== Boolean(c.secret)) {
      ctx.addIssue({ code: 'custom', path: [c.key ? 'secret' : 'key'], message: 'key and secret must be given together' });
    }
    if (typeof c.role_arn === 'string' && !/^arn:aws[a-z-]*:iam::\d{12}:role\/\S+$/.test(c.role_arn)) {
      ctx.addIssue({ code: 'custom', path: ['role_arn'], message: 'role_arn must be an IAM role ARN (arn:aws:iam::<account>:role/<name>)' });
    }
    if (typeof c.endpoint_url === 'string') {
      const problem = s3EndpointProblem(c.endpoint_url, 'endpoint_url') ?? literalUrlProblem(c.endpoint_url);
      if (problem) ctx.addIssue({ code: 'custom', path: ['endpoint_url'], message: problem });
    }
    if (c.ambient_credentials === true && !ambientCredentialsAllowed()) {
      ctx.addIssue({ code: 'custom', path: ['ambient_credentials'], message: AMBIENT_DISABLED });
    }
    if (typeof c.remote_url === 'string' && /^s3:\/\//.test(c.remote_url)) {
      const problem = targetProblem(c.remote_url);
      if (problem) ctx.addIssue({ code: 'custom', path: ['remote_url'], message: problem });
    }
  }) as unknown as z.ZodType<S3Config>;
}

export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!m || !m[1]) throw new Error(`remote_url ${JSON.stringify(url)} is not of the form s3://bucket/prefix`);
  let prefix = m[2] ?? '';
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  return { bucket: m[1], prefix };
}

/** Why remote_url may not be used: the service's own bucket, an invalid bucket, '.'/'..' segments. */
function targetProblem(url: string): string | undefined {
  let loc: { bucket: string; prefix: string };
  try {
    loc = parseS3Url(url);
  } catch (err) {
    return describeError(err).replace(/^Error: /, '');
  }
  const problem = bucketProblem(loc.bucket);
  if (problem) return problem;
  if (loc.prefix.split('/').some((seg) => seg === '..' || seg === '.')) return `remote_url ${JSON.stringify(url)} may not contain '.' or '..' segments`;
  return undefined;
}

function endpointFor(c: S3Config): string | undefined {
  return c.endpoint_url || process.env.AWS_ENDPOINT_URL_S3 || process.env.AWS_ENDPOINT_URL || undefined;
}

/**
 * Before every call, whatever was validated when the record was stored: never the service's bucket,
 * no runtime credentials unless enabled, a tenant endpoint_url under the outbound policy (early,
 * readable reason; the connection itself is checked again by the guarded agents).
 */
async function guard(c: S3Config): Promise<void> {
  const problem = targetProblem(c.remote_url);
  if (problem) throw new Error(problem);
  if (c.ambient_credentials && !c.role_arn && !(c.key && c.secret) && !c.anonymous && !ambientCredentialsAllowed()) throw new Error(AMBIENT_DISABLED);
  if (c.endpoint_url) {
    const endpoint = s3EndpointProblem(c.endpoint_url, 'endpoint_url');
    if (endpoint) throw new Error(endpoint);
    await assertAllowedUrl(c.endpoint_url);
  }
}

export function s3ClientFor(c: S3Config): S3Client {
  const endpoint = endpointFor(c);
  const cfg: S3ClientConfig = {
    region: process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 3000, requestTimeout: 30000, ...guardedS3Agents() },
  };
  if (endpoint) {
    cfg.endpoint = endpoint;
    cfg.forcePathStyle = true;
  }
  const staticCreds =
    c.key && c.secret ? { accessKeyId: c.key, secretAccessKey: c.secret, ...(c.token ? { sessionToken: c.token } : {}) } : undefined;
  if (c.role_arn) {
    // STS AssumeRole with the config's key/secret as base credentials, else runtime credentials (the
    // cross-account pattern: the tenant's role trusts the connector role and requires external_id).
    const base = staticCreds ?? runtimeCredentials(cfg.region as string);
    cfg.credentials = fromTemporaryCredentials({
      params: {
        RoleArn: c.role_arn,
        RoleSessionName: 'workflow-connector',
        DurationSeconds: 900,
        ...(c.external_id ? { ExternalId: c.external_id } : {}),
      },
      ...(base ? { masterCredentials: base } : {}),
      clientConfig: {
        region: cfg.region as string,
        maxAttempts: 1,
        ...(process.env.AWS_ENDPOINT_URL_STS ? { endpoint: process.env.AWS_ENDPOINT_URL_STS } : {}),
      },
    });
  } else if (staticCreds) {
    cfg.credentials = staticCreds;
  } else if (c.anonymous) {
    // Unsigned requests: skip the SigV4 step entirely.
    cfg.signer = { sign: async (request) => request };
    cfg.credentials = { accessKeyId: '', secretAccessKey: '' };
  } else if (c.ambient_credentials) {
    if (!ambientCredentialsAllowed()) throw new Error(AMBIENT_DISABLED);
    const runtime = runtimeCredentials(cfg.region as string);
    if (runtime) cfg.credentials = runtime;
  } else {
    throw new Error('no credentials: give key and secret, role_arn, or set anonymous: true');
  }
  return refuseServiceBucketRequests(new S3Client(cfg));
}

function s3Reason(op: string, bucket: string, err: unknown): Error {
  const refused = policyReason(err);
  if (refused) return new Error(`${op} on bucket ${JSON.stringify(bucket)} refused: ${refused}`);
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  if (status && (e.name === 'UnknownError' || e.message === 'UnknownError')) {
    // A HEAD response has no body, so the SDK has no error code; the status is the information.
    err = new Error(`HTTP ${status}`);
  }
  if (e?.name === 'NoSuchBucket' || (e?.name === 'NotFound' && op === 'HeadBucket')) {
    return new Error(`bucket ${JSON.stringify(bucket)} does not exist (${op}: ${e.name})`);
  }
  if (status === 403 || e?.name === 'InvalidAccessKeyId' || e?.name === 'SignatureDoesNotMatch' || e?.name === 'AccessDenied' || e?.name === 'Forbidden') {
    return new Error(`access to bucket ${JSON.stringify(bucket)} denied (${op}: ${describeError(err)})`);
  }
  return new Error(`${op} on bucket ${JSON.stringify(bucket)} failed: ${describeError(err)}${status ? ` (HTTP ${status})` : ''}`);
}

async function* listObjects(c: S3Config, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const { bucket, prefix } = parseS3Url(c.remote_url);
  await guard(c);
  const client = s3ClientFor(c);
  try {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix || undefined,
            ContinuationToken: token,
            ...(c.recursive === false ? { Delimiter: '/' } : {}),
          }),
          { abortSignal: ctx?.signal },
        );
      } catch (err) {
        throw s3Reason('ListObjectsV2', bucket, err);
      }
      for (const o of page.Contents ?? []) {
        if (!o.Key || o.Key.endsWith('/')) continue;
        yield fileObject({
          key: o.Key.slice(prefix.length),
          size: o.Size,
          version: o.ETag,
          url: `s3://${bucket}/${o.Key}`,
          recordLocator: { protocol: 's3', remote_file_path: c.remote_url },
          created: o.LastModified,
          modified: o.LastModified,
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
}

/** One call `op` on the configured bucket, by a client of its own; its failure said in the bucket's terms. */
async function onBucket<T>(c: S3Config, op: string, call: (client: S3Client, loc: { bucket: string; prefix: string }) => Promise<T>): Promise<T> {
  const loc = parseS3Url(c.remote_url);
  await guard(c);
  const client = s3ClientFor(c);
  try {
    return await call(client, loc);
  } catch (err) {
    throw s3Reason(op, loc.bucket, err);
  } finally {
    client.destroy();
  }
}

async function readObject(c: S3Config, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  return onBucket(c, 'GetObject', async (client, { bucket, prefix }) => {
    const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: joinKey(prefix, assertSafeKey(key)) }), { abortSignal: ctx?.signal });
    if (!res.Body) throw new Error(`object ${key} has no body`);
    return await res.Body.transformToByteArray();
  });
}

async function writeObject(c: S3Config, key: string, data: Uint8Array, ctx?: RuntimeContext): Promise<void> {
  await onBucket(c, 'PutObject', (client, { bucket, prefix }) =>
    client.send(
      new PutObjectCommand({ Bucket: bucket, Key: joinKey(prefix, assertSafeKey(key)), Body: data, ContentLength: data.byteLength }),
      { abortSignal: ctx?.signal },
    ),
  );
}

export const s3Source = defineConnector<S3Config>({
  kind: 'source',
  type: 's3',
  ...fieldsShape(SOURCE_FIELDS, refine),
  async check(c, ctx) {
    // Listing one key proves the bucket exists and the credentials may read the prefix.
    await onBucket(c, 'ListObjectsV2', (client, { bucket, prefix }) =>
      client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, MaxKeys: 1 }), { abortSignal: ctx.signal }),
    );
  },
  list: listObjects,
  read: readObject,
});

export const s3Destination = defineConnector<S3Config>({
  kind: 'destination',
  type: 's3',
  ...fieldsShape(COMMON, refine),
  async check(c, ctx) {
    await onBucket(c, 'HeadBucket', (client, { bucket }) => client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: ctx.signal }));
  },
  write: writeObject,
});
