// The local emulators' lock: a per-start credential (random access key id and secret) that the
// service's SDK clients sign with, and a check of the AWS Signature Version 4 of every request
// against it, before the emulator sees the request. Anyone else on the machine can reach the
// loopback ports, but without the secret gets a 403 for every request: unsigned, signed with another
// secret, a presigned URL used with another method, key, query or after it expired.
//
// What is checked: the signature over the canonical request (method, path, query, the signed headers,
// and the payload hash the client declared in x-amz-content-sha256, or UNSIGNED-PAYLOAD for a
// presigned URL), the access key id, the service of the credential scope, `host` and every x-amz-*
// header sent among the signed headers, X-Amz-Date within 15 minutes (header-signed) or X-Amz-Expires not passed (presigned). The
// body itself is not hashed against the declared value (the emulators read it after this check); a
// signature can only be made with the secret, and the only signatures handed out are presigned URLs,
// whose payload is unsigned by design (as on S3).
//
// sigV4 and guardHttpServer are self-contained (no imports, crypto passed in): the dynalite thread
// embeds them as source (see dynamodb.ts).
import * as crypto from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface EmulatorCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** A fresh credential for one start of the local stack. */
export function newEmulatorCredentials(): EmulatorCredentials {
  return {
    accessKeyId: `WPSLOCAL${crypto.randomBytes(6).toString('hex').toUpperCase()}`,
    secretAccessKey: crypto.randomBytes(30).toString('base64url'),
  };
}

/** A request as the check sees it: the method, the URL path and query as sent, the headers (lower-case names). */
export interface SignedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface SigV4 {
  /** Why the request is refused, or undefined when its signature verifies for `service`. */
  verify(req: SignedRequest, service: string, now?: number): string | undefined;
  /** The headers that sign a request without a body (tests and tools reading a debug page). */
  sign(req: SignedRequest, service: string, region: string, now?: number): Record<string, string>;
}

