// Elasticsearch and OpenSearch sources (types `elasticsearch`, `opensearch`; the platform's
// elasticsearch.py / opensearch.py indexers and downloaders). Every document of `index_name` is one
// document here: listed with a scroll over the index sorted by _doc (the platform's scan helper;
// its OpenSearch indexer falls back to the same scroll when PIT is refused), ids and _version only,
// `batch_size` hits per page (default 100), each page retried on 429/5xx with Retry-After; read is
// GET _doc (only `fields` of the source when configured). The text is the platform's: the _source
// flattened, values one per line (records/flat-text.ts), named `<index>-<id>.txt` (plus the
// fields' hash when fields are set); version = the store's _version; record_locator {hosts,
// index_name, document_id}; url `<first host>/<index>` as the platform sets it.
import { createHash } from 'node:crypto';
import { defineConnector, type ConnectorConfig, type ConnectorDefinition, type RuntimeContext, type SourceObject } from '../definition';
import type { FieldSpec } from '../schema';
import { withRetry, retryableError } from '../records/retry';
import { flatText } from '../records/flat-text';
import { clusterStatus, describeClusterError, type SearchCluster } from './cluster';
import { openEs, openOs, osSecrets, shapeOf, withCluster, type ElasticsearchConfig, type OpenSearchConfig } from './index';

interface SourceFields {
  fields?: string[] | null;
  batch_size?: number | null;
}

const KEEP_ALIVE = '1m';
const SOURCE_EXTRA: FieldSpec[] = [
  // The platform's downloader and indexer options (not in the field table of the web UI).
  { name: 'fields', type: 'string[]', required: false, requiredInResponse: false },
  { name: 'batch_size', type: 'integer', required: false, minimum: 1, maximum: 10_000, requiredInResponse: false },
];

/** The platform's document name: `<index>-<id>[-<sha256(fields)[:8]>].txt`. */
function filenameOf(index: string, id: string, fields?: readonly string[] | null): string {
  let f = `${index}-${id.replace(/[/\\]/g, '_')}`;
  if (fields?.length) f += `-${createHash('sha256').update(fields.join(',')).digest('hex').slice(0, 8)}`;
  return `${f}.txt`;
}

interface Access<C> {
  open(c: C): () => Promise<SearchCluster>;
  secrets(c: C): (string | null | undefined)[];
}

/** A retryable failure keeps the client's error (status, Retry-After headers) for withRetry. */
const retryable = (err: unknown) => retryableError(err);

function sourceFor<C extends ConnectorConfig & SourceFields & { hosts: string[]; index_name: string }>(type: 'elasticsearch' | 'opensearch', access: Access<C>): ConnectorDefinition {
  const shape = shapeOf<C>('source', type, SOURCE_EXTRA);
  const retry = <T>(fn: () => Promise<T>, signal?: AbortSignal) => withRetry(fn, { signal, retryable });

  async function* list(c: C, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
    // The scroll lives on the cluster: each page is one request on a client made for it.
    const onCluster = <T>(fn: (cluster: SearchCluster) => Promise<T>) => withCluster(access.open(c), access.secrets(c), fn, ctx?.signal);
    const url = `${c.hosts[0]}/${c.index_name}`;
    let scrollId: string | undefined;
    try {
      for (;;) {
        const id = scrollId;
        const page = await onCluster((cluster) =>
          retry(() => (id ? cluster.scroll({ scrollId: id, keepAlive: KEEP_ALIVE }) : cluster.scroll({ index: c.index_name, size: c.batch_size ?? 100, keepAlive: KEEP_ALIVE })), ctx?.signal),
        );
        scrollId = page.scrollId ?? scrollId;
        if (!page.hits.length) return;
        for (const h of page.hits) {
          const version = h._version === undefined ? undefined : String(h._version);
          yield {
            key: h._id,
            size: 0,
            ...(version ? { version } : {}),
            filename: filenameOf(c.index_name, h._id, c.fields),
            dataSource: { url, ...(version ? { version } : {}), record_locator: { hosts: c.hosts, index_name: c.index_name, document_id: h._id } },
          };
        }
      }
    } finally {
      const id = scrollId;
      if (id) await onCluster((cluster) => cluster.clearScroll(id)).catch(() => undefined);
    }
  }

  async function read(c: C, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
    return withCluster(access.open(c), access.secrets(c), async (cluster) => {
      try {
        const hit = await retry(() => cluster.getDocument(c.index_name, key, c.fields ?? undefined), ctx?.signal);
        return new TextEncoder().encode(flatText(hit._source ?? {}));
      } catch (err) {
        if (clusterStatus(err) === 404 && (err as { meta?: { body?: { found?: boolean } } }).meta?.body?.found === false) {
          throw new Error(`document ${key} not found in index ${c.index_name} (${cluster.product} answered HTTP 404)`);
        }
        throw err;
      }
    }, ctx?.signal);
  }

  return defineConnector<C>({
    kind: 'source',
    type,
    ...shape,
    // The platform's precheck: the index must be among the cluster's indices (an authenticated call).
    check: (c, ctx) =>
      withCluster(access.open(c), access.secrets(c), async (cluster) => {
        try {
          const n = await cluster.count(c.index_name);
          return `index ${c.index_name}: ${n} documents`;
        } catch (err) {
          if (clusterStatus(err) === 404) throw new Error(`index ${c.index_name} not found in ${cluster.product}: ${describeClusterError(err, cluster.product)}`);
          throw err;
        }
      }, ctx.signal),
    list,
    read,
  });
}

export const elasticsearchSource = sourceFor<ElasticsearchConfig & SourceFields>('elasticsearch', { open: openEs, secrets: (c) => [c.es_api_key] });
export const opensearchSource = sourceFor<OpenSearchConfig & SourceFields>('opensearch', { open: openOs, secrets: osSecrets });
