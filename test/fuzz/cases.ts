// Malformed requests for `npm run fuzz`, generated from the route table (every route: path ids, wrong
// methods, keys, query values, JSON bodies, multipart forms) plus raw requests no HTTP client would
// send. Deterministic: the same seed gives the same list, in the same order.
import { ROUTES, type RouteDefinition } from '../../lambdas/routes';

export interface FuzzIds {
  source_id: string;
  destination_id: string;
  workflow_id: string;
  job_id: string;
  channel_id: string;
  notification_id: string;
  template_id: string;
  file_id: string;
  upload_id: string;
}

export interface FuzzCase {
  /** operationId, or `raw` for requests sent over a bare socket. */
  route: string;
  what: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Sent as is over TCP instead of through fetch. */
  raw?: string;
}

/** mulberry32: small, seeded, good enough to pick values. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const BAD_IDS = [
  '%', '%E0%A4%A', '%ZZ', '%00', '%2F', '..', '__proto__', 'constructor', 'x'.repeat(5000), '🦄', '%F0%9F%A6%84',
  '%20', "'%20OR%201=1--", '-1', '1e308', '00000000-0000-0000-0000-000000000000', 'ep_', 'ep_' + 'a'.repeat(500),
];
const BAD_VALUES: unknown[] = [null, 1e308, -1, 0, 1.5, true, [], {}, 'x'.repeat(100_000), '', '\u0000', '__proto__', [[[[[]]]]]];
const BAD_QUERY = ['', '1e308', '-1', 'NaN', 'Infinity', '1.5', 'x'.repeat(5000), '__proto__', 'constructor', 'maybe', '%', '[]', '{"a":1}', '%00', '2026-13-45T99:99:99Z'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'FOO'];

/** A valid body per JSON route, so single-field mutations reach the field checks. */
function baseline(route: RouteDefinition, dir: string): Record<string, unknown> | undefined {
  const op = route.operationId;
  if (op.startsWith('create_source') || op.startsWith('create_destination')) return { name: 'fuzz', type: 'local', config: { remote_url: dir } };
  if (op.startsWith('update_source') || op.startsWith('update_destination')) return { config: { remote_url: dir } };
  if (op === 'create_workflow') return { name: 'fuzz', workflow_type: 'basic' };
  if (op === 'update_workflow') return { name: 'fuzz-renamed' };
  if (op === 'create_upload') return { filename: 'fuzz.pdf', content_type: 'application/pdf' };
  if (op.startsWith('create_') && op.endsWith('channel')) return { channel_type: 'webhook', url: 'https://hooks.example.com/fuzz', event_types: ['job.failed'], enabled: false };
  if (op.startsWith('update_') && op.endsWith('channel')) return { description: 'fuzz' };
  if (op.startsWith('verify_')) return { code: '123456' };
  if (op === 'mark_notifications_read') return { mark_all: true };
  return route.body ? {} : undefined;
}

function fillPath(route: RouteDefinition, ids: FuzzIds, override?: string): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => override ?? (ids as unknown as Record<string, string>)[name] ?? 'x');
}

