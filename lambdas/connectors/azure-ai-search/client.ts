// Azure AI Search through the official client (@azure/search-documents) with the config's admin
// key (`api-key`). The SDK's own retries are off (the writer retries with back-off and Retry-After,
// records/retry.ts); its HTTPS agent applies the outbound policy and CONNECTOR_CA_FILE (agents.ts).
import { AzureKeyCredential, SearchClient, SearchIndexClient, type SearchIndex } from '@azure/search-documents';
import { sharedConnectorAgent } from '../agents';
import { describeError } from '../definition';

export interface AzureSearchAccess {
  endpoint: string;
  index: string;
  key: string;
}

export type Doc = Record<string, unknown>;

export interface AzureSearch {
  getIndex(signal?: AbortSignal): Promise<SearchIndex>;
  /** Keys of the documents matching an OData filter (all pages). */
  keys(filter: string, keyField: string, signal?: AbortSignal): Promise<string[]>;
  /** One indexing batch; results in request order. */
  index(actions: { action: 'upload' | 'delete'; doc: Doc }[], signal?: AbortSignal): Promise<{ key: string; succeeded: boolean; statusCode: number; errorMessage?: string }[]>;
}

export function azureSearch(a: AzureSearchAccess): AzureSearch {
  const options = { retryOptions: { maxRetries: 0 }, agent: sharedConnectorAgent(new URL(a.endpoint).protocol) };
  const credential = new AzureKeyCredential(a.key);
  const indexes = new SearchIndexClient(a.endpoint, credential, options);
  const docs = new SearchClient<Doc>(a.endpoint, a.index, credential, options);
  return {
    getIndex: (abortSignal) => indexes.getIndex(a.index, { abortSignal }),
    async keys(filter, keyField, abortSignal) {
      // top beyond 1000 makes the service page by 1000 with continuation, which the SDK follows.
      const res = await docs.search('*', { filter, select: [keyField] as never, top: 100_000, abortSignal });
      const out: string[] = [];
      for await (const r of res.results) out.push(String((r.document as Doc)[keyField]));
      return out;
    },
    async index(actions, abortSignal) {
      const res = await docs.indexDocuments({ actions: actions.map((x) => ({ __actionType: x.action, ...x.doc })) } as never, { abortSignal });
      return res.results.map((r) => ({ key: r.key, succeeded: r.succeeded, statusCode: r.statusCode, errorMessage: r.errorMessage ?? undefined }));
    },
  };
}

/** The HTTP status of an SDK error (RestError), if the service answered. */
export function azureStatus(err: unknown): number | undefined {
  const s = (err as { statusCode?: unknown })?.statusCode;
  return typeof s === 'number' && s > 0 ? s : undefined;
}

/** The service's own words: `Azure AI Search answered HTTP 404: No index with the name ...`. */
export function describeAzureError(err: unknown): string {
  const status = azureStatus(err);
  if (status === undefined) return `cannot reach Azure AI Search: ${describeError((err as { cause?: unknown })?.cause ?? err)}`;
  const e = err as { message?: string; response?: { bodyAsText?: string } };
  const text = (e.message && !/^Operation returned an invalid status code/.test(e.message) ? e.message : e.response?.bodyAsText) || httpReason(status);
  return `Azure AI Search answered HTTP ${status}: ${text.slice(0, 600)}`;
}

function httpReason(status: number): string {
  return { 401: 'Unauthorized', 403: 'Forbidden (the api-key is not valid for this service, or is a query key)', 404: 'Not Found', 429: 'Too Many Requests', 503: 'Service Unavailable' }[status] ?? 'no message';
}
