// Elasticsearch through the official client (@elastic/elasticsearch 8.x: speaks to 8.x and 9.x
// clusters and checks the x-elastic-product header). Auth: es_api_key as `ApiKey <key>` (the
// encoded key Elastic shows on creation). The client's own retries are off: the writer retries
// with back-off and Retry-After (records/retry.ts), so attempts do not multiply.
import { Client, HttpConnection } from '@elastic/elasticsearch';
import { connectorAgent } from '../agents';
import type { BulkItem, SearchCluster, SourceHit } from './cluster';

export interface ElasticsearchAccess {
  nodes: string[];
  apiKey: string;
}

const REQUEST_TIMEOUT_MS = 60_000;

export function elasticsearchCluster(a: ElasticsearchAccess): SearchCluster & { privileges(index: string, names: string[]): Promise<Record<string, boolean>> } {
  const client = new Client({
    nodes: a.nodes,
    auth: { apiKey: a.apiKey },
    Connection: HttpConnection,
    agent: (opts) => connectorAgent(opts.url.protocol),
    maxRetries: 0,
    requestTimeout: REQUEST_TIMEOUT_MS,
    compression: false,
  });
  return {
    dialect: 'elasticsearch',
    product: 'Elasticsearch',
    mapping: (index) => client.indices.getMapping({ index }),
    exists: (index) => client.indices.exists({ index }),
    count: async (index) => (await client.count({ index })).count,
    async createIndex(index, body) {
      await client.indices.create({ index, ...body });
    },
    async bulk(ops) {
      const res = await client.bulk({ operations: ops as never[] });
      return res.items.map((item) => {
        const r = Object.values(item)[0]!;
        return { id: String(r._id), status: r.status, error: r.error as BulkItem['error'] };
      });
    },
    async deleteByQuery(index, query) {
      const res = await client.deleteByQuery({ index, query, conflicts: 'proceed' });
      return { deleted: res.deleted ?? 0, failures: res.failures ?? [] };
    },
    async privileges(index, names) {
      const res = await client.security.hasPrivileges({ index: [{ names: [index], privileges: names }] });
      return (res.index?.[index] ?? {}) as Record<string, boolean>;
    },
    async scroll(req) {
      // Listing as the platform's scan helper does it: a scroll sorted by _doc (the cheapest order),
      // ids and versions only.
      const res =
        'scrollId' in req
          ? await client.scroll({ scroll_id: req.scrollId, scroll: req.keepAlive })
          : await client.search({ index: req.index, scroll: req.keepAlive, size: req.size, version: true, _source: false, sort: ['_doc'], query: { match_all: {} } });
      return { scrollId: res._scroll_id, hits: res.hits.hits as SourceHit[] };
    },
    async clearScroll(scrollId) {
      await client.clearScroll({ scroll_id: scrollId });
    },
    async getDocument(index, id, fields) {
      const res = await client.get({ index, id, ...(fields?.length ? { _source: [...fields] } : {}) });
      return { _id: res._id, _version: res._version, _source: res._source as Record<string, unknown> };
    },
    close: () => client.close(),
  };
}
