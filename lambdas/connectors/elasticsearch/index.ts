// Elasticsearch and OpenSearch destinations (types `elasticsearch`, `opensearch`; fields from the
// platform's table, plus optional batch_size (documents per _bulk, default 500), batch_size_bytes
// (default 15 MB / 5 MB as the platform's uploaders) and num_threads (requests in flight, default 4);
// opensearch also takes aws_region/aws_service for SigV4 on endpoints whose name does not say them).
// Records: one document per element, shaped as the platform's stager does (stage.ts); replace by
// record_id (writer.ts). Check: a real authenticated call on the target index — Elasticsearch asks
// the cluster for the key's privileges on the index (_has_privileges) and reads its mapping;
// OpenSearch reads the mapping and runs a delete_by_query that matches nothing (it needs the read
// and delete permissions a rewrite needs). Credentials go to https:// nodes only (secure-transport.ts). A missing index fails the check, as the platform's
// precheck does; a job writing to a missing index creates it with the vectors' dimension.
import type { z } from 'zod';
import { defineConnector, type ConnectorConfig, type ConnectorDefinition } from '../definition';
import { DERIVED_FIELDS } from '../derived-fields';
import { redact } from '../agents';
import { inputSchema, outputSchema, secretFieldNames, type FieldSpec } from '../schema';
import type { UploadContext } from '../records/types';
import { assertNodesAllowed, clearTextHostsProblem, clusterStatus, describeClusterError, indexNameProblem, isClientError, itemErrorText, nodeUrls, type SearchCluster } from './cluster';
import { elasticsearchCluster } from './es-client';
import { detectAwsOpenSearch, openSearchCluster, type OpenSearchAccess } from './os-client';
import { describeMapping, indexBody } from './stage';
import { removeRecords, uploadRecords, type WriteTarget } from './writer';

export interface SearchConfig extends ConnectorConfig {
  hosts: string[];
  index_name: string;
  batch_size?: number | null;
  batch_size_bytes?: number | null;
  num_threads?: number | null;
}
export interface ElasticsearchConfig extends SearchConfig {
  es_api_key: string;
}
export interface OpenSearchConfig extends SearchConfig {
  username?: string | null;
  password?: string | null;
  use_ssl?: boolean | null;
  aws_access_key_id?: string | null;
  aws_secret_access_key?: string | null;
  aws_session_token?: string | null;
  aws_region?: string | null;
  aws_service?: string | null;
}

const BATCH_FIELDS: FieldSpec[] = [
  { name: 'batch_size', type: 'integer', required: false, minimum: 1, maximum: 10_000, requiredInResponse: false },
  { name: 'batch_size_bytes', type: 'integer', required: false, minimum: 1_000, maximum: 100_000_000, requiredInResponse: false },
  { name: 'num_threads', type: 'integer', required: false, minimum: 1, maximum: 16, requiredInResponse: false },
];
const AWS_FIELDS: FieldSpec[] = [
  { name: 'aws_region', type: 'string', required: false, pattern: '^[a-z]{2}(-[a-z]+)+-\\d+$', requiredInResponse: false },
  { name: 'aws_service', type: 'string', required: false, pattern: '^(es|aoss)$', requiredInResponse: false },
];

/** A side's schemas: the platform's fields plus `extra`, hosts and index name checked, OpenSearch's IAM keys in pairs. */
export function shapeOf<C extends ConnectorConfig>(kind: 'source' | 'destination', type: 'elasticsearch' | 'opensearch', extra: FieldSpec[]) {
  const fields = [...DERIVED_FIELDS[kind][type]!.fields, ...extra];
  const input = inputSchema(fields).superRefine((c, ctx) => {
    if (Array.isArray(c.hosts)) {
      try {
        nodeUrls(c.hosts as string[], 'https');
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['hosts'], message: (err as Error).message });
      }
    }
    const clear = clearTextHostsProblem(type, c);
    if (clear) ctx.addIssue({ code: 'custom', path: ['hosts'], message: clear });
    const problem = typeof c.index_name === 'string' ? indexNameProblem(c.index_name) : undefined;
    if (problem) ctx.addIssue({ code: 'custom', path: ['index_name'], message: problem });
    if (type === 'opensearch' && Boolean(c.aws_access_key_id) !== Boolean(c.aws_secret_access_key)) {
      ctx.addIssue({ code: 'custom', path: [c.aws_access_key_id ? 'aws_secret_access_key' : 'aws_access_key_id'], message: 'AWS IAM authentication needs both aws_access_key_id and aws_secret_access_key' });
    }
  });
  return { input: input as unknown as z.ZodType<C>, output: outputSchema(fields), secretFields: secretFieldNames(fields) };
}

