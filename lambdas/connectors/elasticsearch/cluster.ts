// The few calls the search-index writer needs, behind one port so Elasticsearch and OpenSearch
// (each through its own official client: es-client.ts, os-client.ts) share the writer, the checks
// and the error texts. Errors thrown by an implementation keep the client's error (status, headers
// for Retry-After) so retry.ts can classify them; describeClusterError turns any of them into the
// store's own words.
import { describeError } from '../definition';
import { assertAllowedUrl } from '../../net/outbound';
import { clearTextProblem } from '../secure-transport';
import type { Dialect } from './stage';

export interface BulkItem {
  id: string;
  status: number;
  error?: { type?: string; reason?: string; caused_by?: { type?: string; reason?: string } };
}

export interface DeleteByQueryResult {
  deleted: number;
  failures: unknown[];
}

/** A hit as the source reads it: id, the store's document version, the source fields. */
export interface SourceHit {
  _id: string;
  _version?: number;
  _source?: Record<string, unknown>;
}

export interface SearchCluster {
  readonly dialect: Dialect;
  readonly product: 'Elasticsearch' | 'OpenSearch';
  /** OpenSearch Serverless: no _delete_by_query (deleteByQuery searches and bulk-deletes). */
  readonly serverless?: boolean;
  /** The index's mapping response; throws the client's 404 when the index is absent. */
  mapping(index: string): Promise<unknown>;
  exists(index: string): Promise<boolean>;
  count(index: string): Promise<number>;
  createIndex(index: string, body: Record<string, unknown>): Promise<void>;
  /** One _bulk request; `ops` alternates action lines and sources. Items in request order. */
  bulk(ops: unknown[]): Promise<BulkItem[]>;
  deleteByQuery(index: string, query: Record<string, unknown>): Promise<DeleteByQueryResult>;
  /** Source listing: opens a scroll over the index (index given) or continues one (scrollId given). */
  scroll(req: { index: string; size: number; keepAlive: string } | { scrollId: string; keepAlive: string }): Promise<{ scrollId?: string; hits: SourceHit[] }>;
  clearScroll(scrollId: string): Promise<void>;
  /** One document (GET _doc), only `fields` of its source when given; a missing one throws the client's 404. */
  getDocument(index: string, id: string, fields?: readonly string[]): Promise<SourceHit>;
  close(): Promise<void>;
}

/** Node URLs from the config's hosts: bare `host[:port]` gets the default scheme and port 9200. */
export function nodeUrls(hosts: readonly string[], defaultScheme: 'http' | 'https'): string[] {
  if (!hosts.length) throw new Error('hosts is empty: name at least one node URL');
  return hosts.map((h, i) => {
    const raw = h.trim();
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `${defaultScheme}://${raw}`;
    let url: URL;
    try {
      url = new URL(withScheme);
    } catch {
      throw new Error(`hosts[${i}] ${JSON.stringify(h)} is not a host or URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`hosts[${i}] must be an http:// or https:// URL`);
    if (url.username || url.password) throw new Error(`hosts[${i}] carries credentials in the URL: put them in the credential fields instead`);
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) && !url.port) url.port = '9200';
    return url.href.replace(/\/$/, '');
  });
}

/**
 * Why the config's hosts may not be used with its credentials: a plain http:// node (a bare host is
 * http for OpenSearch without use_ssl) would get the API key, the password or the SigV4-signed
 * requests (with the session token) in clear text (secure-transport.ts). Anonymous http is allowed.
 */
export function clearTextHostsProblem(type: 'elasticsearch' | 'opensearch', c: Record<string, unknown>): string | undefined {
  if (!Array.isArray(c.hosts)) return undefined;
  const secret =
    type === 'elasticsearch' ? (c.es_api_key ? 'API key' : undefined) : c.password ? 'password' : c.aws_secret_access_key || c.aws_session_token ? 'AWS-signed requests and session token' : undefined;
  if (!secret) return undefined;
  let nodes: string[];
  try {
    nodes = nodeUrls(c.hosts as string[], type === 'opensearch' && !c.use_ssl ? 'http' : 'https');
  } catch {
    return undefined; // the hosts' own validation says why
  }
  for (const [i, u] of nodes.entries()) {
    const problem = clearTextProblem(u, `hosts[${i}]`, secret);
    if (problem) return problem;
  }
  return undefined;
}

/** Refuses node hosts the outbound policy forbids (IP literals and names, before any connection). */
export async function assertNodesAllowed(urls: readonly string[]): Promise<void> {
  for (const u of urls) await assertAllowedUrl(u);
}

/** Index names Elasticsearch and OpenSearch accept (lowercase, no separators or wildcards). */
export function indexNameProblem(name: string): string | undefined {
  if (!name) return 'index_name is empty';
  if (name !== name.toLowerCase()) return 'index_name must be lowercase';
  if (/[\\/*?"<>| ,#:]/.test(name)) return 'index_name may not contain \\ / * ? " < > | , # : or spaces';
  if (/^[-_+]/.test(name) || name === '.' || name === '..') return 'index_name may not start with - _ + or be . or ..';
  if (Buffer.byteLength(name) > 255) return 'index_name is longer than 255 bytes';
  return undefined;
}

interface ClientErrorShape {
  meta?: { statusCode?: number; body?: unknown };
  /** Set on errors the writer rewords (their message already holds the store's text). */
  storeStatus?: number;
}

/** True for an error straight from a client (not yet put in the store's words). */
export function isClientError(err: unknown): boolean {
  return (err as ClientErrorShape)?.meta !== undefined;
}

/** The HTTP status of a client error, if the store answered. */
export function clusterStatus(err: unknown): number | undefined {
  const s = (err as ClientErrorShape)?.meta?.statusCode ?? (err as ClientErrorShape)?.storeStatus;
  return typeof s === 'number' && s > 0 ? s : undefined;
}

/** The store's own error text: `HTTP 401 security_exception: unable to authenticate ...`. */
export function describeClusterError(err: unknown, product: string): string {
  const status = clusterStatus(err);
  if (status === undefined) return `cannot reach ${product}: ${describeError(err)}`;
  const body = (err as ClientErrorShape).meta?.body;
  return `${product} answered HTTP ${status}: ${storeText(body) ?? describeError(err)}`;
}

function storeText(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 500) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { error?: unknown; message?: unknown; Message?: unknown };
  if (typeof b.error === 'string') return b.error.slice(0, 500);
  if (b.error && typeof b.error === 'object') return itemErrorText(b.error as BulkItem['error']);
  const msg = b.message ?? b.Message;
  return typeof msg === 'string' ? msg.slice(0, 500) : JSON.stringify(body).slice(0, 300);
}

/** `type: reason (caused by type: reason)` of an error object the store returned. */
export function itemErrorText(error: BulkItem['error']): string {
  if (!error) return 'unknown error';
  let text = `${error.type ?? 'error'}: ${error.reason ?? ''}`.trim();
  const c = error.caused_by;
  if (c?.reason && !text.includes(c.reason)) text += ` (caused by ${c.type ?? 'error'}: ${c.reason})`;
  return text.slice(0, 600);
}
