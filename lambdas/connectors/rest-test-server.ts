// The plumbing of the local HTTP stand-ins of REST services (tests and benchmarks only): a server on
// 127.0.0.1, a log of every call, and injected faults (a status with headers and body, e.g. a 429
// with Retry-After, for the next N matching calls). Each family's test-server.ts supplies the
// routes that speak its service's documented API. With `tls` it serves HTTPS (services whose every
// call carries a credential), trusted through CONNECTOR_CA_FILE (records/stand-in.ts standInTls()).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

export interface StandInCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  status: number;
}

export interface StandInFault {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  match?: (call: { method: string; path: string; query: URLSearchParams }) => boolean;
  times?: number;
}

export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface StandInReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RestStandIn {
  url: string;
  port: number;
  calls: StandInCall[];
  fail(fault: StandInFault): void;
  stop(): Promise<void>;
}

/** Replies: a Buffer/Uint8Array is sent as is (octet-stream), a string as text, anything else as JSON. */
function send(res: ServerResponse, reply: StandInReply): void {
  const headers = { ...reply.headers };
  let payload: Buffer;
  if (reply.body === undefined) payload = Buffer.alloc(0);
  else if (reply.body instanceof Uint8Array) {
    payload = Buffer.from(reply.body);
    headers['content-type'] ??= 'application/octet-stream';
  } else if (typeof reply.body === 'string') {
    payload = Buffer.from(reply.body);
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else {
    payload = Buffer.from(JSON.stringify(reply.body));
    headers['content-type'] ??= 'application/json';
  }
  res.writeHead(reply.status, { ...headers, 'content-length': String(payload.length) });
  res.end(payload);
}

export async function startRestStandIn(route: (req: StandInRequest) => StandInReply | Promise<StandInReply>, opts: { tls?: { key: string; cert: string } } = {}): Promise<RestStandIn> {
  const calls: StandInCall[] = [];
  const faults: (StandInFault & { left: number })[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const u = new URL(req.url ?? '/', 'http://stand-in');
        const r: StandInRequest = { method: req.method ?? 'GET', path: decodeURIComponent(u.pathname), query: u.searchParams, headers: req.headers, body: Buffer.concat(chunks) };
        const fault = faults.find((f) => f.left > 0 && (!f.match || f.match(r)));
        let reply: StandInReply;
        if (fault) {
          fault.left--;
          reply = { status: fault.status, body: fault.body, headers: fault.headers };
        } else {
          try {
            reply = await route(r);
          } catch (err) {
            reply = { status: 500, body: { message: String(err) } };
          }
        }
        calls.push({ method: r.method, path: r.path, query: r.query, headers: r.headers, status: reply.status });
        send(res, reply);
      })();
    });
  };
  const server: Server = opts.tls ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    calls,
    fail: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The bearer token of a request, or undefined. */
export function bearer(req: StandInRequest): string | undefined {
  const m = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
  return m?.[1];
}
