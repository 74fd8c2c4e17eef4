// MongoDB source (type `mongodb`; the platform's mongodb.py indexer and downloader): every document
// of the collection is one document here, identified by its _id. The text is what the platform's
// downloader writes: the document without _id, flattened (nested keys joined with '_'), its values
// one per line as Python prints them; named `<_id>.txt`; record_locator {database, collection,
// document_id}; date_created from a `date_created` field, else the ObjectId's timestamp. Listing
// pages by _id (keyset: `_id > last`, sorted, batch_size per page, each page retried on throttling),
// and the version is a hash of the text, since MongoDB keeps no revision of a document.
import type { Document, MongoClient } from 'mongodb';
import { defineConnector, epochSeconds, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { withRetry } from '../records/retry';
import { contentVersion } from '../records/row-document';
import { flatText, pyStr } from '../records/flat-text';
import { derivedShape } from '../types/derived';
import { toStoreError, withMongo, type MongoTarget } from './client';
import { checkMongo, mongoInput } from './check';

type MongoSourceConfig = MongoTarget & ConnectorConfig;

const shape = derivedShape('source', 'mongodb', (input) => mongoInput<MongoSourceConfig>(input));
const DEFAULT_BATCH = 100;

const isObjectId = (v: unknown): v is { toHexString(): string; getTimestamp(): Date } =>
  typeof v === 'object' && v !== null && (v as { _bsontype?: string })._bsontype === 'ObjectId';

/** The platform's document text: values of the flattened document without _id, one per line. */
export function documentText(doc: Document): string {
  const { _id, ...rest } = doc;
  return flatText(rest);
}

const idString = (id: unknown) => (isObjectId(id) ? id.toHexString() : typeof id === 'string' ? id : pyStr(id));

/** The _id values a key may stand for: an ObjectId's hex, a string id, a numeric id. */
async function idCandidates(key: string): Promise<unknown[]> {
  const { ObjectId } = await import('mongodb');
  const out: unknown[] = [key];
  if (/^[0-9a-f]{24}$/i.test(key)) out.unshift(new ObjectId(key));
  if (/^-?\d+(\.\d+)?$/.test(key)) out.push(Number(key));
  return out;
}

/** Seed hosts of the uri, without credentials or options (for data_source.url). */
function hostsOfUri(uri: string): string {
  const m = /^(mongodb(?:\+srv)?):\/\/(?:[^@/]*@)?([^/?]*)/.exec(uri);
  return m ? `${m[1]}://${m[2]}` : 'mongodb://';
}

function sourceObject(c: MongoSourceConfig, doc: Document): SourceObject {
  const id = idString(doc._id);
  const bytes = new TextEncoder().encode(documentText(doc));
  const version = contentVersion(bytes);
  const created = doc.date_created instanceof Date || typeof doc.date_created === 'string' ? doc.date_created : isObjectId(doc._id) ? doc._id.getTimestamp() : undefined;
  return {
    key: id,
    size: bytes.byteLength,
    version,
    filename: `${id.replace(/[/\\]/g, '_')}.txt`,
    dataSource: {
      url: `${hostsOfUri(c.uri)}/${encodeURIComponent(c.database)}.${encodeURIComponent(c.collection)}/${encodeURIComponent(id)}`,
      version,
      record_locator: { database: c.database, collection: c.collection, document_id: id },
      ...(created !== undefined ? { date_created: epochSeconds(created) } : {}),
    },
  };
}

function run<T>(c: MongoSourceConfig, ctx: RuntimeContext | undefined, what: string, fn: (client: MongoClient) => Promise<T>): Promise<T> {
  return withRetry(
    () =>
      withMongo(c, { signal: ctx?.signal }, async (client) => {
        try {
          return await fn(client);
        } catch (err) {
          throw toStoreError(err, c.uri, `${what}: `);
        }
      }),
    { signal: ctx?.signal, retryable: (err) => (err as { retryable?: boolean }).retryable === true },
  );
}

async function* listDocuments(c: MongoSourceConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const size = typeof c.batch_size === 'number' && c.batch_size >= 1 ? c.batch_size : DEFAULT_BATCH;
  let last: unknown;
  let first = true;
  for (;;) {
    const page = await run(c, ctx, `listing collection ${c.collection}`, (client) =>
      client
        .db(c.database)
        .collection(c.collection)
        .find((first ? {} : { _id: { $gt: last } }) as Document, { sort: { _id: 1 }, limit: size, batchSize: size })
        .toArray(),
    );
    for (const doc of page) yield sourceObject(c, doc);
    if (page.length < size) return;
    last = page[page.length - 1]!._id;
    first = false;
  }
}

async function readDocument(c: MongoSourceConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const ids = await idCandidates(key);
  const doc = await run(c, ctx, `reading collection ${c.collection}`, (client) =>
    client.db(c.database).collection(c.collection).findOne({ _id: { $in: ids } } as Document),
  );
  if (!doc) throw new Error(`no document with _id ${JSON.stringify(key)} in ${c.database}.${c.collection}`);
  return new TextEncoder().encode(documentText(doc));
}

export const mongodbSource = defineConnector<MongoSourceConfig>({
  ...shape,
  secretFields: [...shape.secretFields, 'uri'],
  // The platform's precheck: ping with the uri's credentials, then the database and the collection exist.
  check: (c, ctx) =>
    checkMongo(c, ctx, { destination: false }, async (coll) => {
      const count = await coll.estimatedDocumentCount().catch(() => undefined);
      return `database ${c.database}, collection ${c.collection}${count === undefined ? '' : `: ${count} documents`}`;
    }),
  list: listDocuments,
  read: readDocument,
});