function target(c: SearchConfig, defaultBytes: number): WriteTarget {
  return { index: c.index_name, batchSize: c.batch_size ?? 500, batchBytes: c.batch_size_bytes ?? defaultBytes, concurrency: c.num_threads ?? 4 };
}

function openSearchAccess(c: OpenSearchConfig): OpenSearchAccess {
  const clear = clearTextHostsProblem('opensearch', c);
  if (clear) throw new Error(clear);
  const nodes = nodeUrls(c.hosts, c.use_ssl ? 'https' : 'http');
  if (!c.aws_access_key_id || !c.aws_secret_access_key) return { nodes, username: c.username, password: c.password };
  const detected = detectAwsOpenSearch(nodes[0]!);
  const region = c.aws_region ?? detected?.region;
  if (!region) {
    throw new Error(
      `cannot tell the AWS region of ${new URL(nodes[0]!).host} for SigV4: use the domain endpoint (https://search-<domain>.<region>.es.amazonaws.com or https://<id>.<region>.aoss.amazonaws.com) or set aws_region (and aws_service es or aoss)`,
    );
  }
  const service = (c.aws_service ?? detected?.service ?? 'es') as 'es' | 'aoss';
  return { nodes, aws: { accessKeyId: c.aws_access_key_id, secretAccessKey: c.aws_secret_access_key, sessionToken: c.aws_session_token, region, service } };
}

/** Runs fn on a cluster client made for this call; errors come out in the store's words, secrets redacted. */
export async function withCluster<T>(open: () => Promise<SearchCluster>, secrets: (string | null | undefined)[], fn: (cluster: SearchCluster) => Promise<T>, signal?: AbortSignal): Promise<T> {
  let cluster: SearchCluster | undefined;
  const stop = () => void cluster?.close().catch(() => undefined);
  signal?.addEventListener('abort', stop, { once: true });
  try {
    cluster = await open();
    return await fn(cluster);
  } catch (err) {
    const message = cluster && isClientError(err) ? describeClusterError(err, cluster.product) : (err as Error).message ?? String(err);
    throw new Error(redact(message, secrets));
  } finally {
    signal?.removeEventListener('abort', stop);
    await cluster?.close().catch(() => undefined);
  }
}

const absentIndex = (product: string, index: string, dialect: 'elasticsearch' | 'opensearch') =>
  new Error(
    `index ${index} not found in ${product}: create it first (the platform requires an existing index), for example with the mapping ${JSON.stringify(indexBody(dialect, 384))} sized to your embedder's dimensions; a job that writes to a missing index creates it that way`,
  );

/** `index <name>: <mapping summary>`; a missing index throws the message above. */
async function describeIndex(cluster: SearchCluster, index: string): Promise<string> {
  try {
    return `index ${index}: ${describeMapping(await cluster.mapping(index))}`;
  } catch (err) {
    const status = clusterStatus(err);
    if (status === 404) throw absentIndex(cluster.product, index, cluster.dialect);
    if (status !== 403) throw err;
  }
  // Allowed to use the index but not to read its metadata: a count proves it exists.
  try {
    const n = await cluster.count(index);
    return `index ${index} exists (${n} documents; its mapping is not readable with these credentials)`;
  } catch (err) {
    if (clusterStatus(err) === 404) throw absentIndex(cluster.product, index, cluster.dialect);
    throw err;
  }
}

const esShape = shapeOf<ElasticsearchConfig>('destination', 'elasticsearch', BATCH_FIELDS);
export const openEs = (c: ElasticsearchConfig) => async () => {
  const clear = clearTextHostsProblem('elasticsearch', c);
  if (clear) throw new Error(clear);
  const nodes = nodeUrls(c.hosts, 'https');
  await assertNodesAllowed(nodes);
  return elasticsearchCluster({ nodes, apiKey: c.es_api_key });
};

