// Amazon Bedrock Converse API, signed with SigV4 by hand (no AWS SDK in the engine).
// Env: AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN), AWS_REGION (default
// us-east-1), BEDROCK_VLM_MODEL (default an Anthropic Claude model id), BEDROCK_ENDPOINT (override).
// The keys count only with BEDROCK_ENDPOINT, BEDROCK_USE_DEFAULT_CREDENTIALS=true, or on a Lambda.
import { createHash, createHmac } from 'node:crypto';
import { httpError, base64, type Env, type VlmClient } from './index';

const sha256hex = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();

/** RFC 3986 encoding of each path segment, as SigV4 canonical URIs need. */
const encodePath = (p: string) => p.split('/').map((seg) => encodeURIComponent(seg).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('/');

export interface SigV4Input {
  method: string;
  url: URL;
  body: string;
  region: string;
  service: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  now?: Date;
}

/** Headers (authorization, x-amz-date, ...) for a SigV4-signed request. */
export function signV4(i: SigV4Input): Record<string, string> {
  const now = i.now ?? new Date();
  const amzDate = now.toISOString().replace(/[:-]|\.\d{3}/g, '');
  const date = amzDate.slice(0, 8);
  const payloadHash = sha256hex(i.body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    host: i.url.host,
    'x-amz-content-sha256': payloadHash,
    'x-amz-date': amzDate,
  };
  if (i.sessionToken) headers['x-amz-security-token'] = i.sessionToken;
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim()}\n`).join('');
  const signedHeaders = names.join(';');
  const query = [...i.url.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  // Non-S3 services sign the path encoded once more (a %3A in the request becomes %253A).
  const canonical = [i.method, encodePath(i.url.pathname), query, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${i.region}/${i.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256hex(canonical)].join('\n');
  const kDate = hmac(`AWS4${i.secretAccessKey}`, date);
  const kSigning = hmac(hmac(hmac(kDate, i.region), i.service), 'aws4_request');
  const signature = createHmac('sha256', kSigning).update(toSign).digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${i.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}

export function bedrockProvider(env: Env, model: string | undefined, fetchImpl: typeof fetch): VlmClient | undefined {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) return undefined;
  // -- emulator keys (npm start points the SDK at local emulators) must not count as Bedrock access:
  //    only an explicit endpoint, an explicit opt-in, or a real Lambda's role does (as for embeddings) --
  const usable = env.BEDROCK_ENDPOINT || env.BEDROCK_USE_DEFAULT_CREDENTIALS === 'true' || (env.AWS_LAMBDA_FUNCTION_NAME && !env.AWS_ENDPOINT_URL);
  if (!usable) return undefined;
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const m = model ?? env.BEDROCK_VLM_MODEL ?? 'anthropic.claude-3-5-sonnet-20240620-v1:0';
  const endpoint = (env.BEDROCK_ENDPOINT ?? `https://bedrock-runtime.${region}.amazonaws.com`).replace(/\/+$/, '');
  return {
    name: 'bedrock',
    model: m,
    async complete(png, prompt, signal) {
      const url = new URL(`${endpoint}/model/${encodeURIComponent(m)}/converse`);
      const body = JSON.stringify({
        messages: [{ role: 'user', content: [{ image: { format: 'png', source: { bytes: base64(png) } } }, { text: prompt }] }],
        inferenceConfig: { maxTokens: 8192, temperature: 0 },
      });
      const headers = signV4({ method: 'POST', url, body, region, service: 'bedrock', accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN });
      delete headers.host;
      const res = await fetchImpl(url, { method: 'POST', headers, body, signal });
      if (!res.ok) throw await httpError(res, 'Bedrock');
      const json = (await res.json()) as { output?: { message?: { content?: { text?: string }[] } } };
      const text = json.output?.message?.content?.map((c) => c.text ?? '').join('');
      if (!text) throw new Error('Bedrock answer has no text content');
      return text;
    },
  };
}
