// Delta Lake destination (type `delta_table`, fields from the platform's table: table_uri s3://...,
// aws_region, aws_access_key_id, aws_secret_access_key). The platform writes through delta-rs, which
// has no JavaScript build; this family writes the Delta protocol itself: Parquet data files
// (hyparquet-writer) and JSON commits in `_delta_log/`, committed with S3's put-if-absent (see
// log.ts, table.ts, writer.ts). The table is created on the first write (protocol 1/2), as
// delta-rs's mode="overwrite" on an absent table does. Check, as the platform's precheck: writes the
// table folder's marker object (PutObject of the folder key), compares the bucket's region with
// aws_region, then reads the log and reports the table's version, files and columns (or that it
// will be created) and refuses tables this writer cannot write.
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { readSnapshot, writeProblem } from './log';
import { DeltaStore, tableLocation, type DeltaTarget } from './store';
import { parseSchema } from './table';
import { replaceDocument } from './writer';

type DeltaConfig = DeltaTarget & ConnectorConfig;

const refine = refineWith<DeltaConfig>((c, ctx) => {
  if (typeof c.table_uri === 'string' && c.table_uri.startsWith('s3://')) {
    try {
      tableLocation(c.table_uri);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['table_uri'], message: (err as Error).message });
    }
  }
});

export const deltaTableDestination = defineConnector<DeltaConfig>({
  ...derivedShape('destination', 'delta_table', refine),
  async check(c, ctx) {
    const store = new DeltaStore(c);
    try {
      if (store.loc.prefix) await store.put('', new Uint8Array(), { signal: ctx.signal });
      const region = await store.bucketRegion(ctx.signal);
      if (region !== c.aws_region) {
        throw new Error(`Wrong AWS region provided: bucket '${store.loc.bucket}' resides in '${region}', but configuration specifies '${c.aws_region}'.`);
      }
      const snap = await readSnapshot(store, ctx.signal);
      if (snap.version < 0) return `s3://${store.loc.bucket}/${store.loc.prefix}: writable; no Delta table there yet (created on the first write)`;
      const problem = writeProblem(snap, true);
      if (problem) throw new Error(problem);
      return `s3://${store.loc.bucket}/${store.loc.prefix}: Delta table at version ${snap.version}, ${snap.files.size} data files, ${parseSchema(snap.metadata?.schemaString).length} columns`;
    } finally {
      store.close();
    }
  },
  upload: (c, file, ctx) => replaceDocument(c, file, ctx),
  removeRecords: async (c, recordId, ctx) => (await replaceDocument(c, { recordId, sourceKey: '', elements: [] }, ctx)).deleted,
});