export const elasticsearchDestination: ConnectorDefinition = defineConnector<ElasticsearchConfig>({
  kind: 'destination',
  type: 'elasticsearch',
  ...esShape,
  check: (c, ctx) =>
    withCluster(openEs(c), [c.es_api_key], async (cluster) => {
      const es = cluster as ReturnType<typeof elasticsearchCluster>;
      // Any valid key may ask for its own privileges: a 401 here is the credentials' verdict.
      let privileges: string;
      try {
        const p = await es.privileges(c.index_name, ['read', 'index', 'delete']);
        const missing = Object.entries(p).filter(([, ok]) => !ok).map(([name]) => name);
        if (missing.length) throw Object.assign(new Error(`the API key lacks the ${missing.join(', ')} privilege on index ${c.index_name} (a rewrite needs index, delete and read)`), { final: true });
        privileges = 'the API key may index, delete and read';
      } catch (err) {
        const status = clusterStatus(err);
        if ((err as { final?: boolean }).final || status === undefined || status === 401 || status === 403) throw err;
        privileges = `privileges not verified (${describeClusterError(err, 'Elasticsearch')})`; // e.g. security disabled
      }
      return `${await describeIndex(cluster, c.index_name)}; ${privileges}`;
    }, ctx.signal),
  upload: (c, file, ctx) => withCluster(openEs(c), [c.es_api_key], (cluster) => uploadRecords(cluster, target(c, 15_000_000), file, ctx), ctx.signal),
  removeRecords: (c, recordId, ctx: UploadContext) => withCluster(openEs(c), [c.es_api_key], (cluster) => removeRecords(cluster, c.index_name, recordId, ctx), ctx.signal),
});

const osShape = shapeOf<OpenSearchConfig>('destination', 'opensearch', [...BATCH_FIELDS, ...AWS_FIELDS]);
export const osSecrets = (c: OpenSearchConfig) => [c.password, c.aws_secret_access_key, c.aws_session_token];
export const openOs = (c: OpenSearchConfig) => async () => {
  const access = openSearchAccess(c);
  await assertNodesAllowed(access.nodes);
  return openSearchCluster(access);
};

export const opensearchDestination: ConnectorDefinition = defineConnector<OpenSearchConfig>({
  kind: 'destination',
  type: 'opensearch',
  ...osShape,
  check: (c, ctx) =>
    withCluster(openOs(c), osSecrets(c), async (cluster) => {
      const index = await describeIndex(cluster, c.index_name);
      // A delete_by_query that matches nothing changes nothing but needs the read and delete
      // permissions a rewrite uses: the closest OpenSearch has to asking for privileges.
      // Serverless has no _delete_by_query: a _bulk delete of an id that does not exist probes the
      // write permission instead (404 for the item: allowed; 403: not).
      let write: string;
      try {
        if (cluster.serverless) {
          const [item] = await cluster.bulk([{ delete: { _index: c.index_name, _id: `wps-check-${Date.now()}` } }]);
          if (item && item.status >= 300 && item.status !== 404) throw Object.assign(new Error(`OpenSearch refused a write to index ${c.index_name}: HTTP ${item.status} ${itemErrorText(item.error)}`), { final: true });
          write = 'writes allowed';
        } else {
          await cluster.deleteByQuery(c.index_name, { match_none: {} });
          write = 'delete_by_query allowed';
        }
      } catch (err) {
        if ((err as { final?: boolean }).final) throw err;
        const status = clusterStatus(err);
        if (status === undefined || status === 401 || status === 403) throw err;
        write = `delete permission not verified (${describeClusterError(err, 'OpenSearch')})`;
      }
      const auth = c.aws_access_key_id ? `SigV4${cluster.serverless ? ', serverless' : ''}` : c.username ? `basic auth as ${c.username}` : 'no authentication';
      return `${index}; ${write} (${auth})`;
    }, ctx.signal),
  upload: (c, file, ctx) => withCluster(openOs(c), osSecrets(c), (cluster) => uploadRecords(cluster, target(c, 5_000_000), file, ctx), ctx.signal),
  removeRecords: (c, recordId, ctx: UploadContext) => withCluster(openOs(c), osSecrets(c), (cluster) => removeRecords(cluster, c.index_name, recordId, ctx), ctx.signal),
});
