// A stand-in for an Azure AI Search service over HTTPS, for tests and benchmarks only (no handler
// imports it). It serves the REST calls @azure/search-documents makes for the destination — index
// definition (GET /indexes('<name>')), indexing batches (POST .../docs/search.index: upload and
// delete, 200 or 207 with per-document results), filtered search with paging
// (POST .../docs/search.post.search, pages of 1000 with @search.nextPageParameters) and $count —
// checks the `api-key` header (admin vs query key), and refuses documents as Azure does: unknown
// properties, values of the wrong EDM type, vectors of the wrong dimension, more than 1000 actions.
// It keeps every document it receives. selfSignedCert() makes the TLS certificate (openssl CLI);
// the client trusts it through CONNECTOR_CA_FILE, never by turning verification off.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type ServerOptions } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeServer, listenLocal } from '../rest-test-server';

export interface RestField {
  name: string;
  type: string;
  key?: boolean;
  filterable?: boolean;
  dimensions?: number;
  fields?: RestField[];
}

export interface StandInIndex {
  name: string;
  fields: RestField[];
  docs: Map<string, Record<string, any>>;
}

export interface AzureSearchStandIn {
  /** https://127.0.0.1:<port> */
  endpoint: string;
  adminKey: string;
  queryKey: string;
  indexes: Map<string, StandInIndex>;
  requests: { method: string; path: string; body: any }[];
  addIndex(name: string, fields: RestField[]): StandInIndex;
  /** The next `times` requests whose `METHOD /path` matches get this answer instead. */
  inject(match: RegExp, answer: { status: number; headers?: Record<string, string>; body?: unknown }, times?: number): void;
  /** The next `times` uploaded documents get this per-document status (e.g. 503) in a 207 answer. */
  busyItems(statusCode: number, times: number): void;
  stop(): Promise<void>;
}

export function selfSignedCert(): { key: string; cert: string; certFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'wps-azs-tls-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), certFile: join(dir, 'cert.pem') };
}

/** The platform's documented index (test_e2e azure_ai_index_schema) with record_id filterable. */
export function platformIndexFields(dims = 384): RestField[] {
  const s = (name: string, extra: Partial<RestField> = {}): RestField => ({ name, type: 'Edm.String', filterable: true, ...extra });
  const c = (name: string, type: string): RestField => ({ name, type, filterable: true });
  return [
    s('id', { key: true }), s('record_id'), s('element_id'), s('text', { filterable: false }), s('type'),
    { name: 'embeddings', type: 'Collection(Edm.Single)', dimensions: dims, filterable: false },
    {
      name: 'metadata', type: 'Edm.ComplexType', fields: [
        c('category_depth', 'Edm.Int32'), s('parent_id'), s('attached_to_filename'), s('filetype'), c('last_modified', 'Edm.DateTimeOffset'),
        c('is_continuation', 'Edm.Boolean'), s('file_directory'), s('filename'),
        { name: 'data_source', type: 'Edm.ComplexType', fields: [s('url'), s('version'), c('date_created', 'Edm.DateTimeOffset'), c('date_modified', 'Edm.DateTimeOffset'), c('date_processed', 'Edm.DateTimeOffset'), s('permissions_data'), s('record_locator')] },
        { name: 'coordinates', type: 'Edm.ComplexType', fields: [s('system'), c('layout_width', 'Edm.Double'), c('layout_height', 'Edm.Double'), s('points')] },
        c('languages', 'Collection(Edm.String)'), s('page_number'), c('links', 'Collection(Edm.String)'), s('page_name'), s('url'),
        c('link_urls', 'Collection(Edm.String)'), c('link_texts', 'Collection(Edm.String)'), c('sent_from', 'Collection(Edm.String)'), c('sent_to', 'Collection(Edm.String)'),
        s('subject'), s('section'), s('header_footer_type'), c('emphasized_text_contents', 'Collection(Edm.String)'), c('emphasized_text_tags', 'Collection(Edm.String)'),
        s('text_as_html'), s('regex_metadata'), c('detection_class_prob', 'Edm.Double'),
      ],
    },
  ];
}

class Invalid extends Error {}

