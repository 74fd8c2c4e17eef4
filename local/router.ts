// Local API Gateway: turns each HTTP request into a REST API proxy event (binary bodies base64),
// finds the route in the shared route table and calls the very handler CDK deploys.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listen } from './emulators/http-server';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { ROUTES, type RouteDefinition } from '../lambdas/routes';
import { lambdaContext, loadHandler } from './handlers';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
/** A route's streaming export (RouteDefinition.streamExport): the same event in, a web Response out. */
type StreamHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<Response>;

interface CompiledRoute {
  route: RouteDefinition;
  regex: RegExp;
  names: string[];
}

const compiled: CompiledRoute[] = ROUTES.map((route) => {
  const names: string[] = [];
  const pattern = route.path
    .replace(/\/+$/, '')
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
  return { route, regex: new RegExp(`^${pattern}/?$`), names };
});

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

function send(res: ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
  res.end(data);
}

type BodyOutcome = { body: Buffer } | { tooLarge: true } | { aborted: true } | { idle: true };

/** A request's headers must be complete within this (a request line that never ends, HTTP/0.9). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A body that stops arriving for this long (shorter than its Content-Length, a chunk that never comes) is a 408. */
export const BODY_IDLE_MS = 15_000;

/**
 * Reads the request body up to `limit` bytes. Above it, collecting stops and the rest is drained
 * unread, so the 413 reaches a client still sending; a client that disconnects mid-body is an outcome
 * too (nobody is left to answer), never an exception.
 */
function readBody(req: IncomingMessage, limit: number, idleMs: number): Promise<BodyOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let idle = setTimeout(() => settle({ idle: true }), idleMs);
    const settle = (outcome: BodyOutcome) => {
      clearTimeout(idle);
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      clearTimeout(idle);
      idle = setTimeout(() => settle({ idle: true }), idleMs);
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle({ body: Buffer.concat(chunks) }));
    req.on('aborted', () => settle({ aborted: true }));
    req.on('error', () => settle({ aborted: true }));
    req.on('close', () => {
      if (!req.complete) settle({ aborted: true });
    });
  });
}

/** Path parameters decoded, or undefined when one carries a malformed percent-encoding. */
function decodeParams(names: string[], values: string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    try {
      out[name] = decodeURIComponent(values[i]!);
    } catch {
      return undefined;
    }
  }
  return out;
}

/**
 * Writes a web Response as it is produced (an SSE stream: each event flushed as it comes); a client
 * that leaves cancels the stream, so the handler stops producing.
 */
async function sendStream(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  res.on('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
    }
  } finally {
    res.off('close', cancel);
    res.end();
  }
}

