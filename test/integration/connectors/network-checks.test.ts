// Connection checks of hosted-service types, against local stand-ins on 127.0.0.1: a TCP port that is
// no such service, a stored config that no longer validates, the private-network policy (Box's and Astra
// DB's checks live with their families: box-source.test.ts, astradb.test.ts). Unreachable and unresolvable
// hosts end in FAILURE with the reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { checkConnection, validateConfig } from '../../../lambdas/connectors/registry';
import { closedPort } from './helpers';

let http: Server;
let httpBase = '';
let tcp: TcpServer;
let tcpPort = 0;
const seen: { method: string; url: string; token?: string }[] = [];

async function body(req: IncomingMessage): Promise<string> {
  let s = '';
  for await (const chunk of req) s += chunk;
  return s;
}

before(async () => {
  http = createServer(async (req, res) => {
    await body(req);
    seen.push({ method: req.method ?? '', url: req.url ?? '', token: req.headers.token as string | undefined });
    const json = (status: number, v: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(v));
    };
    json(404, {});
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  httpBase = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  tcp = createTcpServer((s) => s.end());
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as { port: number }).port;
});

after(async () => {
  http.closeAllConnections();
  await new Promise<void>((r) => http.close(() => r()));
  await new Promise<void>((r) => tcp.close(() => r()));
});

const astra = (extra: Record<string, unknown> = {}) =>
  // https:// (the token goes over TLS only); the policy refuses before any connection, TLS or not.
  validateConfig('destination', 'astradb', { collection_name: 'docs', api_endpoint: httpBase.replace(/^http:/, 'https:'), token: 'astra-good', ...extra });

test('types that speak to their service: a TCP port that is no such service fails', async () => {
  // teradata speaks to the Query Service now (issues 9 and 10): a TCP port that is no Query Service fails
  const td = { host: `http://127.0.0.1:${tcpPort}`, user: 'u', password: 'p' };
  const tdCheck = await checkConnection('destination', 'teradata', validateConfig('destination', 'teradata', td), { timeoutMs: 3000 });
  assert.equal(tdCheck.status, 'FAILURE');
  assert.doesNotMatch(tdCheck.reason!, /credentials were not verified/);
  const mongo = validateConfig('source', 'mongodb', { uri: 'mongodb+srv://u:p@cluster0.mongo.invalid/db', database: 'd', collection: 'c' });
  const dns = await checkConnection('source', 'mongodb', mongo);
  assert.equal(dns.status, 'FAILURE');
  // the mongodb source is a real client now: its own reason (the SRV lookup) names the host
  assert.match(dns.reason!, /cluster0\.mongo\.invalid/);
  // The elasticsearch source and destination speak to the cluster: a TCP port that is no cluster fails.
  const es = await checkConnection('source', 'elasticsearch', validateConfig('source', 'elasticsearch', { hosts: [`https://127.0.0.1:${tcpPort}`], index_name: 'i', es_api_key: 'k' }), { timeoutMs: 3000 });
  assert.equal(es.status, 'FAILURE');
  const esDest = await checkConnection('destination', 'elasticsearch', validateConfig('destination', 'elasticsearch', { hosts: [`https://127.0.0.1:${tcpPort}`], index_name: 'i', es_api_key: 'k' }), { timeoutMs: 3000 });
  assert.equal(esDest.status, 'FAILURE');
});

test('a check of a stored config that no longer validates is a FAILURE naming the field', async () => {
  const r = await checkConnection('destination', 'astradb', { collection_name: 'bad name', api_endpoint: httpBase.replace(/^http:/, 'https:'), token: 't' });
  assert.equal(r.status, 'FAILURE');
  assert.match(r.reason!, /invalid config: config\.collection_name/);
  const u = await checkConnection('destination', 'nope', {});
  assert.equal(u.status, 'FAILURE');
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS refuses hosts on private addresses, before any connection', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    seen.length = 0;
    const a = await checkConnection('destination', 'astradb', astra());
    assert.equal(a.status, 'FAILURE');
    assert.match(a.reason!, /resolves to a private network address \(127\.0\.0\.1\)/);
    assert.equal(seen.length, 0);
    const pg = { host: 'localhost', port: tcpPort, database: 'd', username: 'u', password: 'p', table_name: 't', batch_size: 10 };
    const p = await checkConnection('destination', 'postgres', validateConfig('destination', 'postgres', pg));
    assert.equal(p.status, 'FAILURE');
    assert.match(p.reason!, /host localhost resolves to a private network address/);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
