// The service's own resources are never reachable from connector I/O (DESIGN §9). This module holds
// the rules the connector types apply before every call (and at validation, for a clear 422):
//
// - The data bucket (BUCKET_NAME) is refused as an s3 target whatever the credentials, endpoint or
//   prefix: bucket names are global on AWS, and locally the emulator is the service's own S3. The
//   decision is made twice: on the config (remote_url's bucket; an endpoint must be a bare origin,
//   since path-style addressing puts an endpoint's path in front of the bucket, and its host may not
//   name the bucket virtual-hosted style), and on every request the connector's S3 client is about to
//   send, as the client resolved it (host and path, after signing): a request a server could read as
//   addressed to the service's bucket never leaves (refuseServiceBucketRequests).
// - Runtime ("ambient") credentials are off unless the operator sets
//   CONNECTORS_ALLOW_AMBIENT_CREDENTIALS=true (CDK context allowAmbientCredentials=true).
// - Calls that use runtime credentials (ambient, or the base of a role_arn without key/secret) never
//   run as the function's own role: with CONNECTOR_ROLE_ARN (set on AWS by lib/connector-role.ts with
//   the sts:AssumeRole grant) they run as that role, assumed with an inline session policy that denies
//   the service's bucket, table and key (CONNECTOR_DENIED_ARNS, from the same CDK call), and role_arn
//   chains from there. Inside Lambda without CONNECTOR_ROLE_ARN such calls are refused.
// - Local paths: the data directory (DATA_DIR: secrets.key, emulator data) is out of reach except
//   its connector-files folder (see types/local.ts).
import type { S3Client } from '@aws-sdk/client-s3';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { OutboundPolicyError } from '../net/outbound';

type AwsCredentialIdentityProvider = ReturnType<typeof fromTemporaryCredentials>;
type AwsCredentialIdentity = Awaited<ReturnType<AwsCredentialIdentityProvider>>;

export const CONNECTOR_SESSION_NAME = 'wps-connector';

export function ambientCredentialsAllowed(): boolean {
  return /^(1|true|yes)$/i.test(process.env.CONNECTORS_ALLOW_AMBIENT_CREDENTIALS ?? '');
}

export const AMBIENT_DISABLED =
  "ambient_credentials (the service's own runtime credentials) is disabled in this deployment; give key and secret, role_arn or anonymous: true (an operator may enable it with CONNECTORS_ALLOW_AMBIENT_CREDENTIALS=true, CDK context allowAmbientCredentials=true)";

export function onAws(): boolean {
  return Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);
}

/** The service's own bucket (the config default when the variable is unset, as lambdas/config.ts). */
export function serviceBucket(): string {
  return process.env.BUCKET_NAME || 'wps-data';
}

/** Why an s3 bucket may not be a connector target, or undefined. */
export function bucketProblem(bucket: string): string | undefined {
  if (bucket.toLowerCase() === serviceBucket().toLowerCase()) {
    return `s3://${bucket} is the service's own storage bucket; connectors may not read or write it`;
  }
  // S3 bucket naming rules: anything else could be read by an emulator or proxy as another path.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    return `${JSON.stringify(bucket)} is not a valid S3 bucket name`;
  }
  return undefined;
}

/**
 * Why a request to this host and path could reach the service's bucket, or undefined: the bucket as
 * the first path segment (path-style, whatever the endpoint's spelling), or as the host or its first
 * labels (virtual-hosted style: <bucket>.s3.amazonaws.com, <bucket>.localhost, a CNAME named after
 * the bucket). Case, percent-encoding, brackets and trailing dots do not change the answer. A
 * virtual-hosted request for `bucket` (its host starts with `<bucket>.`) carries the key in its path,
 * so there the path is not read as a bucket.
 */
export function serviceBucketRequestProblem(hostname: string | undefined, path: string | undefined, bucketAsked?: string): string | undefined {
  const bucket = serviceBucket().toLowerCase();
  const host = (hostname ?? '').replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
  const refused = `s3://${bucket} is the service's own storage bucket; connectors may not read or write it`;
  if (host === bucket || host.startsWith(`${bucket}.`)) return `${refused} (the host ${host} names it, virtual-hosted style)`;
  if (bucketAsked && host.startsWith(`${bucketAsked.toLowerCase()}.`)) return undefined;
  const first = (path ?? '').replace(/^[/\\]+/, '').split(/[/\\?]/)[0] ?? '';
  let decoded = first;
  try {
    decoded = decodeURIComponent(first);
  } catch {
    // not percent-encoded text: compared as written
  }
  if (decoded.replace(/\.+$/, '').toLowerCase() === bucket) return `${refused} (the request path /${first}/ names it, path-style)`;
  return undefined;
}

