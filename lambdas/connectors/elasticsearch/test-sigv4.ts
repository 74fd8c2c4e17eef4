// AWS Signature Version 4 verification for the OpenSearch stand-in, written from the AWS
// specification (canonical request → string to sign → HMAC chain), independent of the signer the
// client uses, so a test proves the client really signs what it sends with the tenant's keys.
import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface SigV4Key {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
  sessionToken?: string;
}

const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const hmac = (k: Buffer | string, s: string) => createHmac('sha256', k).update(s).digest();

/** Undefined when the request is signed by one of `keys`; otherwise the store's kind of message. */
export function verifySigV4(req: IncomingMessage, body: Buffer, keys: readonly SigV4Key[]): string | undefined {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
  if (!m) return 'Authorization header requires Credential, SignedHeaders and Signature';
  const [, keyId, date, region, service, signedHeaders, signature] = m;
  const key = keys.find((k) => k.accessKeyId === keyId);
  if (!key) return 'The security token included in the request is invalid.';
  if (key.region !== region || key.service !== service) return `Credential should be scoped to a valid region and service (${key.region}/${key.service}), not ${region}/${service}.`;
  if (key.sessionToken && req.headers['x-amz-security-token'] !== key.sessionToken) return 'The security token included in the request is invalid.';
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(date!)) return 'Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP';
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname.split('/').map((p) => enc(decodeURIComponent(p))).join('/') || '/';
  const query = [...url.searchParams].map(([k, v]) => `${enc(k)}=${enc(v)}`).sort().join('&');
  const names = signedHeaders!.split(';');
  if (!names.includes('host')) return "'Host' must be a signed header";
  const headers = names.map((n) => `${n}:${String(req.headers[n] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const payload = String(req.headers['x-amz-content-sha256'] ?? sha256(body));
  if (payload !== sha256(body)) return 'The provided x-amz-content-sha256 header does not match what was computed.';
  const canonical = [req.method ?? 'GET', path, query, headers, signedHeaders, payload].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const kSigning = hmac(hmac(hmac(hmac(`AWS4${key.secretAccessKey}`, date!), region!), service!), 'aws4_request');
  const expected = createHmac('sha256', kSigning).update(toSign).digest('hex');
  return expected === signature ? undefined : 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.';
}
