// Finding (issue 27, finding 2): DNS rebinding past the private-network policy. Clients that checked
// a host's addresses once and then connected through a second lookup of their own (the qdrant-cloud
// destination, Bedrock's HTTP/2 client for embed and prompter nodes, Vertex's global fetch) could be
// sent to loopback by a resolver answering a public address first and 127.0.0.1 after. Played here
// with such a resolver (dns.lookup replaced for names under .rebind.test) and
// CONNECTORS_DENY_PRIVATE_NETWORKS=true: each client family is pointed at a name whose second answer
// is a loopback listener; the listener must see no connection and the failure must name the policy.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect as h2Connect, createSecureServer, createServer as createH2cServer, type Http2Server } from 'node:http2';
import { syncBuiltinESMExports } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Agent as UndiciAgent } from 'undici';
import { selfSignedCert } from '../../lambdas/connectors/azure-ai-search/test-server';
import { checkConnection } from '../../lambdas/connectors/registry';
import { makeElement } from '../../lambdas/engine/elements';
import { createEmbedder, parseEmbedNode } from '../../lambdas/engine/embedding/index';
import { enrichElements, parsePrompterNode } from '../../lambdas/engine/enrichment/index';
import { withGuardedGlobalFetch } from '../../lambdas/net/global-fetch-guard';
import { assertAllowedUrl, guardedHttp2ConnectOptions } from '../../lambdas/net/outbound';

/** A global unicast address (never connected to: the rebinding answer comes before any connect). */
const PUBLIC = '93.184.215.14';
const REFUSED = /private network address \(127\.0\.0\.1\).*CONNECTORS_DENY_PRIVATE_NETWORKS/;

// The rebinding resolver: the first lookup of a name under .rebind.test answers PUBLIC, every later
// one 127.0.0.1. Other names resolve as usual.
const asked = new Map<string, number>();
function rebound(host: string): string | undefined {
  if (!host.endsWith('.rebind.test')) return undefined;
  const n = asked.get(host) ?? 0;
  asked.set(host, n + 1);
  return n === 0 ? PUBLIC : '127.0.0.1';
}
const realLookup = dns.lookup;
const realPromiseLookup = dns.promises.lookup;
type Callback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;
function fakeLookup(host: string, options: LookupOptions | number | Callback, callback?: Callback): void {
  const cb = (typeof options === 'function' ? options : callback)!;
  const opts: LookupOptions = typeof options === 'object' ? options : {};
  const address = rebound(host);
  if (address === undefined) return (realLookup as (...a: unknown[]) => void)(host, options, callback);
  if (opts.all) process.nextTick(cb, null, [{ address, family: 4 }]);
  else process.nextTick(cb, null, address, 4);
}
async function fakePromiseLookup(host: string, options?: LookupOptions): Promise<LookupAddress | LookupAddress[]> {
  const address = rebound(host);
  if (address === undefined) return (realPromiseLookup as (h: string, o?: LookupOptions) => Promise<LookupAddress | LookupAddress[]>)(host, options);
  return options?.all ? [{ address, family: 4 }] : { address, family: 4 };
}