/** The host to print for the listener: a wildcard is reached via loopback; IPv6 literals need brackets. */
function urlHost(host: string | undefined): string {
  if (!host || host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export interface RouterOptions {
  port: number;
  host?: string;
  maxBodyBytes: number;
  /** Overrides of HEADERS_TIMEOUT_MS and BODY_IDLE_MS (tests). */
  headersTimeoutMs?: number;
  bodyIdleMs?: number;
  /** Called for every request with its outcome (for the startup log). */
  onRequest?: (line: { method: string; path: string; status: number; ms: number }) => void;
}

export async function startRouter(opts: RouterOptions): Promise<{ url: string; server: Server; stop(): Promise<void> }> {
  // -- every request ends in a response (or a closed socket when the client left): nothing here may
  // -- throw out of the callback, where it would become an uncaught exception of the whole process --
  const headersTimeout = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const bodyIdleMs = opts.bodyIdleMs ?? BODY_IDLE_MS;
  // -- node checks its header and request deadlines every connectionsCheckingInterval (30 s by
  // -- default): at 1 s a stalled request line is answered 408 at its deadline, not up to 30 s later --
  const server = createServer({ headersTimeout, requestTimeout: 600_000, connectionsCheckingInterval: 1000 }, (req, res) => {
    void handle(req, res);
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const method = (req.method ?? 'GET').toUpperCase();
    let path = req.url ?? '/';
    let status = 500;
    try {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://localhost');
      } catch {
        // -- API Gateway answers an unparsable request line itself, with a 400 --
        status = 400;
        return send(res, 400, { detail: 'Malformed request URL' });
      }
      path = url.pathname;
      if (path === '/' && method === 'GET') {
        // -- the web console (lib/api.ts answers the same on AWS) --
        status = 302;
        res.writeHead(302, { location: '/console', 'content-length': '0' });
        res.end();
        return;
      }
      const matches = compiled.filter((c) => c.regex.test(url.pathname));
      if (matches.length === 0) {
        status = 404;
        return send(res, 404, { detail: 'Not Found' });
      }
      const hit = matches.find((c) => c.route.method === method);
      if (!hit) {
        status = 405;
        res.setHeader('allow', matches.map((m) => m.route.method).join(', '));
        return send(res, 405, { detail: 'Method Not Allowed' });
      }
      const m = hit.regex.exec(url.pathname)!;
      const pathParameters = decodeParams(hit.names, m.slice(1));
      if (!pathParameters) {
        status = 400;
        return send(res, 400, { detail: 'Malformed percent-encoding in the URL path' });
      }
      // -- a declared length above the cap is refused before a byte is read (a 490 MB upload) --
      const declared = Number(req.headers['content-length'] ?? 0);
      const read = declared > opts.maxBodyBytes ? ({ tooLarge: true } as const) : await readBody(req, opts.maxBodyBytes, bodyIdleMs);
      if ('aborted' in read) {
        status = 499; // -- nginx's "client closed request": logged, nobody to answer --
        return;
      }
      if ('idle' in read) {
        // -- a body shorter than its Content-Length, or a chunk announced and never sent: the socket is
        // -- freed with a 408 instead of waiting for bytes that will not come --
        status = 408;
        res.setHeader('connection', 'close');
        send(res, 408, { detail: `Request body stalled: no bytes for ${Math.round(bodyIdleMs / 1000)} s before its end` });
        res.on('finish', () => req.socket.destroy());
        return;
      }
      if ('tooLarge' in read) {
        req.resume(); // -- drained unread while the 413 goes out --
        status = 413;
        res.setHeader('connection', 'close');
        return send(res, 413, {
          detail: `Request body is too large: this service accepts up to ${Math.floor(opts.maxBodyBytes / 1024 / 1024)} MiB per request; send large files through POST /api/v1/uploads/`,
        });
      }
      const body = read.body;
      // -- names are client data (`?__proto__=1`, `?constructor=2`, a `__proto__:` header): collected in
      // -- Maps and turned into own properties, as API Gateway's JSON event gives them, never looked up
      // -- on a plain object where they would find Object.prototype's members --
      const headerValues = new Map<string, string[]>();
      for (const [k, v] of Object.entries(req.headers)) {
        if (v !== undefined) headerValues.set(k, Array.isArray(v) ? v : [v]);
      }
      const queryValues = new Map<string, string[]>();
      for (const [k, v] of url.searchParams) queryValues.set(k, [...(queryValues.get(k) ?? []), v]);
      const last = (m: Map<string, string[]>) => Object.fromEntries([...m].map(([k, vs]) => [k, vs[vs.length - 1]!]));
      const headers: Record<string, string> = last(headerValues);
      const multiValueHeaders: Record<string, string[]> = Object.fromEntries(headerValues);
      const query: Record<string, string> = last(queryValues);
      const multiQuery: Record<string, string[]> = Object.fromEntries(queryValues);
      const contentType = headers['content-type'] ?? '';
      const isText = body.length === 0 || TEXT_TYPES.test(contentType);
      const event = {
        resource: hit.route.path,
        path: url.pathname,
        httpMethod: method,
        headers,
        multiValueHeaders,
        queryStringParameters: Object.keys(query).length ? query : null,
        multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
        pathParameters: hit.names.length ? pathParameters : null,
        stageVariables: null,
        body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : null,
        isBase64Encoded: !isText,
        requestContext: {
          httpMethod: method,
          path: url.pathname,
          resourcePath: hit.route.path,
          stage: 'local',
          requestId: crypto.randomUUID(),
          requestTimeEpoch: started,
          identity: { sourceIp: req.socket.remoteAddress ?? '' },
        },
      } as unknown as APIGatewayProxyEvent;
      if (hit.route.streamExport) {
        const streamer = await loadHandler<StreamHandler>({ file: hit.route.handler.file, export: hit.route.streamExport });
        const response = await streamer(event, lambdaContext(hit.route.operationId) as unknown as Context);
        status = response.status;
        await sendStream(res, response);
        return;
      }
      const handler = await loadHandler<ProxyHandler>(hit.route.handler);
      const result = await handler(event, lambdaContext(hit.route.operationId) as unknown as Context);
      status = result.statusCode;
      const payload = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
      const outHeaders: Record<string, string | number> = { ...(result.headers as Record<string, string>) };
      outHeaders['content-length'] = payload.length;
      res.writeHead(result.statusCode, outHeaders);
      res.end(payload);
    } catch (err) {
      status = 500;
      console.error(JSON.stringify({ level: 'error', msg: 'router failure', path, error: (err as Error)?.stack ?? String(err) }));
      if (!res.headersSent) send(res, 500, { detail: 'Internal server error' });
      else res.destroy();
    } finally {
      opts.onRequest?.({ method, path, status, ms: Date.now() - started });
    }
  }
  // -- a body may take minutes (256 MiB on a slow link) but not forever: the whole request has 10
  // -- minutes (requestTimeout, above), and a body that stops arriving is a 408 after bodyIdleMs --
  // -- idle keep-alive longer than clients' own (undici 4 s, SDKs ~5 s): the client closes first, so a
  // -- request is never sent on a socket the server is closing at that instant (ECONNRESET) --
  server.keepAliveTimeout = 65_000;
  const port = await listen(server, opts.port, opts.host ?? '127.0.0.1');
  return {
    url: `http://${urlHost(opts.host)}:${port}`,
    server,
    stop: () => closeServer(server),
  };
}
