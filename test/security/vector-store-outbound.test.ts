// Finding (issue 9, vector-store destinations): the Weaviate and Milvus clients open gRPC channels
// with @grpc/grpc-js, which resolves names itself, and weaviate-client makes its REST calls with the
// global fetch; neither takes the policy's agents. A check of the host before connecting leaves a
// window (the name may resolve elsewhere at connect time). Played as the attacker with
// CONNECTORS_DENY_PRIVATE_NETWORKS=true: a gRPC channel and a scoped global fetch to a name that
// resolves to loopback, opened directly (no early check at all), must not reach the servers listening
// there, and a tenant's milvus destination naming it fails with the policy's reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { createServer, type Server } from 'node:http';
import { withGuardedGlobalFetch } from '../../lambdas/net/global-fetch-guard';
import { guardGrpcChannels } from '../../lambdas/net/grpc-guard';
import { checkConnection } from '../../lambdas/connectors/registry';
import { platformSchema, startMilvusTestServer, type MilvusTestServer } from '../../lambdas/connectors/milvus/test-server';

let mv: MilvusTestServer;
let saved: string | undefined;

before(async () => {
  mv = await startMilvusTestServer();
  mv.createCollection('elements', platformSchema(3));
  saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
});
after(async () => {
  if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  await mv?.stop();
});

function rawCall(target: string): Promise<grpc.ServiceError | undefined> {
  const client = new grpc.Client(target, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/milvus.proto.milvus.MilvusService/Connect',
      (x: Buffer) => x,
      (x: Buffer) => x,
      Buffer.alloc(0),
      new grpc.Metadata(),
      { deadline: Date.now() + 5000 },
      (err) => {
        client.close();
        resolve(err ?? undefined);
      },
    );
  });
}

test('a gRPC channel to a name resolving to loopback is refused at connect time; nothing arrives', async () => {
  guardGrpcChannels();
  const before = mv.calls.length;
  const err = await rawCall(`localhost:${mv.port}`);
  assert.ok(err, 'the call failed');
  assert.equal(err!.code, grpc.status.UNAVAILABLE);
  assert.match(err!.details, /host localhost resolves to a private network address \((127\.0\.0\.1|::1)\)/);
  const literal = await rawCall(`169.254.169.254:${mv.port}`);
  assert.match(literal!.details, /instance metadata address/);
  assert.equal(mv.calls.length, before, 'no RPC reached the server');
});

test('a milvus destination naming that host: FAILURE with the policy reason, no call arrives', async () => {
  const before = mv.calls.length;
  const r = await checkConnection('destination', 'milvus', { uri: `https://localhost:${mv.port}`, token: mv.token, collection_name: 'elements', record_id_key: 'record_id' });
  assert.equal(r.status, 'FAILURE');
  assert.match(r.reason!, /private network address/);
  assert.equal(mv.calls.length, before);
});

test('a global fetch started inside the guarded scope (weaviate-client REST) is refused at connect time', async () => {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    for (const url of [`http://localhost:${port}/v1/meta`, `http://127.0.0.1:${port}/v1/meta`]) {
      await assert.rejects(
        withGuardedGlobalFetch(async () => {
          await new Promise((r) => setTimeout(r, 1)); // still in scope after an await, as in the client
          return fetch(url);
        }),
        (err: Error & { cause?: Error }) => /private network address/.test(String(err.cause?.message)),
      );
    }
    assert.equal(hits, 0, 'no request arrived');
    assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 200, "the service's own fetch outside the scope is unchanged");
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
