// MongoDB destination (type `mongodb`, fields from the platform's table: uri, database, collection).
// The uri carries the credentials, so it is a secret here (masked in responses, sealed at rest),
// which the platform's table does not mark. Writes one document per element through the official
// driver (see writer.ts for the document shape, replace and batching). Check, as the platform's
// precheck: a ping with the uri's credentials (authentication proven), the collection must exist in
// the database (FAILURE naming what is missing, as the platform's docs require both to exist), and a
// delete_many by record_id that matches nothing must be accepted (proves the user may write).
import { randomUUID } from 'node:crypto';
import { defineConnector, type ConnectorConfig } from '../definition';
import { RECORD_ID_FIELD } from '../records/stage';
import { derivedShape } from '../types/derived';
import type { MongoTarget } from './client';
import { checkMongo, mongoInput } from './check';
import { RECORD_ID_INDEX, removeDocument, writeDocument } from './writer';

type MongoConfig = MongoTarget & ConnectorConfig;

const shape = derivedShape('destination', 'mongodb', (input) => mongoInput<MongoConfig>(input));

export const mongodbDestination = defineConnector<MongoConfig>({
  ...shape,
  secretFields: [...shape.secretFields, 'uri'],
  check: (c, ctx) =>
    checkMongo(c, ctx, { destination: true }, async (coll, fail) => {
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
