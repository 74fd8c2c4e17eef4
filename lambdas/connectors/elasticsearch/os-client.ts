// OpenSearch through the official client (@opensearch-project/opensearch). Auth, as the platform's
// connector picks it: AWS SigV4 when aws_access_key_id and aws_secret_access_key are given (region
// and service `es`/`aoss` read from the host name like the platform does, or aws_region/aws_service
// for custom domain endpoints), else basic auth with username/password, else none. The signer gets
// the tenant's keys explicitly: it never falls back to the runtime's own AWS credentials.
// OpenSearch Serverless (service `aoss`) has no _delete_by_query: there the record's documents are
// found by a sorted, paged search (search_after on _id, as the platform's indexer pages AOSS) and
// removed with _bulk deletes. Index existence is read with GET (the platform notes HEAD signing
// trouble on AWS).
import { Client } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws';
import { connectorAgent } from '../agents';
import type { BulkItem, SearchCluster, SourceHit } from './cluster';

export interface OpenSearchAccess {
  nodes: string[];
  username?: string | null;
  password?: string | null;
  aws?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | null; region: string; service: 'es' | 'aoss' };
}

const REQUEST_TIMEOUT_MS = 60_000;
const PAGE = 10_000;
const DELETE_BATCH = 1_000;

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
    serverless: a.aws?.service === 'aoss',
    mapping: async (index) => (await client.indices.getMapping({ index })).body,
    async exists(index) {
      try {
        await client.indices.getMapping({ index });
        return true;
      } catch (err) {
        if ((err as { meta?: { statusCode?: number } }).meta?.statusCode === 404) return false;
        throw err;
      }
    },
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
      if (a.aws?.service === 'aoss') return deleteBySearch(index, query);
      const res = await client.deleteByQuery({ index, body: { query }, conflicts: 'proceed' });
      const body = res.body as { deleted?: number; failures?: unknown[] };
      return { deleted: Number(body.deleted ?? 0), failures: body.failures ?? [] };
    },
    async scroll(req) {
      // The platform's OpenSearch indexer tries PIT + search_after first and falls back to this
      // scroll, which every OpenSearch version serves.
      const res =
        'scrollId' in req
          ? await client.scroll({ body: { scroll_id: req.scrollId, scroll: req.keepAlive } })
          : await client.search({ index: req.index, scroll: req.keepAlive, body: { size: req.size, version: true, _source: false, sort: ['_doc'], query: { match_all: {} } } as never });
      const body = res.body as { _scroll_id?: string; hits?: { hits?: SourceHit[] } };
      return { scrollId: body._scroll_id, hits: body.hits?.hits ?? [] };
    },
    async clearScroll(scrollId) {
      await client.clearScroll({ body: { scroll_id: scrollId } });
    },
    async getDocument(index, id, fields) {
      const res = await client.get({ index, id, ...(fields?.length ? { _source: [...fields] } : {}) } as never);
      const body = res.body as { _id: string; _version?: number; _source?: Record<string, unknown> };
      return { _id: body._id, _version: body._version, _source: body._source };
    },
    close: () => client.close(),
  };

  async function deleteBySearch(index: string, query: Record<string, unknown>) {
    const ids: string[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const res = await client.search({ index, body: { query, size: PAGE, _source: false, sort: [{ _id: 'asc' }], ...(after ? { search_after: after } : {}) } as never });
      const hits = (res.body.hits?.hits ?? []) as { _id: string; sort?: unknown[] }[];
      for (const h of hits) ids.push(h._id);
      if (hits.length < PAGE) break;
      after = hits.at(-1)!.sort;
    }
    const failures: unknown[] = [];
    for (let i = 0; i < ids.length; i += DELETE_BATCH) {
      const res = await client.bulk({ body: ids.slice(i, i + DELETE_BATCH).map((_id) => ({ delete: { _index: index, _id } })) as never[] });
      for (const item of res.body.items as Record<string, { status: number; error?: unknown }>[]) {
        const r = Object.values(item)[0]!;
        if (r.status >= 300 && r.status !== 404) failures.push(r.error ?? r);
      }
    }
    return { deleted: ids.length - failures.length, failures };
  }
}