/**
 * Why an S3 endpoint a tenant gives (`field`) may not be used: anything but a bare http(s) origin (a
 * path would prefix every request's bucket; a query, fragment or credentials have no S3 meaning), or
 * a host naming the service's bucket.
 */
export function s3EndpointProblem(url: string, field: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${field} must be an http(s) URL`;
  }
  if (!/^https?:$/.test(u.protocol) || !u.hostname) return `${field} must be an http(s) URL`;
  if (u.username || u.password) return `${field} may not carry credentials (give them in the config's key fields)`;
  if (u.pathname !== '/' || u.search || u.hash || /[?#]/.test(url)) {
    return `${field} must be the service's origin only (scheme, host and port, no path, query or fragment): path-style addressing puts an endpoint's path in front of the bucket`;
  }
  const problem = serviceBucketRequestProblem(u.hostname, '/');
  return problem ? `${field}: ${problem}` : undefined;
}

/**
 * Adds to a connector's S3 client the last step before a request is sent (after endpoint resolution,
 * signing and on every retry): a request a server could read as addressed to the service's bucket is
 * refused (an OutboundPolicyError, so the connectors' failure messages name it as a policy refusal).
 */
export function refuseServiceBucketRequests<C extends S3Client>(client: C): C {
  client.middlewareStack.add(
    (next) => async (args) => {
      const req = args.request as { hostname?: string; path?: string };
      const asked = (args.input as { Bucket?: unknown } | undefined)?.Bucket;
      const problem = serviceBucketRequestProblem(req.hostname, req.path, typeof asked === 'string' ? asked : undefined);
      if (problem) throw new OutboundPolicyError(problem);
      return next(args);
    },
    { step: 'deserialize', priority: 'low', name: 'refuseServiceBucketRequests', override: true },
  );
  return client;
}

/** ARNs the connector session may never touch (on AWS from CDK; locally from the names). */
export function deniedArns(): string[] {
  const fromCdk = process.env.CONNECTOR_DENIED_ARNS;
  if (fromCdk) return JSON.parse(fromCdk) as string[];
  const bucket = serviceBucket();
  const table = process.env.TABLE_NAME || 'wps';
  const arns = [`arn:aws:s3:::${bucket}`, `arn:aws:s3:::${bucket}/*`, `arn:aws:dynamodb:*:*:table/${table}`, `arn:aws:dynamodb:*:*:table/${table}/*`];
  const key = process.env.KMS_KEY_ID;
  if (key) arns.push(key.startsWith('arn:') ? key : `arn:aws:kms:*:*:key/${key}`);
  return arns;
}

/**
 * The inline session policy of the connector role's sessions: whatever the role allows, except the
 * service's resources. (A session policy only narrows: the Allow grants nothing the role lacks.)
 */
export function connectorSessionPolicy(): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      { Sid: 'ConnectorReach', Effect: 'Allow', Action: ['s3:*', 'sts:AssumeRole'], Resource: '*' },
      { Sid: 'NeverTheServiceResources', Effect: 'Deny', Action: '*', Resource: deniedArns() },
    ],
  });
}

let roleSession: { roleArn: string; provider: AwsCredentialIdentityProvider; creds?: AwsCredentialIdentity } | undefined;

/**
 * Credentials for a connector call that would otherwise use the runtime's own: the connector role's
 * session (cached until shortly before it expires), undefined locally (the default provider chain:
 * the emulators' keys), and an error inside Lambda without a connector role.
 */
export function runtimeCredentials(region: string): AwsCredentialIdentityProvider | undefined {
  const roleArn = process.env.CONNECTOR_ROLE_ARN;
  if (!roleArn) {
    if (onAws()) throw new Error("connector calls with runtime credentials need the connector role (CONNECTOR_ROLE_ARN), which this function does not have; the service's own role is never used");
    return undefined;
  }
  if (roleSession?.roleArn !== roleArn) {
    const provider = fromTemporaryCredentials({
      params: { RoleArn: roleArn, RoleSessionName: CONNECTOR_SESSION_NAME, DurationSeconds: 900, Policy: connectorSessionPolicy() },
      clientConfig: { region, maxAttempts: 2, ...(process.env.AWS_ENDPOINT_URL_STS ? { endpoint: process.env.AWS_ENDPOINT_URL_STS } : {}) },
    });
    roleSession = { roleArn, provider };
  }
  const session = roleSession;
  return async () => {
    const fresh = session.creds?.expiration && session.creds.expiration.getTime() - Date.now() > 60_000;
    if (!fresh) session.creds = await session.provider();
    return session.creds!;
  };
}

/** Tests change the environment between cases; this forgets the cached connector-role session. */
export function resetConnectorSession(): void {
  roleSession = undefined;
}
