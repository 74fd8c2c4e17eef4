// Qdrant Cloud destination (type `qdrant-cloud`, fields from the platform's table: url, api_key,
// collection_name, batch_size ≥ 1 default 50). Writes one point per embedded element through the
// official REST client (see writer.ts for the payload, replace and batching). Check: list collections
// with the key (401/403 = bad key); an existing collection is described (vector size, distance, points)
// and must accept a delete by record_id that matches nothing (proves the key may write); an absent one
// is reported as created on first write. The key goes to an https:// url only (secure-transport.ts).
import { randomUUID } from 'node:crypto';
import { defineConnector, type ConnectorConfig } from '../definition';
import { RECORD_ID_FIELD } from '../records/stage';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { qdrantCall, qdrantClearText, qdrantClient, type QdrantTarget } from './client';
import { AUTO_CREATE_DISTANCE, removeDocument, writeDocument } from './writer';

type QdrantConfig = QdrantTarget & ConnectorConfig;

const refine = refineWith<QdrantConfig>((c, ctx) => {
  if (typeof c.url === 'string' && !/^https?:\/\/[^/\s]+/i.test(c.url)) ctx.addIssue({ code: 'custom', path: ['url'], message: 'url must be an http(s) URL, e.g. https://<cluster>.cloud.qdrant.io:6333' });
  const clear = qdrantClearText(c);
  if (clear) ctx.addIssue({ code: 'custom', path: ['url'], message: clear });
  if (typeof c.collection_name === 'string' && !c.collection_name.trim()) ctx.addIssue({ code: 'custom', path: ['collection_name'], message: 'collection_name must not be empty' });
});

function describeVectors(params: unknown): string {
  const v = (params as { vectors?: unknown })?.vectors as { size?: number; distance?: string } | Record<string, { size?: number; distance?: string }> | undefined;
  if (!v) return 'no dense vectors';
  if (typeof (v as { size?: number }).size === 'number') return `vector size ${(v as { size: number }).size} (${(v as { distance?: string }).distance ?? '?'})`;
  return `named vectors ${Object.keys(v).join(', ')}`;
}

export const qdrantDestination = defineConnector<QdrantConfig>({
  ...derivedShape('destination', 'qdrant-cloud', refine),
  async check(c) {
    const client = await qdrantClient(c);
    const { collections } = await qdrantCall(c.url, () => client.getCollections(), { attempts: 2 });
    if (!collections.some((x) => x.name === c.collection_name)) {
      return `the API key is valid; collection ${c.collection_name} does not exist yet: the first write creates it (the embeddings' vector size, ${AUTO_CREATE_DISTANCE})`;
    }
    const info = await qdrantCall(c.url, () => client.getCollection(c.collection_name), { attempts: 2 });
    // A delete that matches nothing: the closest Qdrant allows to proving the key may write.
    await qdrantCall(c.url, () => client.delete(c.collection_name, { wait: true, filter: { must: [{ key: RECORD_ID_FIELD, match: { value: `connection-check-${randomUUID()}` } }] } }), { attempts: 2 });
    return `collection ${c.collection_name}: ${describeVectors(info.config?.params)}, ${info.points_count ?? 0} points; writes accepted`;
  },
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId) => removeDocument(c, recordId),
});