function queryKeys(route: RouteDefinition): string[] {
  const shape = (route.query as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** A multipart body from (name, value | file) parts; `cut` drops the closing boundary. */
function multipart(parts: [string, string | { filename: string; data: string }][], boundary = 'fuzzBoundary7', cut = false): string {
  let out = '';
  for (const [name, v] of parts) {
    out += `--${boundary}\r\n`;
    if (typeof v === 'string') out += `Content-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`;
    else out += `Content-Disposition: form-data; name="${name}"; filename="${v.filename}"\r\nContent-Type: text/plain\r\n\r\n${v.data}\r\n`;
  }
  return cut ? out.slice(0, -2) : `${out}--${boundary}--\r\n`;
}

export function generateCases(ids: FuzzIds, key: string, dir: string, seed: number): FuzzCase[] {
  const rand = rng(seed);
  const pick = <T>(xs: T[], n: number): T[] => {
    const copy = [...xs];
    const out: T[] = [];
    while (out.length < n && copy.length) out.push(copy.splice(Math.floor(rand() * copy.length), 1)[0]!);
    return out;
  };
  const auth = { 'unstructured-api-key': key };
  const json = { ...auth, 'content-type': 'application/json' };
  const cases: FuzzCase[] = [];
  const seenMethodPaths = new Set<string>();
  const add = (c: Omit<FuzzCase, 'headers'> & { headers?: Record<string, string> }) => cases.push({ headers: auth, ...c });

  for (const route of ROUTES) {
    const op = route.operationId;
    const path = fillPath(route, ids);
    const base = baseline(route, dir);
    const validBody = base ? JSON.stringify(base) : undefined;
    const bodyHeaders = validBody ? json : auth;

    // -- path ids: malformed, oversized, prototype names, unknown --
    if (route.path.includes('{')) {
      for (const bad of BAD_IDS) add({ route: op, what: `path id ${bad.slice(0, 30)}`, method: route.method, path: fillPath(route, ids, bad), headers: bodyHeaders, body: validBody });
    }
    // -- wrong methods on this path --
    for (const m of METHODS) {
      if (m === route.method || seenMethodPaths.has(`${m} ${route.path}`)) continue;
      seenMethodPaths.add(`${m} ${route.path}`);
      add({ route: op, what: `method ${m}`, method: m, path });
    }
    // -- keys: none, unknown, oversized, in the wrong header --
    if (route.auth !== false) {
      add({ route: op, what: 'no key', method: route.method, path, headers: validBody ? { 'content-type': 'application/json' } : {}, body: validBody });
      add({ route: op, what: 'unknown key', method: route.method, path, headers: { 'service-api-key': 'wps_nope_nope', 'content-type': 'application/json' }, body: validBody });
      add({ route: op, what: '8 KB key', method: route.method, path, headers: { 'unstructured-api-key': 'k'.repeat(8192), 'content-type': 'application/json' }, body: validBody });
      add({ route: op, what: 'bearer instead of key', method: route.method, path, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: validBody });
    }
    // -- query values: every declared parameter, plus prototype-named and repeated ones --
    for (const q of queryKeys(route)) {
      for (const v of pick(BAD_QUERY, 8)) add({ route: op, what: `query ${q}=${v.slice(0, 20)}`, method: route.method, path: `${path}?${q}=${v === '%' || v === '%00' ? v : encodeURIComponent(v)}` });
      add({ route: op, what: `query ${q} repeated`, method: route.method, path: `${path}?${q}=a&${q}=b&${q}=c` });
    }
    if (route.method === 'GET') {
      add({ route: op, what: 'query __proto__', method: 'GET', path: `${path}?__proto__=1&constructor[prototype][x]=1&prototype=2` });
      add({ route: op, what: 'query bad encoding', method: 'GET', path: `${path}?a=%E0%A4%A&%ZZ=1` });
    }
    // -- JSON bodies: broken, wrong shapes, wrong types, one field at a time --
    if (route.body && base) {
      const bodies: [string, string, string?][] = [
        ['invalid JSON', '{"a":'],
        ['JSON array', '[]'],
        ['JSON number', '1e308'],
        ['JSON null', 'null'],
        ['empty body', ''],
        ['nested 100,000 deep', deep(100_000)],
        ['2 MB of spaces', `${' '.repeat(2_000_000)}{}`],
        ['prototype keys', `{"__proto__":{"admin":true},"constructor":{"prototype":{}},${validBody!.slice(1)}`],
        ['text/plain', validBody!, 'text/plain'],
        ['multipart without boundary', validBody!, 'multipart/form-data'],
        ['xml', '<a/>', 'application/xml'],
      ];
      for (const [what, body, ct] of bodies) add({ route: op, what, method: route.method, path, headers: { ...auth, 'content-type': ct ?? 'application/json' }, body });
      for (const field of Object.keys(base)) {
        for (const v of pick(BAD_VALUES, 7)) add({ route: op, what: `body ${field}=${JSON.stringify(v)?.slice(0, 20)}`, method: route.method, path, headers: json, body: JSON.stringify({ ...base, [field]: v }) });
        const { [field]: _dropped, ...rest } = base;
        add({ route: op, what: `body without ${field}`, method: route.method, path, headers: json, body: JSON.stringify(rest) });
      }
      if ('config' in base) {
        for (const v of [deep(200), { remote_url: 1e308 }, { remote_url: null }, { remote_url: 'x'.repeat(70_000) }, { remote_url: dir, extra: 'y'.repeat(70_000) }]) {
          add({ route: op, what: `config ${JSON.stringify(v).slice(0, 20)}`, method: route.method, path, headers: json, body: JSON.stringify({ ...base, config: typeof v === 'string' ? JSON.parse(v) : v }) });
        }
      }
    }
    // -- multipart forms --
    if (route.multipart) {
      const field = route.multipart.fileFields[0]!;
      const file = { filename: 'a.txt', data: 'hello fuzz' };
      const rd = (v: string): [string, string] => ['request_data', v];
      const forms: [string, string, string?][] = [
        ['unterminated part', multipart([[field, file]], 'fuzzBoundary7', true)],
        ['boundary mismatch', multipart([[field, file]], 'otherBoundary')],
        ['no parts', '--fuzzBoundary7--\r\n'],
        ['garbage', '\u0000\u0001\u0002 not multipart at all'],
        ['JSON to a form route', '{"files":[]}', 'application/json'],
        ['no boundary parameter', multipart([[field, file]]), 'multipart/form-data'],
        ['eleven files', multipart(Array.from({ length: 11 }, () => [field, file] as [string, typeof file]))],
        ['file in an unknown field', multipart([['other', file]])],
        ['300-character file name', multipart([[field, { ...file, filename: `${'n'.repeat(300)}.txt` }]])],
        ['path traversal file name', multipart([[field, { ...file, filename: '../../../etc/passwd' }]])],
        ['NUL in file name', multipart([[field, { ...file, filename: 'a\u0000.pdf' }]])],
        ['2 MB field', multipart([['request_data', 'r'.repeat(2 * 1024 * 1024)], [field, file]])],
        // -- a part without a name, or with name="": a 422 at its place (it was a TypeError 500) --
        ['part without a name', `--fuzzBoundary7\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--fuzzBoundary7--\r\n`],
        ['file part with name=""', `--fuzzBoundary7\r\nContent-Disposition: form-data; name=""; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nabc\r\n--fuzzBoundary7--\r\n`],
        ['fields named __proto__, constructor, prototype', multipart([['__proto__', 'x'], ['constructor', 'y'], ['prototype', 'z'], ['__proto__[]', 'w'], [field, file]])],
        ['2,000 fields', multipart([...Array.from({ length: 2000 }, (_, i) => [`f${i}`, 'v'] as [string, string]), [field, file]])],
        ['upload ids: not uuids', multipart([rd('{"template_id":"fast_partition"}'), ['input_upload_ids', 'x,__proto__,%']])],
        ['upload ids: unknown', multipart([rd('{"template_id":"fast_partition"}'), ['input_upload_ids', '6f1f7a53-3a6d-4c55-9a43-1f1f9c1f0b11']])],
        ['upload ids: eleven', multipart([rd('{"template_id":"fast_partition"}'), ['input_upload_ids', Array.from({ length: 11 }, () => ids.upload_id).join(',')]])],
      ];
      if (op === 'create_job') {
        for (const v of ['', '{', '[]', '1e308', 'null', '{"job_nodes":[]}', '{"job_nodes":1e308}', '{"template_id":1e308}', '{"template_id":"__proto__"}', '{"template_id":"x","job_nodes":[]}',
          `{"job_nodes":[{"name":"p","type":"partition","subtype":"unstructured_api","settings":${deep(5000)}}]}`,
          '{"job_nodes":[{"name":"p","type":"partition","subtype":"unstructured_api","settings":{"strategy":"fast","__proto__":{"x":1}}}]}',
          '{"job_nodes":[{"name":"p","type":"partition","subtype":"unstructured_api"},{"name":"c","type":"chunk","subtype":"chunk_by_title","settings":{"max_characters":1e308,"overlap":-1}}]}',
          '{"job_nodes":[{"name":"p","type":"partition","subtype":"unstructured_api"},{"name":"e","type":"embed","subtype":"local","settings":{"dimensions":1e308}}]}',
          `{"job_nodes":[{"name":"${'n'.repeat(100_000)}","type":"partition","subtype":"unstructured_api"}]}`]) {
          forms.push([`request_data ${v.slice(0, 30)}`, multipart([rd(v), [field, file]])]);
        }
      }
      if (op === 'partition') {
        for (const [k, v] of [['strategy', 'bogus'], ['output_format', 'text/x-evil'], ['max_characters', '-5'], ['max_characters', '1e308'], ['similarity_threshold', 'NaN'], ['overlap', '99999999999999999999'],
          ['starting_page_number', '1e308'], ['languages', 'x'.repeat(100_000)], ['coordinates', 'maybe'], ['encoding', 'utf-1024'], ['content_type', '../../etc'], ['split_pdf_page_range', '[1e308,-1]'],
          ['chunking_strategy', '__proto__'], ['hi_res_model_name', '__proto__'], ['unique_element_ids', '1e308'], ['gz_uncompressed_content_type', 'application/x-evil']]) {
          forms.push([`field ${k}=${v.slice(0, 20)}`, multipart([[k, v], [field, file]])]);
        }
        forms.push(['chunking a 1 MB word into single characters', multipart([['chunking_strategy', 'basic'], ['max_characters', '1'], [field, { filename: 'w.txt', data: 'w'.repeat(1_000_000) }]])]);
      }
      for (const [what, body, ct] of forms) {
        add({ route: op, what, method: route.method, path, headers: { ...auth, 'content-type': ct ?? 'multipart/form-data; boundary=fuzzBoundary7' }, body });
      }
    }
  }

  // -- raw requests: what no HTTP client sends --
  const host = 'Host: localhost\r\nConnection: close\r\n';
  const raws: [string, string][] = [
    ['request line with an unclosed IPv6 host', `GET http://[::1 HTTP/1.1\r\n${host}\r\n`],
    ['absolute-form URL', `GET http://evil.example.com/healthcheck HTTP/1.1\r\n${host}\r\n`],
    ['percent sign path', `GET /api/v1/jobs/% HTTP/1.1\r\n${host}unstructured-api-key: ${key}\r\n\r\n`],
    ['asterisk target', `OPTIONS * HTTP/1.1\r\n${host}\r\n`],
    ['HTTP/0.9 style', 'GET /\r\n\r\n'],
    ['HTTP/2 preface on HTTP/1', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['space in path', `GET /health check HTTP/1.1\r\n${host}\r\n`],
    ['both content-length and chunked', `POST /api/v1/sources/ HTTP/1.1\r\n${host}unstructured-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ['bad chunk size', `POST /api/v1/sources/ HTTP/1.1\r\n${host}unstructured-api-key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n{}\r\n0\r\n\r\n`],
    ['negative content-length', `POST /api/v1/sources/ HTTP/1.1\r\n${host}Content-Length: -1\r\n\r\n`],
    ['content-length larger than the body, then close', `POST /api/v1/uploads/ HTTP/1.1\r\nHost: x\r\nunstructured-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"filename":`],
    ['declared 5 GB body', `POST /general/v0/general HTTP/1.1\r\n${host}unstructured-api-key: ${key}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 5000000000\r\n\r\n--b\r\n`],
    ['20 KB header', `GET /healthcheck HTTP/1.1\r\n${host}X-Big: ${'h'.repeat(20_000)}\r\n\r\n`],
    ['header without colon', `GET /healthcheck HTTP/1.1\r\n${host}NoColonHere\r\n\r\n`],
    ['control character in header', `GET /api/v1/sources/ HTTP/1.1\r\n${host}unstructured-api-key: a\u0001b\r\n\r\n`],
    ['unterminated multipart', `POST /general/v0/general HTTP/1.1\r\n${host}unstructured-api-key: ${key}\r\nContent-Type: multipart/form-data; boundary=zz\r\nContent-Length: 80\r\n\r\n${'--zz\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nabc'.padEnd(80, 'x')}`],
    ['lowercase method', `get /healthcheck HTTP/1.1\r\n${host}\r\n`],
    ['NUL in request line', `GET /heal\u0000thcheck HTTP/1.1\r\n${host}\r\n`],
    ['pipelined requests, one malformed', `GET /healthcheck HTTP/1.1\r\nHost: x\r\n\r\nGET /% HTTP/1.1\r\nHost: x\r\n\r\nGET /healthcheck HTTP/1.1\r\n${host}\r\n`],
    ['form field named __proto__', `POST /general/v0/general HTTP/1.1\r\n${host}unstructured-api-key: ${key}\r\nContent-Type: multipart/form-data; boundary=q\r\nContent-Length: 98\r\n\r\n${'--q\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--q--\r\n'.padEnd(98, ' ')}`],
    ['TRACE', `TRACE /healthcheck HTTP/1.1\r\n${host}\r\n`],
    // -- requests that stop short and stay open (Connection: close: no half-close): each must be answered
    // -- 408 at the server's header or body deadline (10 s / 15 s), not held until the client gives up --
    ['body shorter than its Content-Length, socket kept open', `POST /api/v1/sources/ HTTP/1.1\r\n${host}unstructured-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`],
    ['oversized chunk size, socket kept open', `POST /api/v1/sources/ HTTP/1.1\r\n${host}unstructured-api-key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nfffffff\r\n{"a":1}`],
    ['HTTP/0.9 request line, socket kept open', 'GET /healthcheck\r\nConnection: close\r\n'],
    ['headers named __proto__ and constructor', `GET /api/v1/sources/ HTTP/1.1\r\n${host}unstructured-api-key: ${key}\r\n__proto__: a\r\n__proto__: b\r\nconstructor: c\r\n\r\n`],
  ];
  for (const [what, raw] of raws) cases.push({ route: 'raw', what, method: 'RAW', path: '', headers: {}, raw });

  // -- a deterministic shuffle, so neighbouring requests differ in route and kind --
  for (let i = cases.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [cases[i], cases[j]] = [cases[j]!, cases[i]!];
  }
  return cases;
}
