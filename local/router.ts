// Local API Gateway: turns each HTTP request into a REST API proxy event (binary bodies base64),
// finds the route in the shared route table and calls the very handler CDK deploys.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listen } from './emulators/http-server';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { ROUTES, type RouteDefinition } from '../lambdas/routes';
import { lambdaContext, loadHandler } from './handlers';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

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

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
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
  /** Called for every request with its outcome (for the startup log). */
  onRequest?: (line: { method: string; path: string; status: number; ms: number }) => void;
}

export async function startRouter(opts: RouterOptions): Promise<{ url: string; server: Server; stop(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    let status = 500;
    try {
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
      const body = await readBody(req, opts.maxBodyBytes);
      if (!body) {
        status = 413;
        return send(res, 413, { detail: 'Request body is too large' });
      }
      const m = hit.regex.exec(url.pathname)!;
      const pathParameters = Object.fromEntries(hit.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
      const headers: Record<string, string> = {};
      const multiValueHeaders: Record<string, string[]> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (v === undefined) continue;
        const values = Array.isArray(v) ? v : [v];
        headers[k] = values[values.length - 1]!;
        multiValueHeaders[k] = values;
      }
      const query: Record<string, string> = {};
      const multiQuery: Record<string, string[]> = {};
      for (const [k, v] of url.searchParams) {
        query[k] = v;
        (multiQuery[k] ??= []).push(v);
      }
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
      console.error(JSON.stringify({ level: 'error', msg: 'router failure', path: url.pathname, error: (err as Error).stack }));
      if (!res.headersSent) send(res, 500, { detail: 'Internal server error' });
      else res.destroy();
    } finally {
      opts.onRequest?.({ method, path: url.pathname, status, ms: Date.now() - started });
    }
  });
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  const port = await listen(server, opts.port, opts.host ?? '127.0.0.1');
  return {
    url: `http://${urlHost(opts.host)}:${port}`,
    server,
    stop: () => closeServer(server),
  };
}
