// OpenSearch through the official client (@opensearch-project/opensearch). Auth, as the platform's
// connector picks it: AWS SigV4 when aws_access_key_id and aws_secret_access_key are given (region
// and service `es`/`aoss` read from the host name like the platform does, or aws_region/aws_service
// for custom domain endpoints), else basic auth with username/password, else none. The signer gets
// the tenant's keys explicitly: it never falls back to the runtime's own AWS credentials.
import { Client } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws';
import { connectorAgent } from '../agents';
import type { BulkItem, SearchCluster } from './cluster';

export interface OpenSearchAccess {
  nodes: string[];
  username?: string | null;
  password?: string | null;
  aws?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | null; region: string; service: 'es' | 'aoss' };
}

const REQUEST_TIMEOUT_MS = 60_000;

const ES_HOST = /\.([a-z]{2}(?:-[a-z]+)+-\d+)\.es(?:-fips)?\.amazonaws\.com$/;
const AOSS_HOST = /^[a-z0-9]+\.([a-z]{2}(?:-[a-z]+)+-\d+)\.aoss(?:-fips)?\.amazonaws\.com$/;

/** Region and service of an AWS OpenSearch host name (platform: detect_aws_opensearch_config). */
export function detectAwsOpenSearch(nodeUrl: string): { region: string; service: 'es' | 'aoss' } | undefined {
  const host = new URL(nodeUrl).hostname;
  const es = ES_HOST.exec(host);
  if (es) return { region: es[1]!, service: 'es' };
  const aoss = AOSS_HOST.exec(host);
  if (aoss) return { region: aoss[1]!, service: 'aoss' };
  return undefined;
}

export function openSearchCluster(a: OpenSearchAccess): SearchCluster {
  const signer = a.aws
    ? AwsSigv4Signer({
        region: a.aws.region,
        service: a.aws.service,
        getCredentials: async () => ({ accessKeyId: a.aws!.accessKeyId, secretAccessKey: a.aws!.secretAccessKey, ...(a.aws!.sessionToken ? { sessionToken: a.aws!.sessionToken } : {}) }),
      })
    : undefined;
  const client = new Client({
    nodes: a.nodes,
    ...(signer ?? {}),
    ...(!a.aws && a.username && a.password ? { auth: { username: a.username, password: a.password } } : {}),
    agent: (opts) => connectorAgent(opts.url.protocol),
    maxRetries: 0,
    requestTimeout: REQUEST_TIMEOUT_MS,
  });
  return {
    dialect: 'opensearch',
    product: 'OpenSearch',
    mapping: async (index) => (await client.indices.getMapping({ index })).body,
    exists: async (index) => Boolean((await client.indices.exists({ index })).body),
    count: async (index) => Number((await client.count({ index })).body.count),
    async createIndex(index, body) {
      await client.indices.create({ index, body });
    },
    async bulk(ops) {
      const res = await client.bulk({ body: ops as never[] });
      return (res.body.items as Record<string, { _id?: string | null; status: number; error?: unknown }>[]).map((item) => {
        const r = Object.values(item)[0]!;
        return { id: String(r._id), status: r.status, error: r.error as BulkItem['error'] };
      });
    },
    async deleteByQuery(index, query) {
      const res = await client.deleteByQuery({ index, body: { query }, conflicts: 'proceed' });
      const body = res.body as { deleted?: number; failures?: unknown[] };
      return { deleted: Number(body.deleted ?? 0), failures: body.failures ?? [] };
    },
    close: () => client.close(),
  };
}
