// Milvus destination (type `milvus`, fields from the platform's table: uri, token or user + password,
// db_name, collection_name, record_id_key, flatten_metadata, fields_to_include). One row per embedded
// element (./stage.ts) into a collection the user created (the platform requires it to exist); a
// rewrite first deletes `<record_id_key> == "<record id>"`. Check: an authenticated Connect, then the
// collection described: absent → FAILURE "Collection '<name>' does not exist" as the platform's
// precheck says; a collection that cannot be searched by record_id_key, or is not loaded (Milvus runs
// a delete by a filter expression only on a loaded collection) → FAILURE saying what is missing.
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { connect, milvusClearText, milvusMessage } from './client';
import { deleteDocument, describe, recordKeyProblem, writeDocument, type MilvusTarget } from './writer';

type MilvusConfig = MilvusTarget & ConnectorConfig;

const refine = refineWith<MilvusConfig>((c, ctx) => {
  if (typeof c.uri === 'string') {
    try {
      if (!new URL(c.uri).hostname) throw new Error('no host');
    } catch {
      ctx.addIssue({ code: 'custom', path: ['uri'], message: 'uri must be an http(s) URL naming a host, e.g. https://<cluster>.zillizcloud.com or http://host:19530' });
    }
  }
  if (typeof c.record_id_key === 'string' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.record_id_key)) {
    ctx.addIssue({ code: 'custom', path: ['record_id_key'], message: 'record_id_key must be a Milvus field name (letters, digits, underscores)' });
  }
  const clear = milvusClearText(c);
  if (clear) ctx.addIssue({ code: 'custom', path: ['uri'], message: clear });
  if (c.user && !c.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'password is required with user' });
});

export const milvusDestination = defineConnector<MilvusConfig>({
  ...derivedShape('destination', 'milvus', refine),
  async check(c) {
    const client = await connect(c);
    try {
      const info = await describe(client, c);
      const problem = recordKeyProblem(info, c);
      if (problem) throw new Error(problem);
      const load = (await client.getLoadState({ collection_name: c.collection_name })) as { status?: { error_code?: string; reason?: string }; state?: string };
      if (load.status?.error_code === 'Success' && load.state !== 'LoadStateLoaded') {
        throw new Error(`collection ${c.collection_name} is not loaded (${load.state}): Milvus evaluates the delete by ${c.record_id_key} that replaces a document's rows only on a loaded collection; load it first`);
      }
      const vector = info.fields.find((f) => f.name === 'embeddings') ?? info.fields.find((f) => /Vector/.test(f.data_type));
      const notes = [`collection ${c.collection_name}${c.db_name ? ` in database ${c.db_name}` : ''}: ${info.fields.length} fields${info.dynamic ? ', dynamic field on' : ''}`];
      if (vector) notes.push(`vector field ${vector.name} (${vector.data_type}${vector.dim ? `, dim ${vector.dim}` : ''})`);
      if (!vector || vector.name !== 'embeddings') notes.push('no vector field named embeddings: the platform writes vectors to "embeddings"');
      return notes.join('; ');
    } catch (err) {
      throw new Error(milvusMessage(err, c));
    } finally {
      await client.closeConnection().catch(() => undefined);
    }
  },
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId, ctx) => deleteDocument(c, recordId, ctx),
});
