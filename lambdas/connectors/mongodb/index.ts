// MongoDB destination (type `mongodb`, fields from the platform's table: uri, database, collection).
// The uri carries the credentials, so it is a secret here (masked in responses, sealed at rest),
// which the platform's table does not mark. Writes one document per element through the official
// driver (see writer.ts for the document shape, replace and batching). Check, as the platform's
// precheck: a ping with the uri's credentials (authentication proven), the collection must exist in
// the database (FAILURE naming what is missing, as the platform's docs require both to exist), and a
// delete_many by record_id that matches nothing must be accepted (proves the user may write).
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { defineConnector, type ConnectorConfig } from '../definition';
import { RECORD_ID_FIELD } from '../records/stage';
import { derivedShape } from '../types/derived';
import { describeMongoError, uriProblem, withMongo, type MongoTarget } from './client';
import { RECORD_ID_INDEX, removeDocument, writeDocument } from './writer';

type MongoConfig = MongoTarget & ConnectorConfig;

const shape = derivedShape('destination', 'mongodb');

const input = (shape.input as z.ZodType<ConnectorConfig>).superRefine((c, ctx) => {
  if (typeof c.uri === 'string') {
    const problem = uriProblem(c.uri);
    if (problem) ctx.addIssue({ code: 'custom', path: ['uri'], message: problem });
  }
  for (const f of ['database', 'collection'] as const) {
    if (typeof c[f] === 'string' && !c[f].trim()) ctx.addIssue({ code: 'custom', path: [f], message: `${f} must not be empty` });
  }
  if (c.batch_size !== undefined && !(Number.isInteger(c.batch_size) && (c.batch_size as number) >= 1)) {
    ctx.addIssue({ code: 'custom', path: ['batch_size'], message: 'batch_size must be an integer of at least 1' });
  }
}) as unknown as z.ZodType<MongoConfig>;

export const mongodbDestination = defineConnector<MongoConfig>({
  kind: 'destination',
  type: 'mongodb',
  input,
  output: shape.output,
  secretFields: [...shape.secretFields, 'uri'],
  check: (c, ctx) =>
    withMongo(c, { signal: ctx.signal, serverSelectionTimeoutMS: Math.min(5000, Math.floor(ctx.timeoutMs / 2)) }, async (client) => {
      const fail = (what: string, err: unknown) => new Error(`${what}: ${describeMongoError(err, c.uri)}`);
      await client.db('admin').command({ ping: 1 }).catch((err) => {
        throw fail('ping failed', err);
      });
      const db = client.db(c.database);
      const found = await db.listCollections({ name: c.collection }, { nameOnly: true }).toArray().catch((err) => {
        throw fail(`cannot list the collections of database ${c.database}`, err);
      });
      if (!found.length) {
        const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((x) => x.name).sort();
        throw new Error(
          names.length
            ? `collection ${c.collection} does not exist in database ${c.database} (it has: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', ...' : ''}); create it first`
            : `database ${c.database} does not exist (it has no collections); create it with collection ${c.collection} first`,
        );
      }
      const coll = db.collection(c.collection);
      // A delete that matches nothing: the closest MongoDB allows to proving the user may write.
      await coll.deleteMany({ [RECORD_ID_FIELD]: `connection-check-${randomUUID()}` }).catch((err) => {
        throw fail(`collection ${c.collection} refused a delete`, err);
      });
      const count = await coll.estimatedDocumentCount().catch(() => undefined);
      const indexed = await coll.indexExists(RECORD_ID_INDEX).catch(() => false);
      return `database ${c.database}, collection ${c.collection}${count === undefined ? '' : `: ${count} documents`}; writes accepted; ${
        indexed ? 'record_id index present' : 'no record_id index yet (the first write creates it)'
      }`;
    }),
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId, ctx) => removeDocument(c, recordId, ctx),
});
