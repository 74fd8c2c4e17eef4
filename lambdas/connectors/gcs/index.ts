// Google Cloud Storage destination (type `gcs`, fields from the platform's table: remote_url
// gs://|gcs://bucket/prefix, service_account_key). A file destination like s3 and azure: each
// processed file's elements (with embeddings) as one JSON array at `<prefix><source key>.json`, the
// key the platform's fsspec uploader uses; a rewrite of the file overwrites the same object (N runs
// leave one copy). Check: the platform's precheck, an empty `<prefix>_empty` object written with
// the key (proves the key, the bucket and the right to write).
import { assertSafeKey, defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { gcsInput, parseGcsUrl, putObject, type GcsTarget } from './client';

type GcsConfig = GcsTarget & ConnectorConfig;

export const gcsDestination = defineConnector<GcsConfig>({
  ...derivedShape('destination', 'gcs', (input) => gcsInput<GcsConfig>(input)),
  async check(c, ctx) {
    const { bucket } = parseGcsUrl(c.remote_url);
    const name = await putObject(c, '_empty', new Uint8Array(0), { signal: ctx.signal });
    return `wrote gs://${bucket}/${name} with the service account key`;
  },
  async write(c, key, data, ctx) {
    await putObject(c, assertSafeKey(key), data, ctx);
  },
});