/** Whatever a client asks, an answer it would accept, so a client that gets through finishes. */
const ANSWER = JSON.stringify({
  status: 'ok',
  result: { collections: [] },
  embedding: [0.1, 0.2, 0.3],
  inputTextTokenCount: 1,
  candidates: [{ content: { role: 'model', parts: [{ text: 'an answer from the loopback listener' }] }, finishReason: 'STOP' }],
  output: { message: { role: 'assistant', content: [{ text: 'an answer from the loopback listener' }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
});

let http1: Server;
let h2c: Http2Server;
let connections = 0;
let saved: string | undefined;

before(async () => {
  (dns as { lookup: unknown }).lookup = fakeLookup;
  (dns.promises as { lookup: unknown }).lookup = fakePromiseLookup;
  syncBuiltinESMExports();
  saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const answer = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(ANSWER);
  };
  http1 = createServer(answer);
  h2c = createH2cServer(answer as never);
  for (const s of [http1, h2c]) {
    s.on('connection', () => connections++);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  }
});
after(async () => {
  (dns as { lookup: unknown }).lookup = realLookup;
  (dns.promises as { lookup: unknown }).lookup = realPromiseLookup;
  syncBuiltinESMExports();
  if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  http1.closeAllConnections();
  await Promise.all([http1, h2c].map((s) => new Promise((r) => s.close(r))));
});
beforeEach(() => {
  connections = 0;
});

const url = (server: Server | Http2Server, name: string) => `http://${name}.rebind.test:${(server.address() as AddressInfo).port}`;

/** The failure text of a call: its error's message, or the result's warning when it does not throw. */
async function failureOf(run: () => Promise<unknown>): Promise<string> {
  try {
    const r = (await run()) as { warning?: string } | undefined;
    return String(r?.warning ?? `no failure: ${JSON.stringify(r)}`);
  } catch (err) {
    return String((err as Error).message);
  }
}

test('qdrant-cloud check: the rebound name is refused at connect time; no api-key reaches loopback', async () => {
  // https:// (the key goes over TLS only); the name is refused at lookup, before any TLS handshake.
  const r = await checkConnection('destination', 'qdrant-cloud', { url: url(http1, 'qdrant').replace(/^http:/, 'https:'), api_key: 'qdrant-key', collection_name: 'elements', batch_size: 50 });
  assert.equal(r.status, 'FAILURE');
  assert.match(r.reason!, REFUSED);
  assert.equal(connections, 0, 'the loopback listener saw no connection');
});

test('Bedrock embed node (HTTP/2 client): refused at connect time; no text reaches loopback', async () => {
  const cfg = parseEmbedNode('bedrock', { model_name: 'amazon.titan-embed-text-v2:0', aws_access_key_id: 'AKIDTEST', aws_secret_access_key: 'secret', endpoint_url: url(h2c, 'bedrock-embed') });
  const emb = await createEmbedder({ ...cfg, retryBaseMs: 5 }, {});
  assert.match(await failureOf(() => emb.embedTexts(['a tenant document'])), REFUSED);
  assert.equal(connections, 0, 'the loopback listener saw no connection');
});

test('Bedrock prompter node (HTTP/2 client): refused at connect time; no text reaches loopback', async () => {
  const el = makeElement('Table', 'Year Revenue 2023 10', { filename: 'doc.pdf', text_as_html: '<table><tr><td>Year</td></tr></table>' });
  const node = parsePrompterNode('bedrock_table_description', { endpoint_url: url(h2c, 'bedrock-prompt'), aws_access_key_id: 'AKIDTEST', aws_secret_access_key: 'secret', max_retries: 1 });
  assert.match(await failureOf(() => enrichElements([el], node, {})), REFUSED);
  assert.equal(connections, 0, 'the loopback listener saw no connection');
});

test('Vertex prompter node (global fetch): refused at connect time; no text reaches loopback', async () => {
  const el = makeElement('Table', 'Year Revenue 2023 10', { filename: 'doc.pdf', text_as_html: '<table><tr><td>Year</td></tr></table>' });
  const node = parsePrompterNode('vertexai_table_description', { max_retries: 1 });
  assert.match(await failureOf(() => enrichElements([el], node, { VERTEX_API_KEY: 'vertex-key', VERTEX_BASE_URL: url(http1, 'vertex') })), REFUSED);
  assert.equal(connections, 0, 'the loopback listener saw no connection');
});

test('a global fetch naming its own dispatcher inside the guarded scope still connects through the policy', async () => {
  const own = new UndiciAgent();
  try {
    const target = url(http1, 'own-dispatcher');
    await assertAllowedUrl(target); // the early check: the public answer
    await assert.rejects(
      withGuardedGlobalFetch(() => fetch(`${target}/v1`, { dispatcher: own } as unknown as RequestInit)),
      (e: Error & { cause?: Error }) => (assert.match(String(e.cause?.message), /private network address \(/), true),
    );
    assert.equal(connections, 0, 'the loopback listener saw no connection');
  } finally {
    await own.close();
  }
});

test('the guarded HTTP/2 sockets speak TLS as http2 would (ALPN h2, the certificate verified) where the policy allows', async () => {
  const tls = selfSignedCert();
  const server = createSecureServer({ key: tls.key, cert: tls.cert }, (_req, res) => res.end('h2 over TLS'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const get = (deny: string) =>
    new Promise<string>((resolve, reject) => {
      process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = deny;
      const session = h2Connect(`https://localhost:${(server.address() as AddressInfo).port}`, { ...guardedHttp2ConnectOptions, ca: tls.cert });
      session.on('error', (e) => (session.destroy(), reject(e)));
      const req = session.request({ ':path': '/' });
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => (session.close(), resolve(body)));
      req.on('error', () => undefined); // the session's error is the one reported
    });
  try {
    assert.equal(await get('false'), 'h2 over TLS');
    await assert.rejects(get('true'), /host localhost resolves to a private network address/);
  } finally {
    process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
    await new Promise((r) => server.close(r));
  }
});
