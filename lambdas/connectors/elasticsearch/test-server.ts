// A stand-in for an Elasticsearch or OpenSearch cluster over HTTP, for tests and benchmarks only
// (no handler imports it). It speaks the REST calls the official clients make for the destination
// — info, _has_privileges (Elasticsearch), index exists/create/_mapping/_count, NDJSON _bulk,
// _delete_by_query — and the ones the source makes — scroll (_search?scroll, _search/scroll, clear
// scroll) with `version: true`, GET _doc with _source filtering — keeps every document it receives
// (with a _version per document, bumped by every write), and applies the semantics the writer relies
// on: _id upserts, dense_vector/knn_vector dimension checks with the stores' error texts, dynamic
// mapping of new fields, term/match/match_phrase/ids/bool queries over keyword and analysed text
// fields. Auth as each product does it: `ApiKey` (Elasticsearch, with per-key index privileges),
// basic users or AWS SigV4 (verified here independently of the client's signer) for OpenSearch.
// Elasticsearch answers carry `x-elastic-product: Elasticsearch`, which its client insists on.
// HTTPS by default, as the connectors require with credentials (secure-transport.ts): they trust it
// through CONNECTOR_CA_FILE = caFile (standInTls()); `plain: true` serves HTTP (anonymous clusters).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { standInTls } from '../records/stand-in';
import { matches, type Query } from './test-query';
import { verifySigV4, type SigV4Key } from './test-sigv4';
import type { Dialect } from './stage';
import { closeServer, listenLocal } from '../rest-test-server';

export interface SearchStandInOptions {
  dialect: Dialect;
  /** Elasticsearch: accepted encoded API keys → their index privileges (`all`, `read`, `index`, `delete`, `write`, `view_index_metadata`, `create_index`). */
  apiKeys?: Record<string, string[]>;
  /** OpenSearch: basic-auth users; `write: false` users get 403 on writes. */
  users?: Record<string, { password: string; write: boolean }>;
  /** OpenSearch: SigV4 keys accepted. */
  aws?: SigV4Key[];
  /** OpenSearch Serverless: no _delete_by_query (answered as an unsupported API). */
  serverless?: boolean;
  /** Serve plain HTTP instead of HTTPS (only for clusters reached without credentials). */
  plain?: boolean;
}

export interface StoredIndex {
  mappings: { properties: Record<string, any> };
  settings: Record<string, unknown>;
  docs: Map<string, Record<string, any>>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
}

interface Injected {
  match: RegExp;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  times: number;
}

export interface SearchStandIn {
  /** https://127.0.0.1:<port> (http:// with `plain`) */
  url: string;
  /** The PEM file of the stand-in's certificate, for CONNECTOR_CA_FILE. */
  caFile: string;
  indices: Map<string, StoredIndex>;
  requests: RecordedRequest[];
  /** The next `times` requests whose `METHOD /path` matches get this answer instead. */
  inject(match: RegExp, answer: { status: number; headers?: Record<string, string>; body?: unknown }, times?: number): void;
  /** The next `times` bulk items are refused with this status (429: es_rejected_execution_exception). */
  rejectItems(status: number, times: number): void;
  docs(index: string): Record<string, any>[];
  /** Holds each _bulk answer this long (to observe concurrency); 0 by default. */
  bulkDelayMs: number;
  /** Most _bulk requests seen in flight at once. */
  peakBulkInFlight: number;
  stop(): Promise<void>;
}

const WRITE_PRIVS = ['all', 'write', 'index'];
const DELETE_PRIVS = ['all', 'write', 'delete'];
const READ_PRIVS = ['all', 'read'];
const META_PRIVS = ['all', 'manage', 'view_index_metadata'];
const CREATE_PRIVS = ['all', 'manage', 'create_index'];

