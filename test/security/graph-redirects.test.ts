// Finding (issue 10, Graph sources): a drive file's /content answers 302 to a download URL, and the
// Graph client's fetch followed redirects by itself (undici's redirect: 'follow'), so only the first
// URL was judged by the outbound policy: a service (or anyone answering as Graph) could send the
// connector to a literal private address, the instance metadata one included, which never reaches
// the guarded name lookup. Played as the attacker: the download redirects to 169.254.169.254 and must
// be refused before any connection; a redirect to another origin must not carry the tenant's bearer
// token there (Graph's download URLs are pre-authenticated), and still deliver the bytes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import { resetConfig } from '../../lambdas/config';
import { readSourceObject, validateConfig } from '../../lambdas/connectors/registry';
import { selfSignedCert, startOneDriveStandIn, type OneDriveStandIn } from '../../lambdas/connectors/onedrive/test-server';
import { graphSources } from '../../lambdas/connectors/onedrive/test-server-sources';

const UPN = 'victim@contoso.com';
let od: OneDriveStandIn;
let other: Server;
let otherPort = 0;
const seen: { authorization?: string }[] = [];
const saved = { ca: process.env.CONNECTOR_CA_FILE, graph: process.env.GRAPH_API_ENDPOINT };
const config = () => validateConfig('source', 'onedrive', { authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: od.clientSecret, user_pname: UPN, path: 'Docs' });
const isContent = (c: { path: string }) => c.path.endsWith(':/content');

before(async () => {
  const tls = selfSignedCert();
  process.env.CONNECTOR_CA_FILE = tls.certFile;
  resetConfig();
  const src = graphSources();
  od = await startOneDriveStandIn({ tls, routes: src.routes });
  process.env.GRAPH_API_ENDPOINT = od.url;
  src.addUserDrive(UPN);
  src.putFile(UPN, 'Docs/a.txt', 'contents of a\n');
  // Another origin (localhost, not 127.0.0.1) serving the "download".
  other = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    seen.push({ authorization: req.headers.authorization });
    res.end('bytes from elsewhere\n');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherPort = (other.address() as { port: number }).port;
});
after(async () => {
  other?.closeAllConnections();
  await new Promise<void>((r) => (other ? other.close(() => r()) : r()));
  await od?.stop();
  for (const [k, v] of [['CONNECTOR_CA_FILE', saved.ca], ['GRAPH_API_ENDPOINT', saved.graph]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
});

test('a download redirected to the instance metadata address is refused before any connection', async () => {
  od.fail({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' }, match: isContent });
  await assert.rejects(readSourceObject('onedrive', config(), 'a.txt'), (err: Error) => {
    assert.match(err.message, /^download of Docs\/a\.txt refused: .*instance metadata address/);
    return true;
  });
});

test('a download redirected to another origin gets no bearer token, and its bytes are read', async () => {
  od.fail({ status: 302, headers: { location: `https://localhost:${otherPort}/blob?sig=pre-authenticated` }, match: isContent });
  const bytes = await readSourceObject('onedrive', config(), 'a.txt');
  assert.equal(Buffer.from(bytes).toString('utf8'), 'bytes from elsewhere\n');
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.authorization, undefined, 'the Graph token stayed with Graph');
});
