// Astra DB destination: the vector-database config of spec §2.1.
// Input: collection_name ^\w+$, keyspace default "default_keyspace", batch_size >= 1 default 20,
// binary_encode_vectors default true, flatten_metadata default false; extra keys allowed.
// Output: collection_name, batch_size, api_endpoint, token required; flatten_metadata absent.
// api_endpoint is https:// only (the token goes with every call), at validation and before each call.
// Writes one document per embedded element through the official Data API client (see writer.ts for
// the document shape, replace and batching). Check: findCollections with the token (keyspace and
// token proven); an existing collection is described and must accept a deleteMany on record_id that
// matches nothing (proves the token may write); an absent one is reported as created on first write.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { defineConnector, type ConnectorConfig } from '../definition';
import { RECORD_ID_FIELD } from '../records/stage';
import { inputSchema, outputSchema, secretFieldNames, type FieldSpec } from '../schema';
import { clearTextProblem } from '../secure-transport';
import { astraCall, astraMessage, keyspaceOf, openDb, type AstraTarget } from './client';
import { AUTO_CREATE_METRIC, removeDocument, writeDocument } from './writer';

const FIELDS: FieldSpec[] = [
  { name: 'collection_name', type: 'string', required: true, pattern: '^\\w+$', requiredInResponse: true },
  { name: 'keyspace', type: 'string', required: false, default: 'default_keyspace', requiredInResponse: false },
  { name: 'batch_size', type: 'integer', required: false, default: 20, minimum: 1, requiredInResponse: true },
  { name: 'binary_encode_vectors', type: 'boolean', required: false, default: true, requiredInResponse: false },
  { name: 'api_endpoint', type: 'string', required: true, requiredInResponse: true },
  { name: 'token', type: 'string', required: true, requiredInResponse: true, secret: true },
  { name: 'flatten_metadata', type: 'boolean', required: false, default: false, requiredInResponse: false, outputOmit: true },
];

export type AstraDbConfig = AstraTarget & ConnectorConfig;

export const astradbDestination = defineConnector<AstraDbConfig>({
  kind: 'destination',
  type: 'astradb',
  input: (inputSchema(FIELDS) as z.ZodType<ConnectorConfig>).superRefine((c, ctx) => {
    // Only clear text is judged here: the platform's field is any string, a non-URL fails at run time.
    const problem = typeof c.api_endpoint === 'string' ? clearTextProblem(c.api_endpoint, 'api_endpoint', 'token') : undefined;
    if (problem) ctx.addIssue({ code: 'custom', path: ['api_endpoint'], message: problem });
  }) as unknown as z.ZodType<AstraDbConfig>,
  output: outputSchema(FIELDS),
  secretFields: secretFieldNames(FIELDS),
  outputOmit: ['flatten_metadata'],
  async check(c, ctx) {
    const db = await openDb(c, ctx.signal);
    const keyspace = keyspaceOf(c);
    let found;
    try {
      found = (await astraCall(() => db.listCollections(), { attempts: 2 })).find((d) => d.name === c.collection_name);
    } catch (err) {
      throw new Error(`cannot list the collections of keyspace ${keyspace}: ${astraMessage(err)}`);
    }
    if (!found) {
      return `the token is valid; collection ${c.collection_name} does not exist in keyspace ${keyspace} yet: the first write creates it (the embeddings' dimension, ${AUTO_CREATE_METRIC})`;
    }
    const vector = found.definition?.vector;
    // A delete that matches nothing: the closest the Data API allows to proving the token may write.
    try {
      await astraCall(() => db.collection(c.collection_name).deleteMany({ [RECORD_ID_FIELD]: `connection-check-${randomUUID()}` }), { attempts: 2 });
    } catch (err) {
      throw new Error(`collection ${c.collection_name} refused a delete: ${astraMessage(err)}`);
    }
    const shape = vector?.dimension ? `vector dimension ${vector.dimension} (${vector.metric ?? 'cosine'})` : 'no vector dimension (not a vector collection)';
    return `collection ${c.collection_name} in keyspace ${keyspace}: ${shape}; writes accepted`;
  },
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId, ctx) => removeDocument(c, recordId, ctx),
});