/** Azure's refusal of a value that does not fit its field (request-level 400). */
function checkValue(f: RestField, v: unknown, path: string): void {
  if (v === null || v === undefined) return;
  const bad = () => {
    throw new Invalid(`The request is invalid. Details: Cannot convert the literal '${JSON.stringify(v).slice(0, 60)}' to the expected type '${f.type}' (property '${path}').`);
  };
  const scalar = (type: string, x: unknown) => {
    if (type === 'Edm.String' && typeof x !== 'string') bad();
    if ((type === 'Edm.Int32' || type === 'Edm.Int64') && !Number.isInteger(x)) bad();
    if ((type === 'Edm.Double' || type === 'Edm.Single') && typeof x !== 'number') bad();
    if (type === 'Edm.Boolean' && typeof x !== 'boolean') bad();
    if (type === 'Edm.DateTimeOffset' && (typeof x !== 'string' || !/(Z|[+-]\d\d:\d\d)$/.test(x) || !Number.isFinite(Date.parse(x)))) bad();
  };
  if (f.type === 'Edm.ComplexType') {
    if (typeof v !== 'object' || Array.isArray(v)) bad();
    checkDoc(f.fields ?? [], v as Record<string, unknown>, `${path}.`);
  } else if (f.type === 'Collection(Edm.ComplexType)') {
    if (!Array.isArray(v)) bad();
    for (const item of v as Record<string, unknown>[]) checkDoc(f.fields ?? [], item, `${path}.`);
  } else if (f.type.startsWith('Collection(')) {
    if (!Array.isArray(v)) bad();
    const inner = f.type.slice('Collection('.length, -1);
    for (const x of v as unknown[]) scalar(inner, x);
    if (f.dimensions !== undefined && (v as unknown[]).length !== f.dimensions) {
      throw new Invalid(`The request is invalid. Details: The vector field '${path}' dimensionality must match the field definition's 'dimensions' property. Expected: '${f.dimensions}'. Actual: '${(v as unknown[]).length}'.`);
    }
  } else scalar(f.type, v);
}

function checkDoc(fields: RestField[], doc: Record<string, unknown>, prefix = ''): void {
  for (const [k, v] of Object.entries(doc)) {
    if (k === '@search.action') continue;
    const f = fields.find((x) => x.name === k);
    if (!f) throw new Invalid(`The request is invalid. Details: The property '${prefix}${k}' does not exist on type 'search.documentFields'. Make sure to only use property names that are defined by the type.`);
    checkValue(f, v, `${prefix}${k}`);
  }
}

/** `field eq 'value'` clauses joined by `and` (what the destination sends). */
function parseFilter(filter: string, fields: RestField[]): [string, string][] {
  return filter.split(/\s+and\s+/).map((clause) => {
    const m = /^\s*(\w+)\s+eq\s+'((?:[^']|'')*)'\s*$/.exec(clause);
    if (!m) throw new Invalid(`Invalid expression: Syntax error in '${clause}'.\r\nParameter name: $filter`);
    const f = fields.find((x) => x.name === m[1]);
    if (!f) throw new Invalid(`Invalid expression: Could not find a property named '${m[1]}' on type 'search.document'.\r\nParameter name: $filter`);
    if (!f.filterable) throw new Invalid(`Invalid expression: The field '${m[1]}' is not filterable. Only filterable fields can be used in filter expressions.\r\nParameter name: $filter`);
    return [m[1]!, m[2]!.replace(/''/g, "'")];
  });
}

