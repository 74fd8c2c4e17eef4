// IBM watsonx.data destination (type `ibm_watsonx_s3`, fields from the platform's table: iam_api_key,
// access_key_id, secret_access_key, iceberg_endpoint, object_storage_endpoint, object_storage_region,
// catalog, namespace, table, max_retries, max_retries_connection, record_id_key). Writes each
// document's rows into an existing Apache Iceberg table of the watsonx.data catalog: Parquet data
// files and Avro manifests in the object storage, a snapshot committed through the Iceberg REST
// catalog (catalog.ts, store.ts, table.ts, writer.ts). Like the platform, it never creates the
// namespace or the table. Check, as the platform's precheck plus the storage: an IAM token, the
// namespace and the table exist in the catalog, the table is one this writer can write, and the
// table's location in the object storage can be listed with the HMAC key pair.
import { defineConnector, type ConnectorConfig } from '../definition';
import { RECORD_ID_FIELD } from '../records/stage';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { endpointUrl, IcebergCatalog, watsonxClearText, type WatsonxTarget } from './catalog';
import { s3EndpointProblem } from '../service-boundary';
import { ObjectStore } from './store';
import { currentSchema, currentSnapshot, replaceDocument, tableProblem } from './writer';

type WatsonxConfig = WatsonxTarget & ConnectorConfig;

/** The platform's bounds (IbmWatsonxUploaderConfig.max_retries, ConnectionConfig.max_retries_connection). */
const BOUNDS: Record<string, [number, number]> = { max_retries: [2, 500], max_retries_connection: [2, 100] };

const refine = refineWith<WatsonxConfig>((c, ctx) => {
  for (const [field, [lo, hi]] of Object.entries(BOUNDS)) {
    const v = c[field];
    if (typeof v === 'number' && (v < lo || v > hi)) ctx.addIssue({ code: 'custom', path: [field], message: `${field} must be between ${lo} and ${hi}` });
  }
  for (const field of ['iceberg_endpoint', 'object_storage_endpoint', 'catalog', 'namespace', 'table']) {
    if (typeof c[field] === 'string' && !(c[field] as string).trim()) ctx.addIssue({ code: 'custom', path: [field], message: `${field} may not be empty` });
  }
  // Secrets over TLS only: the bearer token goes to iceberg_endpoint (the IAM token URL is a
  // deployment setting, refused before any call). object_storage_endpoint stays as it is: S3 requests
  // are SigV4-signed, the HMAC secret is never sent, so http:// leaves no secret on the wire.
  const clear = watsonxClearText(c);
  if (clear) ctx.addIssue({ code: 'custom', path: [clear.field === 'IBM_IAM_TOKEN_URL' ? 'iam_api_key' : clear.field], message: clear.message });
  if (typeof c.object_storage_endpoint === 'string' && c.object_storage_endpoint.trim()) {
    const problem = s3EndpointProblem(endpointUrl(c.object_storage_endpoint), 'object_storage_endpoint');
    if (problem) ctx.addIssue({ code: 'custom', path: ['object_storage_endpoint'], message: problem });
  }
});

export const ibmWatsonxS3Destination = defineConnector<WatsonxConfig>({
  ...derivedShape('destination', 'ibm_watsonx_s3', refine),
  async check(c, ctx) {
    // One attempt per call, as the platform's precheck (max_retries=1): a failing catalog shows at once.
    const catalog = new IcebergCatalog(c, { attempts: 1 });
    await catalog.token(ctx.signal);
    if (!(await catalog.namespaceExists(ctx.signal))) throw new Error(`Namespace '${c.namespace}' does not exist`);
    if (!(await catalog.tableExists(ctx.signal))) throw new Error(`Table '${c.table}' does not exist in namespace '${c.namespace}'`);
    const { metadata } = await catalog.loadTable(ctx.signal);
    const problem = tableProblem(metadata);
    if (problem) throw new Error(problem);
    const fields = currentSchema(metadata);
    const store = new ObjectStore(c);
    try {
      const objects = await store.count(metadata.location, ctx.signal);
      const key = c.record_id_key ?? RECORD_ID_FIELD;
      const snap = currentSnapshot(metadata);
      const notes = [
        `table ${c.namespace}.${c.table} of catalog ${c.catalog}: Iceberg v2, ${fields.length} columns, ${snap ? `snapshot ${snap['snapshot-id']} (${snap.summary['total-records'] ?? '?'} records)` : 'no snapshot yet'}`,
        `location ${metadata.location} listed (${objects >= 1000 ? '1000+' : objects} objects)`,
      ];
      if (!fields.some((f) => f.name === key)) notes.push(`no ${key} column: rewrites append without deleting earlier rows`);
      if (!fields.some((f) => f.name === 'embeddings')) notes.push('no embeddings column (vectors are not stored)');
      return notes.join('; ');
    } finally {
      store.close();
    }
  },
  upload: (c, file, ctx) => replaceDocument(c, file, ctx),
  removeRecords: async (c, recordId, ctx) => (await replaceDocument(c, { recordId, sourceKey: '', elements: [] }, ctx)).deleted,
});
