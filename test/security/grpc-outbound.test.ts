// Finding (issue 9, destinations over gRPC): the Weaviate and Milvus clients open gRPC channels with
// @grpc/grpc-js, which resolves names itself and bypasses the HTTP agents of the outbound policy. A
// check of the host before connecting leaves a window (the name may resolve elsewhere at connect
// time). Played as the attacker with CONNECTORS_DENY_PRIVATE_NETWORKS=true: a channel to a name that
// resolves to loopback, opened directly (no early check at all), must not reach the gRPC server
// listening there, and a tenant's milvus destination naming it fails with the policy's reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
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
  const r = await checkConnection('destination', 'milvus', { uri: `http://localhost:${mv.port}`, token: mv.token, collection_name: 'elements', record_id_key: 'record_id' });
  assert.equal(r.status, 'FAILURE');
  assert.match(r.reason!, /private network address/);
  assert.equal(mv.calls.length, before);
});