export async function startSearchStandIn(opts: SearchStandInOptions): Promise<SearchStandIn> {
  const indices = new Map<string, StoredIndex>();
  const requests: RecordedRequest[] = [];
  const injected: Injected[] = [];
  let rejectLeft = 0;
  let rejectStatus = 429;
  let inFlight = 0;
  const es = opts.dialect === 'elasticsearch';
  /** index → id → _version (bumped by every write, as the stores do). */
  const versions = new Map<string, Map<string, number>>();
  const bump = (index: string, id: string) => {
    let m = versions.get(index);
    if (!m) versions.set(index, (m = new Map()));
    const v = (m.get(id) ?? 0) + 1;
    m.set(id, v);
    return v;
  };
  const versionOf = (index: string, id: string) => versions.get(index)?.get(id) ?? 1;
  const scrolls = new Map<string, { name: string; hits: [string, Record<string, any>][]; size: number; version: boolean; source: unknown }>();
  let scrollSeq = 0;

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      ...(es ? { 'x-elastic-product': 'Elasticsearch' } : {}),
      'content-type': typeof body === 'string' ? 'text/plain; charset=UTF-8' : 'application/json; charset=UTF-8',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  };
  const error = (status: number, type: string, reason: string, extra: Record<string, unknown> = {}) => ({
    error: { root_cause: [{ type, reason, ...extra }], type, reason, ...extra },
    status,
  });
  const notFound = (index: string) => error(404, 'index_not_found_exception', `no such index [${index}]`, { 'resource.type': 'index_or_alias', 'resource.id': index, index });

  /** Who is calling: undefined when the credentials are refused (the answer is sent). */
  const authenticate = (req: IncomingMessage, raw: Buffer, res: ServerResponse): { privs: string[]; name: string } | undefined => {
    const auth = req.headers.authorization ?? '';
    if (es) {
      const key = /^ApiKey (.+)$/.exec(auth)?.[1];
      const privs = key ? opts.apiKeys?.[key] : undefined;
      if (privs) return { privs, name: `key-${Object.keys(opts.apiKeys!).indexOf(key!)}` };
      if (!opts.apiKeys) return { privs: ['all'], name: 'anonymous' };
      send(res, 401, error(401, 'security_exception', 'unable to authenticate with provided credentials and anonymous access is not allowed for this request', { header: { 'WWW-Authenticate': ['Basic realm="security", charset="UTF-8"', 'ApiKey'] } }), { 'www-authenticate': 'ApiKey' });
      return undefined;
    }
    if (auth.startsWith('AWS4-HMAC-SHA256 ')) {
      const problem = verifySigV4(req, raw, opts.aws ?? []);
      if (!problem) return { privs: ['all'], name: 'iam' };
      send(res, 403, { message: problem });
      return undefined;
    }
    const basic = /^Basic (.+)$/.exec(auth)?.[1];
    if (basic) {
      const [user, ...rest] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      const u = opts.users?.[user!];
      if (u && u.password === rest.join(':')) return { privs: u.write ? ['all'] : ['read', 'view_index_metadata'], name: user! };
    } else if (!opts.users && !opts.aws) return { privs: ['all'], name: 'anonymous' };
    send(res, 401, 'Unauthorized', { 'www-authenticate': 'Basic realm="OpenSearch Security"' });
    return undefined;
  };

  const forbidden = (who: { name: string }, action: string, index: string) =>
    es
      ? error(403, 'security_exception', `action [${action}] is unauthorized for API key id [${who.name}] on indices [${index}]`)
      : error(403, 'security_exception', `no permissions for [${action}] and User [name=${who.name}, backend_roles=[], requestedTenant=null]`);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const text = raw.toString('utf8');
    let body: any = text;
    if (text && !path.endsWith('/_bulk')) {
      try {
        body = JSON.parse(text);
      } catch {
        /* kept as text */
      }
    }
    requests.push({ method, path, query: Object.fromEntries(url.searchParams), body: path.endsWith('/_bulk') ? text : body });
    const inj = injected.find((i) => i.times > 0 && i.match.test(`${method} ${path}`));
    if (inj) {
      inj.times--;
      return send(res, inj.status, inj.body ?? error(inj.status, 'injected', `injected HTTP ${inj.status}`), inj.headers);
    }
    const who = authenticate(req, raw, res);
    if (!who) return;
    const can = (list: string[]) => who.privs.some((p) => list.includes(p));
    const seg = path.split('/').filter(Boolean).map(decodeURIComponent);

    if (seg.length === 0) {
      return send(res, 200, {
        name: 'stand-in',
        cluster_name: 'stand-in-cluster',
        version: es ? { number: '8.15.0', build_flavor: 'default' } : { distribution: 'opensearch', number: '2.15.0' },
        tagline: es ? 'You Know, for Search' : 'The OpenSearch Project: https://opensearch.org/',
      });
    }
    if (es && seg[0] === '_security' && seg[2] === '_has_privileges') {
      const out: Record<string, Record<string, boolean>> = {};
      let all = true;
      for (const entry of body?.index ?? []) {
        for (const name of entry.names ?? []) {
          out[name] = {};
          for (const p of entry.privileges ?? []) {
            const ok = who.privs.includes('all') || who.privs.includes(p) || (p !== 'read' && who.privs.includes('write') && ['index', 'delete', 'create', 'create_doc'].includes(p));
            out[name]![p] = ok;
            all &&= ok;
          }
        }
      }
      return send(res, 200, { username: who.name, has_all_requested: all, cluster: {}, index: out, application: {} });
    }
    if (seg[0] === '_search' && seg[1] === 'scroll') {
      const raw = body?.scroll_id ?? url.searchParams.get('scroll_id') ?? '';
      const id = String(Array.isArray(raw) ? raw[0] : raw);
      if (method === 'DELETE') {
        const had = scrolls.delete(id);
        return send(res, 200, { succeeded: true, num_freed: had ? 1 : 0 });
      }
      const sc = scrolls.get(id);
      if (!sc) return send(res, 404, error(404, 'search_context_missing_exception', `No search context found for id [${id}]`));
      return send(res, 200, scrollPage(id, sc));
    }
    if (seg[0] === '_bulk' || seg[1] === '_bulk') {
      inFlight++;
      stand.peakBulkInFlight = Math.max(stand.peakBulkInFlight, inFlight);
      if (stand.bulkDelayMs) await new Promise((r) => setTimeout(r, stand.bulkDelayMs));
      inFlight--;
      return bulk(res, who, seg[1] === '_bulk' ? seg[0] : undefined, text);
    }

    const name = seg[0]!;
    const index = indices.get(name);
    if (seg.length === 1 && method === 'HEAD') {
      if (!can(META_PRIVS) && !can(READ_PRIVS)) return send(res, 403);
      res.writeHead(index ? 200 : 404, es ? { 'x-elastic-product': 'Elasticsearch' } : {}).end();
      return;
    }
    if (seg.length === 1 && method === 'PUT') {
      if (!can(CREATE_PRIVS)) return send(res, 403, forbidden(who, 'indices:admin/create', name));
      if (index) return send(res, 400, error(400, 'resource_already_exists_exception', `index [${name}/x] already exists`, { index: name }));
      indices.set(name, { mappings: { properties: body?.mappings?.properties ?? {} }, settings: body?.settings ?? {}, docs: new Map() });
      return send(res, 200, { acknowledged: true, shards_acknowledged: true, index: name });
    }
    if (!index) return send(res, 404, notFound(name));
    if (seg[1] === '_mapping' && method === 'GET') {
      if (!can(META_PRIVS)) return send(res, 403, forbidden(who, 'indices:admin/mappings/get', name));
      return send(res, 200, { [name]: { mappings: index.mappings } });
    }
    if (seg[1] === '_count') {
      if (!can(READ_PRIVS)) return send(res, 403, forbidden(who, 'indices:data/read/search', name));
      return send(res, 200, { count: index.docs.size, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
    }
    if (seg[1] === '_search') {
      if (!can(READ_PRIVS)) return send(res, 403, forbidden(who, 'indices:data/read/search', name));
      const keep = url.searchParams.get('scroll');
      if (keep) {
        const q = body ?? {};
        let hits: [string, Record<string, any>][];
        try {
          hits = [...index.docs].filter(([id, doc]) => matches(q.query ?? { match_all: {} }, id, doc, index.mappings.properties));
        } catch (err) {
          return send(res, 400, error(400, 'parsing_exception', (err as Error).message));
        }
        const id = `scroll-${++scrollSeq}`;
        const sc = { name, hits, size: Number(q.size ?? url.searchParams.get('size') ?? 10), version: q.version === true || url.searchParams.get('version') === 'true', source: q._source ?? url.searchParams.get('_source') };
        scrolls.set(id, sc);
        return send(res, 200, scrollPage(id, sc));
      }
      return search(res, name, index, body ?? {});
    }
    if (seg[1] === '_doc' && seg.length === 3 && method === 'GET') {
      if (!can(READ_PRIVS)) return send(res, 403, forbidden(who, 'indices:data/read/get', name));
      const doc = index.docs.get(seg[2]!);
      if (!doc) return send(res, 404, { _index: name, _id: seg[2], found: false });
      const only = url.searchParams.get('_source') ?? url.searchParams.get('_source_includes');
      const source = only ? Object.fromEntries(only.split(',').filter((f) => f in doc).map((f) => [f, doc[f]])) : doc;
      return send(res, 200, { _index: name, _id: seg[2], _version: versionOf(name, seg[2]!), _seq_no: 0, _primary_term: 1, found: true, _source: source });
    }
    if (seg[1] === '_delete_by_query' && opts.serverless) return send(res, 404, error(404, 'illegal_argument_exception', `no handler found for uri [${path}] and method [${method}]`));
    if (seg[1] === '_delete_by_query' && method === 'POST') {
      if (!can(READ_PRIVS) || !can(DELETE_PRIVS)) return send(res, 403, forbidden(who, 'indices:data/write/delete/byquery', name));
      const query = body?.query as Query | undefined;
      if (!query) return send(res, 400, error(400, 'action_request_validation_exception', 'Validation Failed: 1: query is missing;'));
      let deleted = 0;
      try {
        for (const [id, doc] of [...index.docs]) {
          if (matches(query, id, doc, index.mappings.properties)) {
            index.docs.delete(id);
            deleted++;
          }
        }
      } catch (err) {
        return send(res, 400, error(400, 'parsing_exception', (err as Error).message));
      }
      return send(res, 200, { took: 1, timed_out: false, total: deleted, deleted, batches: deleted ? 1 : 0, version_conflicts: 0, noops: 0, retries: { bulk: 0, search: 0 }, throttled_millis: 0, requests_per_second: -1, throttled_until_millis: 0, failures: [] });
    }
    return send(res, 400, error(400, 'illegal_argument_exception', `stand-in does not serve ${method} ${path}`));
  };

  /** The next page of an open scroll (hits in index order, as a `_doc` sort gives them). */
  const scrollPage = (id: string, sc: { name: string; hits: [string, Record<string, any>][]; size: number; version: boolean; source: unknown }) => {
    const page = sc.hits.splice(0, sc.size);
    return {
      _scroll_id: id, took: 1, timed_out: false,
      hits: {
        total: { value: page.length + sc.hits.length, relation: 'eq' },
        hits: page.map(([hid, doc]) => ({ _index: sc.name, _id: hid, _score: null, ...(sc.version ? { _version: versionOf(sc.name, hid) } : {}), ...(sc.source === false || sc.source === 'false' ? {} : { _source: doc }), sort: [0] })),
      },
    };
  };

  /** Query + size + sort by _id + search_after: the paging the serverless delete uses. */
  const search = (res: ServerResponse, name: string, index: StoredIndex, q: Record<string, any>) => {
    let hits = [...index.docs].filter(([id, doc]) => matches(q.query ?? { match_all: {} }, id, doc, index.mappings.properties));
    if (q.sort?.[0]?._id) hits.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (q.search_after) hits = hits.filter(([id]) => id > String(q.search_after[0]));
    const page = hits.slice(0, q.size ?? 10);
    send(res, 200, {
      took: 1, timed_out: false,
      hits: { total: { value: hits.length, relation: 'eq' }, hits: page.map(([id, doc]) => ({ _index: name, _id: id, _score: null, ...(q._source === false ? {} : { _source: doc }), sort: [id] })) },
    });
  };

  const bulk = (res: ServerResponse, who: { privs: string[]; name: string }, defaultIndex: string | undefined, ndjson: string) => {
    const lines = ndjson.split('\n').filter((l) => l.trim());
    const items: unknown[] = [];
    let errors = false;
    for (let i = 0; i < lines.length; i++) {
      const action = JSON.parse(lines[i]!) as Record<string, { _index?: string; _id?: string }>;
      const [op, meta] = Object.entries(action)[0]!;
      const name = meta._index ?? defaultIndex ?? '';
      const id = meta._id ?? `auto-${Math.random().toString(36).slice(2)}`;
      const source = op === 'delete' ? undefined : (JSON.parse(lines[++i]!) as Record<string, any>);
      const item = (status: number, extra: Record<string, unknown>) => {
        if (status >= 300) errors = true;
        items.push({ [op]: { _index: name, _id: id, status, ...extra } });
      };
      if (op !== 'delete' && rejectLeft > 0) {
        rejectLeft--;
        item(rejectStatus, { error: { type: 'es_rejected_execution_exception', reason: `rejected execution of coordinating operation [stand-in], status ${rejectStatus}` } });
        continue;
      }
      if (!who.privs.some((p) => (op === 'delete' ? DELETE_PRIVS : WRITE_PRIVS).includes(p))) {
        item(403, { error: forbidden(who, 'indices:data/write/bulk[s]', name).error });
        continue;
      }
      let index = indices.get(name);
      if (!index) {
        if (op === 'delete') {
          item(404, { error: notFound(name).error });
          continue;
        }
        index = { mappings: { properties: {} }, settings: {}, docs: new Map() };
        indices.set(name, index);
      }
      if (op === 'delete') {
        const had = index.docs.delete(id);
        item(had ? 200 : 404, { result: had ? 'deleted' : 'not_found' });
        continue;
      }
      const problem = checkDoc(index, id, source!);
      if (problem) {
        item(400, { error: problem });
        continue;
      }
      if (op === 'create' && index.docs.has(id)) {
        item(409, { error: { type: 'version_conflict_engine_exception', reason: `[${id}]: version conflict, document already exists` } });
        continue;
      }
      const existed = index.docs.has(id);
      mapDynamically(index, source!);
      index.docs.set(id, source!);
      item(existed ? 200 : 201, { _version: bump(name, id), result: existed ? 'updated' : 'created', _shards: { total: 1, successful: 1, failed: 0 } });
    }
    send(res, 200, { took: 1, errors, items });
  };

  /** The stores' own refusals for a vector of the wrong size or a non-numeric vector. */
  const checkDoc = (index: StoredIndex, id: string, source: Record<string, any>) => {
    for (const [field, m] of Object.entries(index.mappings.properties)) {
      const v = source[field];
      if (v === null || v === undefined) continue;
      const dims = m?.type === 'dense_vector' ? m.dims : m?.type === 'knn_vector' ? m.dimension : undefined;
      if (dims === undefined) continue;
      const len = Array.isArray(v) ? v.length : -1;
      if (len === dims && (v as unknown[]).every((x) => typeof x === 'number')) continue;
      if (es) {
        const reason = `The [dense_vector] field [${field}] in doc [document with id '${id}'] has a different number of dimensions [${len}] than defined in the mapping [${dims}]`;
        return { type: 'document_parsing_exception', reason: `[1:42] failed to parse: ${reason}`, caused_by: { type: 'illegal_argument_exception', reason } };
      }
      return { type: 'mapper_parsing_exception', reason: `failed to parse field [${field}] of type [knn_vector] in document with id '${id}'.`, caused_by: { type: 'illegal_argument_exception', reason: `Vector dimension mismatch. Expected: ${dims}, Given: ${len}` } };
    }
    return undefined;
  };

  /** New top-level fields get the types the stores' dynamic mapping gives them. */
  const mapDynamically = (index: StoredIndex, source: Record<string, any>) => {
    for (const [field, v] of Object.entries(source)) {
      if (index.mappings.properties[field] || v === null || v === undefined) continue;
      if (typeof v === 'string') index.mappings.properties[field] = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
      else if (typeof v === 'number') index.mappings.properties[field] = { type: Number.isInteger(v) ? 'long' : 'float' };
      else if (typeof v === 'boolean') index.mappings.properties[field] = { type: 'boolean' };
      else if (Array.isArray(v) && v.length >= 128 && v.length <= 4096 && v.every((x) => typeof x === 'number') && es) {
        index.mappings.properties[field] = { type: 'dense_vector', dims: v.length, index: true, similarity: 'cosine' };
      } else if (Array.isArray(v)) index.mappings.properties[field] = { type: typeof v[0] === 'number' ? 'float' : 'text' };
      else index.mappings.properties[field] = { type: 'object' };
    }
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err) => send(res, 500, error(500, 'stand_in_exception', String(err))));
  };
  const tls = standInTls();
  const server = opts.plain ? createServer(listener) : createHttpsServer({ key: tls.key, cert: tls.cert }, listener);
  const port = await listenLocal(server);
  const stand: SearchStandIn = {
    bulkDelayMs: 0,
    peakBulkInFlight: 0,
    url: `${opts.plain ? 'http' : 'https'}://127.0.0.1:${port}`,
    caFile: tls.certFile,
    indices,
    requests,
    inject(match, answer, times = 1) {
      injected.push({ match, ...answer, times });
    },
    rejectItems(status, times) {
      rejectStatus = status;
      rejectLeft = times;
    },
    docs: (index) => [...(indices.get(index)?.docs.entries() ?? [])].map(([_id, source]) => ({ _id, ...source })),
    stop: () => closeServer(server),
  };
  return stand;
}