export async function startAzureSearchStandIn(tls: ServerOptions, service = 'stand-in'): Promise<AzureSearchStandIn> {
  const indexes = new Map<string, StandInIndex>();
  const requests: AzureSearchStandIn['requests'] = [];
  const injected: { match: RegExp; status: number; headers?: Record<string, string>; body?: unknown; times: number }[] = [];
  let busyLeft = 0;
  let busyStatus = 503;
  const adminKey = 'ADMIN-0123456789abcdef0123456789abcdef';
  const queryKey = 'QUERY-0123456789abcdef0123456789abcdef';

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { ...(text ? { 'content-type': 'application/json; odata.metadata=none; charset=utf-8' } : {}), 'content-length': String(Buffer.byteLength(text)), ...headers });
    res.end(text);
  };
  const fail = (res: ServerResponse, status: number, message: string, code = '') => send(res, status, { error: { code, message } });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : undefined;
    const url = new URL(req.url ?? '/', 'https://x');
    const path = decodeURIComponent(url.pathname);
    const method = req.method ?? 'GET';
    requests.push({ method, path, body });
    const inj = injected.find((i) => i.times > 0 && i.match.test(`${method} ${path}`));
    if (inj) {
      inj.times--;
      return send(res, inj.status, inj.body, inj.headers);
    }
    const key = req.headers['api-key'];
    const admin = key === adminKey;
    if (!admin && key !== queryKey) return send(res, 403);
    const m = /^\/indexes\('([^']+)'\)(\/docs\/(search\.index|search\.post\.search|\$count))?$/.exec(path);
    if (!m) return fail(res, 404, `Resource ${path} not found.`);
    const index = indexes.get(m[1]!);
    if (!m[2]) {
      if (!admin) return send(res, 403);
      if (!index) return fail(res, 404, `No index with the name '${m[1]}' was found in the service '${service}'.`);
      return send(res, 200, { '@odata.etag': '"0x1"', name: index.name, fields: index.fields.map(restShape), vectorSearch: { algorithms: [{ name: 'hnsw', kind: 'hnsw' }] } });
    }
    if (!index) return fail(res, 404, `The index '${m[1]}' for service '${service}' was not found.`);
    try {
      if (m[3] === '$count') return send(res, 200, index.docs.size);
      if (m[3] === 'search.post.search') return search(res, index, body ?? {});
      if (!admin) return send(res, 403);
      return indexBatch(res, index, body?.value ?? []);
    } catch (err) {
      if (err instanceof Invalid) return fail(res, 400, err.message);
      throw err;
    }
  };

  const keyOf = (index: StandInIndex) => index.fields.find((f) => f.key)!.name;

  const indexBatch = (res: ServerResponse, index: StandInIndex, actions: Record<string, any>[]) => {
    if (actions.length > 1000) throw new Invalid('The request is invalid. Details: actions : The batch contains more than 1000 actions.');
    const keyField = keyOf(index);
    for (const a of actions) {
      if (typeof a[keyField] !== 'string' || !a[keyField]) throw new Invalid('The request is invalid. Details: Document key cannot be missing or empty.');
      if (a['@search.action'] !== 'delete') checkDoc(index.fields, a);
    }
    const results = actions.map((a) => {
      const k = a[keyField] as string;
      if (a['@search.action'] !== 'delete' && busyLeft > 0) {
        busyLeft--;
        return { key: k, status: false, errorMessage: busyStatus === 503 ? 'Service is too busy to process this document. Please try again later.' : 'Index temporarily unavailable.', statusCode: busyStatus };
      }
      if (!/^[A-Za-z0-9_\-=]+$/.test(k)) return { key: k, status: false, errorMessage: `Invalid document key: '${k}'. Keys can only contain letters, digits, underscore (_), dash (-), or equal sign (=).`, statusCode: 400 };
      if (a['@search.action'] === 'delete') {
        index.docs.delete(k);
        return { key: k, status: true, errorMessage: null, statusCode: 200 };
      }
      const existed = index.docs.has(k);
      const { '@search.action': _, ...doc } = a;
      index.docs.set(k, doc);
      return { key: k, status: true, errorMessage: null, statusCode: existed ? 200 : 201 };
    });
    send(res, results.every((r) => r.status) ? 200 : 207, { value: results });
  };

  const search = (res: ServerResponse, index: StandInIndex, q: Record<string, any>) => {
    const clauses = q.filter ? parseFilter(q.filter, index.fields) : [];
    const all = [...index.docs.values()].filter((d) => clauses.every(([f, v]) => d[f] === v));
    const skip = q.skip ?? 0;
    const top = q.top ?? 50;
    const pageSize = Math.min(top, 1000);
    const page = all.slice(skip, skip + pageSize);
    const select = typeof q.select === 'string' && q.select ? q.select.split(',').map((s: string) => s.trim()) : undefined;
    const value = page.map((d) => ({ '@search.score': 1, ...(select ? Object.fromEntries(select.map((f: string) => [f, d[f]])) : d) }));
    const more = top > pageSize && all.length > skip + pageSize;
    send(res, 200, {
      value,
      ...(more ? { '@search.nextPageParameters': { ...q, skip: skip + pageSize, top: top - pageSize }, '@odata.nextLink': `${stand.endpoint}/indexes('${index.name}')/docs/search.post.search?api-version=2025-09-01` } : {}),
    });
  };

  const server = createServer(tls, (req, res) => {
    handle(req, res).catch((err) => fail(res, 500, String(err)));
  });
  const port = await listenLocal(server);
  const stand: AzureSearchStandIn = {
    endpoint: `https://127.0.0.1:${port}`,
    adminKey,
    queryKey,
    indexes,
    requests,
    addIndex(name, fields) {
      const idx = { name, fields, docs: new Map() };
      indexes.set(name, idx);
      return idx;
    },
    inject(match, answer, times = 1) {
      injected.push({ match, ...answer, times });
    },
    busyItems(statusCode, times) {
      busyStatus = statusCode;
      busyLeft = times;
    },
    stop: () => closeServer(server),
  };
  return stand;
}

/** A field as the service describes it (all attributes explicit). */
function restShape(f: RestField): Record<string, unknown> {
  if (f.fields) return { name: f.name, type: f.type, fields: f.fields.map(restShape) };
  return {
    name: f.name, type: f.type, key: Boolean(f.key), retrievable: true, searchable: f.type === 'Edm.String' || f.type === 'Collection(Edm.String)',
    filterable: Boolean(f.filterable), sortable: false, facetable: false, ...(f.dimensions ? { dimensions: f.dimensions, vectorSearchProfile: 'profile' } : {}),
  };
}
