// npm run bench:destinations — records/s written by record destinations, 10,000 chunks with
// 384-dimension vectors, per batch size: Postgres+pgvector (PGlite over the wire, the real `pg`
// driver). Each figure is a full replace of one document of N records (delete + inserts in one
// transaction), as a job's file write does it.
import { deliverToDestination } from '../../lambdas/connectors/registry';
import { platformElementsTable, startPgTestServer } from '../../lambdas/connectors/postgres/test-server';

const N = Number(process.env.BENCH_RECORDS ?? 10_000);
const DIMS = 384;
const BATCHES = (process.env.BENCH_BATCH_SIZES ?? '50,200,500,1000').split(',').map(Number);

function elements(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    type: 'CompositeElement',
    element_id: `e${i}`,
    text: `chunk ${i} `.repeat(40),
    metadata: { filename: 'bench.pdf', filetype: 'application/pdf', page_number: 1 + Math.floor(i / 20), languages: ['eng'] },
    embeddings: Array.from({ length: DIMS }, (_, j) => Math.sin(i * 31 + j)),
  }));
}

const els = elements(N);
const pg = await startPgTestServer();
await pg.db.exec(platformElementsTable('elements', DIMS));
console.log(`postgres destination (PGlite ${pg.host}:${pg.port}, pgvector, pg driver): ${N} records × ${DIMS} dims`);
let best = { rate: 0, batch: 0 };
for (const batch of BATCHES) {
  const config = { host: pg.host, port: pg.port, database: 'postgres', username: 'bench', password: 'x', table_name: 'elements', batch_size: batch };
  await deliverToDestination('postgres', config, { sourceId: 'bench', sourceKey: `warm-${batch}`, elements: els.slice(0, 200) });
  const t0 = performance.now();
  const r = await deliverToDestination('postgres', config, { sourceId: 'bench', sourceKey: 'doc', elements: els });
  const s = (performance.now() - t0) / 1000;
  const rate = r.written / s;
  if (rate > best.rate) best = { rate, batch };
  console.log(`  batch_size ${String(batch).padStart(5)}: ${r.written} written (${r.deleted ?? 0} replaced) in ${s.toFixed(2)} s = ${Math.round(rate).toLocaleString('en-US')} records/s`);
}
console.log(`best: ${Math.round(best.rate).toLocaleString('en-US')} records/s at batch_size ${best.batch} (target ≥ 5,000: ${best.rate >= 5000 ? 'met' : 'NOT met'})`);
await pg.stop();

// weaviate-cloud (weaviate-client: REST schema + gRPC BatchObjects/BatchDelete, local stand-in) and
// milvus (@zilliz/milvus2-sdk-node over gRPC, local stand-in): their batch sizes are fixed by the
// store's limits (no batch field in their configs), so one figure each, a full replace of one document.
{
  const { startWeaviateTestServer } = await import('../../lambdas/connectors/weaviate/test-server');
  const { platformSchema, startMilvusTestServer } = await import('../../lambdas/connectors/milvus/test-server');
  const wv = await startWeaviateTestServer();
  const mv = await startMilvusTestServer();
  mv.createCollection('elements', platformSchema(DIMS, true));
  const targets = [
    { type: 'weaviate-cloud', label: 'weaviate-cloud (stand-in, REST + gRPC)', config: { cluster_url: wv.url, api_key: wv.apiKey, collection: 'Bench' } },
    { type: 'milvus', label: 'milvus (stand-in, gRPC)', config: { uri: mv.uri, token: mv.token, collection_name: 'elements', record_id_key: 'record_id' } },
  ];
  for (const t of targets) {
    await deliverToDestination(t.type, t.config, { sourceId: 'bench', sourceKey: 'doc', elements: els.slice(0, 200) });
    const t0 = performance.now();
    const r = await deliverToDestination(t.type, t.config, { sourceId: 'bench', sourceKey: 'doc', elements: els });
    const s = (performance.now() - t0) / 1000;
    console.log(`${t.label}: ${r.written} written (${r.deleted ?? 0} replaced) in ${s.toFixed(2)} s = ${Math.round(r.written / s).toLocaleString('en-US')} records/s`);
  }
  await wv.stop();
  await mv.stop();
}
