// Weaviate Cloud destination (type `weaviate-cloud`, fields from the platform's table: cluster_url,
// api_key, collection). One object per element (see ./stage.ts) in the collection (default
// "Unstructuredautocreated", created from the platform's collection config when absent); a rewrite
// first deletes the document's objects by record_id. Check: connects with the API key (REST meta +
// gRPC health), lists the schema, and for an existing collection runs a dry-run delete by record_id
// over gRPC (authenticated, touches nothing); an absent collection is reported as to be created.
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { RECORD_ID_FIELD } from '../records/stage';
import { endpointsOf, useWeaviate, weaviateClearText, weaviateMessage } from './client';
import { collectionName } from './stage';
import { deleteDocument, propertyNames, writeDocument, type WeaviateTarget } from './writer';

type WeaviateConfig = WeaviateTarget & ConnectorConfig;

const refine = refineWith<WeaviateConfig>((c, ctx) => {
  const clear = weaviateClearText(c);
  if (clear) ctx.addIssue({ code: 'custom', path: ['cluster_url'], message: clear });
  if (typeof c.cluster_url === 'string') {
    try {
      endpointsOf(c.cluster_url);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['cluster_url'], message: (err as Error).message });
    }
  }
  if (typeof c.collection === 'string' && c.collection.trim()) {
    try {
      collectionName(c.collection);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['collection'], message: (err as Error).message });
    }
  }
});

export const weaviateCloudDestination = defineConnector<WeaviateConfig>({
  ...derivedShape('destination', 'weaviate-cloud', refine),
  async check(c) {
    const name = collectionName(c.collection);
    try {
      return await useWeaviate(c, async (client) => {
        const meta = await client.getMeta();
        if (!(await client.collections.exists(name))) {
          return `Weaviate ${meta.version}: authenticated; collection ${name} does not exist yet, the first write creates it from the platform's collection config (vectorizer none, HNSW)`;
        }
        const props = await propertyNames(client, name);
        const notes = [`Weaviate ${meta.version}: authenticated; collection ${name} exists with ${props.size} properties`];
        if (props.has(RECORD_ID_FIELD)) {
          const collection = client.collections.use(name);
          await collection.data.deleteMany(collection.filter.byProperty(RECORD_ID_FIELD).equal('connection-check'), { dryRun: true });
          notes.push('a dry-run delete by record_id succeeded');
        } else {
          notes.push(`no ${RECORD_ID_FIELD} property yet (the first write adds it)`);
        }
        return notes.join('; ');
      });
    } catch (err) {
      throw new Error(weaviateMessage(err, c.api_key));
    }
  },
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId, ctx) => deleteDocument(c, recordId, ctx),
});
