// Google Cloud Storage source (type `gcs`, the platform's fsspec gcs connector: remote_url
// gs://|gcs://bucket/prefix, service_account_key, recursive). Same client, auth and outbound policy
// as the destination (./client.ts).
//
// list: objects.list under the prefix, page by page (pageToken) to the end; recursive: false lists
//   one level (delimiter '/', as fsspec's ls), and folder placeholders and empty objects are skipped
//   (the platform keeps `size > 0` files only). A document's key is its name below the prefix.
// version: the object's etag, as the platform's GcsIndexer (it changes with every new generation).
// dataSource: url gs://<bucket>/<name>, record_locator {protocol, remote_file_path, file_id},
//   date_created timeCreated, date_modified updated (the platform's get_metadata).
// read: the media download of the object (validated against the hashes GCS sends).
// check: the platform's precheck: list the prefix, then fetch the metadata of the first object.
import type { File } from '@google-cloud/storage';
import { assertSafeKey, defineConnector, describeError, fileObject, joinKey, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { derivedShape } from '../types/derived';
import { withRetry } from '../records/retry';
import { gcsBucketFor, gcsInput, gcsReason, type GcsTarget } from './client';

export type GcsSourceConfig = GcsTarget & ConnectorConfig & { recursive?: boolean };

/** Objects per list call (GCS's maximum). */
const PAGE_SIZE = 1000;

interface ObjectResource {
  name?: string;
  id?: string;
  size?: string | number;
  etag?: string;
  timeCreated?: string;
  updated?: string;
}

function toSourceObject(c: GcsSourceConfig, bucket: string, prefix: string, m: ObjectResource): SourceObject | undefined {
  const name = m.name ?? '';
  const size = Number(m.size ?? 0);
  if (!name || name.endsWith('/') || !(size > 0)) return undefined;
  const protocol = /^gcs:/.test(c.remote_url) ? 'gcs' : 'gs';
  return fileObject({
    key: name.slice(prefix.length),
    size,
    version: m.etag,
    url: `${protocol}://${bucket}/${name}`,
    recordLocator: { protocol, remote_file_path: c.remote_url, file_id: m.id },
    created: m.timeCreated,
    modified: m.updated,
  });
}

async function* listObjects(c: GcsSourceConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const { bucket, loc } = await gcsBucketFor(c);
  let pageToken: string | undefined;
  do {
    const query = {
      autoPaginate: false,
      maxResults: PAGE_SIZE,
      ...(loc.prefix ? { prefix: loc.prefix } : {}),
      ...(c.recursive === false ? { delimiter: '/' } : {}),
      ...(pageToken ? { pageToken } : {}),
    };
    let files: File[];
    let next: { pageToken?: string } | null | undefined;
    try {
      const page = await withRetry(() => bucket.getFiles(query), { signal: ctx?.signal });
      files = page[0];
      next = page[1] as { pageToken?: string } | null | undefined;
    } catch (err) {
      throw gcsReason('list', loc.bucket, err);
    }
    for (const f of files) {
      const o = toSourceObject(c, loc.bucket, loc.prefix, f.metadata as ObjectResource);
      if (o) yield o;
    }
    pageToken = next?.pageToken || undefined;
  } while (pageToken);
}

function objectReason(op: string, bucket: string, name: string, err: unknown): Error {
  const e = err as { code?: unknown; message?: string };
  if (e?.code === 404) return new Error(`object gs://${bucket}/${name} not found (${op}: ${describeError(err).split('\n')[0]})`);
  return gcsReason(op, bucket, err);
}

async function readObject(c: GcsSourceConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const { bucket, loc } = await gcsBucketFor(c);
  const name = joinKey(loc.prefix, assertSafeKey(key));
  try {
    const [data] = await withRetry(() => bucket.file(name).download({ validation: 'crc32c' }), { signal: ctx?.signal });
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } catch (err) {
    throw objectReason('download', loc.bucket, name, err);
  }
}

export const gcsSource = defineConnector<GcsSourceConfig>({
  ...derivedShape('source', 'gcs', (input) => gcsInput<GcsSourceConfig>(input)),
  async check(c, ctx) {
    const { bucket, loc } = await gcsBucketFor(c);
    let files: File[];
    try {
      [files] = await bucket.getFiles({ autoPaginate: false, maxResults: 1, ...(loc.prefix ? { prefix: loc.prefix } : {}) });
    } catch (err) {
      throw gcsReason('list', loc.bucket, err);
    }
    ctx.signal.throwIfAborted();
    const first = files[0];
    if (!first) return `listed gs://${loc.bucket}/${loc.prefix} with the service account key (no objects yet)`;
    try {
      await first.getMetadata();
    } catch (err) {
      throw objectReason('get', loc.bucket, first.name, err);
    }
    return `listed gs://${loc.bucket}/${loc.prefix} and read the metadata of ${first.name} with the service account key`;
  },
  list: listObjects,
  read: readObject,
});
