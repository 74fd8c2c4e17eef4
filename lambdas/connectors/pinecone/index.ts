// Pinecone destination (type `pinecone`, fields from the platform's table: api_key, index_name,
// namespace, batch_size ≥ 1 default 50). Writes one vector per embedded element through the official
// client (see writer.ts for the record shape, replace and batching). Check: describe_index on the
// control plane with the key (401 = bad key); an existing index must be ready and its data plane must
// answer describe_index_stats with the same key; an absent index is reported as created on first write.
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { formatIndexName, indexKind, pineconeCall, pineconeClient, pineconeMessage, type PineconeTarget } from './client';
import { AUTO_CREATE_SPEC, describeIndex, removeDocument, writeDocument } from './writer';

type PineconeConfig = PineconeTarget & ConnectorConfig;

const refine = refineWith<PineconeConfig>((c, ctx) => {
  if (typeof c.index_name === 'string' && !c.index_name.trim()) ctx.addIssue({ code: 'custom', path: ['index_name'], message: 'index_name must not be empty' });
});

export const pineconeDestination = defineConnector<PineconeConfig>({
  ...derivedShape('destination', 'pinecone', refine),
  async check(c, ctx) {
    const pc = await pineconeClient(c.api_key, ctx.signal);
    const name = formatIndexName(c.index_name);
    const model = await describeIndex(pc, name, 2);
    const { cloud, region } = AUTO_CREATE_SPEC.serverless;
    if (!model) return `the API key is valid; index ${name} does not exist yet: the first write creates it (serverless ${cloud} ${region}, cosine, the embeddings' dimension)`;
    if (model.status && !model.status.ready) throw new Error(`index ${name} is not ready (state ${model.status.state})`);
    if (!model.host) throw new Error(`index ${name} has no host`);
    const index = pc.index({ host: model.host, namespace: c.namespace });
    let count = 0;
    try {
      const stats = await pineconeCall(() => index.describeIndexStats(), { attempts: 2 });
      count = stats.namespaces?.[c.namespace]?.recordCount ?? 0;
    } catch (err) {
      throw new Error(`index ${name}: the data plane refused describe_index_stats: ${pineconeMessage(err)}`);
    }
    return `index ${name}: ${indexKind(model)}, dimension ${model.dimension ?? '?'}, ${model.metric}, ready; namespace ${JSON.stringify(c.namespace)} holds ${count} vectors`;
  },
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId, ctx) => removeDocument(c, recordId, ctx),
});