export function sigV4(credentials: EmulatorCredentials, nodeCrypto: typeof crypto): SigV4 {
  const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
  const MAX_SKEW_MS = 15 * 60 * 1000;
  const MAX_EXPIRES_S = 7 * 24 * 3600;
  const uriEscape = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const hmac = (key: crypto.BinaryLike, data: string) => nodeCrypto.createHmac('sha256', key).update(data).digest();
  const sha256 = (data: string) => nodeCrypto.createHash('sha256').update(data).digest('hex');
  const same = (a: string, b: string) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && nodeCrypto.timingSafeEqual(x, y);
  };
  const amzTime = (s: string) => {
    const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
    return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN;
  };
  const amzDate = (t: number) => new Date(t).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const header = (req: SignedRequest, name: string) => {
    const v = req.headers[name];
    return v === undefined ? undefined : Array.isArray(v) ? v.join(',') : v;
  };
  const split = (url: string) => {
    const q = url.indexOf('?');
    const params: [string, string][] = [];
    for (const part of (q < 0 ? '' : url.slice(q + 1)).split('&')) {
      if (!part) continue;
      const eq = part.indexOf('=');
      params.push([decodeURIComponent(eq < 0 ? part : part.slice(0, eq)), decodeURIComponent(eq < 0 ? '' : part.slice(eq + 1))]);
    }
    return { path: q < 0 ? url : url.slice(0, q), params };
  };
  // S3 signs the path as sent; the other services sign it normalized and encoded once more.
  const canonicalPath = (path: string, service: string) => {
    if (service === 's3') return path;
    const segments: string[] = [];
    for (const seg of path.split('/')) {
      if (seg === '' || seg === '.') continue;
      if (seg === '..') segments.pop();
      else segments.push(seg);
    }
    const normalized = `${path.startsWith('/') ? '/' : ''}${segments.join('/')}${segments.length && path.endsWith('/') ? '/' : ''}`;
    return uriEscape(normalized).replace(/%2F/g, '/');
  };
  const canonicalQuery = (params: [string, string][]) =>
    params
      .filter(([k]) => k.toLowerCase() !== 'x-amz-signature')
      .map(([k, v]) => [uriEscape(k), `${uriEscape(k)}=${uriEscape(v)}`] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
      .map(([, pair]) => pair)
      .join('&');
  const signature = (req: SignedRequest, path: string, params: [string, string][], signedHeaders: string[], payloadHash: string, date: string, scope: string[]) => {
    const headerLines: string[] = [];
    for (const h of signedHeaders) {
      const v = header(req, h);
      if (v === undefined) return undefined;
      headerLines.push(`${h}:${v.trim().replace(/\s+/g, ' ')}\n`);
    }
    const canonical = [req.method.toUpperCase(), canonicalPath(path, scope[3]!), canonicalQuery(params), headerLines.join(''), signedHeaders.join(';'), payloadHash].join('\n');
    const toSign = ['AWS4-HMAC-SHA256', date, scope.slice(1).join('/'), sha256(canonical)].join('\n');
    let key = hmac(`AWS4${credentials.secretAccessKey}`, scope[1]!);
    for (const part of scope.slice(2)) key = hmac(key, part);
    return nodeCrypto.createHmac('sha256', key).update(toSign).digest('hex');
  };

  return {
    verify(req, service, now = Date.now()) {
      let parts: ReturnType<typeof split>;
      try {
        parts = split(req.url);
      } catch {
        return 'malformed query string';
      }
      const query = new Map(parts.params);
      const auth = header(req, 'authorization');
      const presigned = query.has('X-Amz-Signature') || query.has('X-Amz-Algorithm');
      let credential: string | undefined, signedHeaders: string | undefined, provided: string | undefined, date: string | undefined, payloadHash: string | undefined;
      if (auth !== undefined && presigned) return 'more than one authentication mechanism';
      if (auth !== undefined) {
        const m = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(auth.trim());
        if (!m) return 'not an AWS4-HMAC-SHA256 authorization header';
        [, credential, signedHeaders, provided] = m;
        date = header(req, 'x-amz-date');
        if (!(Math.abs(amzTime(date ?? '') - now) <= MAX_SKEW_MS)) return 'X-Amz-Date missing or more than 15 minutes from now';
        payloadHash = header(req, 'x-amz-content-sha256');
        if (payloadHash === undefined) {
          const bodyless = !header(req, 'transfer-encoding') && (header(req, 'content-length') ?? '0') === '0';
          if (!bodyless) return 'a request with a body must sign x-amz-content-sha256';
          payloadHash = EMPTY_SHA256;
        }
      } else if (presigned) {
        if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return 'X-Amz-Algorithm is not AWS4-HMAC-SHA256';
        credential = query.get('X-Amz-Credential');
        signedHeaders = query.get('X-Amz-SignedHeaders');
        provided = query.get('X-Amz-Signature');
        date = query.get('X-Amz-Date');
        const expires = Number(query.get('X-Amz-Expires'));
        const at = amzTime(date ?? '');
        if (!credential || !signedHeaders || !provided || !/^[0-9a-f]{64}$/.test(provided)) return 'incomplete presigned query';
        if (!Number.isInteger(expires) || expires < 1 || expires > MAX_EXPIRES_S) return 'X-Amz-Expires missing or out of range';
        if (!(at - now <= MAX_SKEW_MS)) return 'X-Amz-Date missing or in the future';
        if (now > at + expires * 1000) return 'the presigned URL has expired';
        payloadHash = query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
      } else {
        return 'the request is not signed';
      }
      const scope = credential!.split('/');
      if (scope.length !== 5 || scope[4] !== 'aws4_request') return 'malformed credential scope';
      if (!same(scope[0]!, credentials.accessKeyId)) return 'unknown access key id';
      if (scope[3] !== service) return `credential scope is not for ${service}`;
      if (scope[1] !== date!.slice(0, 8)) return 'credential scope date is not the request date';
      const names = signedHeaders!.split(';');
      if (!names.includes('host')) return 'host is not signed';
      if (names.some((n) => n !== n.toLowerCase())) return 'signed header names must be lower case';
      // as S3 answers: an x-amz-* header the signer did not sign (x-amz-copy-source on a presigned PUT) is refused
      const unsigned = Object.keys(req.headers).find((h) => h.toLowerCase().startsWith('x-amz-') && !names.includes(h.toLowerCase()));
      if (unsigned !== undefined) return `${unsigned} is not signed`;
      const expected = signature(req, parts.path, parts.params, names, payloadHash!, date!, scope);
      if (expected === undefined) return 'a signed header is missing';
      return same(expected, provided!) ? undefined : 'signature does not match';
    },
    sign(req, service, region, now = Date.now()) {
      const date = amzDate(now);
      const headers: Record<string, string> = { 'x-amz-date': date, 'x-amz-content-sha256': EMPTY_SHA256 };
      const full: SignedRequest = { ...req, headers: { ...req.headers, ...headers } };
      const names = Object.keys(full.headers).map((h) => h.toLowerCase()).filter((h) => h !== 'authorization').sort();
      const scope = [credentials.accessKeyId, date.slice(0, 8), region, service, 'aws4_request'];
      const parts = split(req.url);
      const sig = signature(full, parts.path, parts.params, names, EMPTY_SHA256, date, scope)!;
      headers.authorization = `AWS4-HMAC-SHA256 Credential=${scope.join('/')}, SignedHeaders=${names.join(';')}, Signature=${sig}`;
      return headers;
    },
  };
}

/**
 * Puts the check in front of every 'request' listener of an emulator's HTTP server: a request whose
 * signature does not verify is answered 403 (AWS JSON error shape) and never reaches the emulator.
 */
export function guardHttpServer(server: Server, verify: SigV4['verify'], service: string): void {
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const refused = verify({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers }, service);
    if (refused === undefined) {
      for (const listener of listeners) listener.call(server, req, res);
      return;
    }
    const body = JSON.stringify({ __type: 'AccessDeniedException', message: `request refused: ${refused}` });
    res.writeHead(403, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': 'AccessDeniedException', 'content-length': Buffer.byteLength(body), connection: 'close' });
    res.end(body);
  });
}
