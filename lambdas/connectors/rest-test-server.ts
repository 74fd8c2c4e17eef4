// The plumbing of the local HTTP stand-ins of REST services (tests and benchmarks only): a server on
// 127.0.0.1, a log of every call, and injected faults (a status with headers and body, e.g. a 429
// with Retry-After, for the next N matching calls). Each family's test-server.ts supplies the
// routes that speak its service's documented API. With `tls` it serves HTTPS (services whose every
// call carries a credential), trusted through CONNECTOR_CA_FILE (records/stand-in.ts standInTls()).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';

export interface StandInCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  status: number;
}

/** A reply given instead of the routes' to the calls that `match` (default: any), `times` times (default 1). */
export interface StandInFault<C = { method: string; path: string; query: URLSearchParams }> {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  match?: (call: C) => boolean;
  times?: number;
}

/** The faults a stand-in was told to inject: `take` hands over the next one a call meets (and counts it). */
export function faultBook<C>(): { fail(fault: StandInFault<C>): void; take(call: C): StandInFault<C> | undefined } {
  const faults: (StandInFault<C> & { left: number })[] = [];
  return {
    fail: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    take(call) {
      const fault = faults.find((f) => f.left > 0 && (!f.match || f.match(call)));
      if (fault) fault.left--;
      return fault;
    },
  };
}

/** Writes a reply as the JSON APIs' stand-ins do: a Buffer as octet-stream, anything else as JSON (`jsonType`); the reply's headers win. */
export function writeJsonReply(res: ServerResponse, reply: StandInReply, jsonType = 'application/json'): void {
  const raw = reply.body === undefined ? '' : Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body);
  res.writeHead(reply.status, { 'content-type': Buffer.isBuffer(reply.body) ? 'application/octet-stream' : jsonType, ...(reply.headers ?? {}) });
  res.end(raw);
}

/** Listens on 127.0.0.1 at a port the system picks; returns the port. */
export async function listenLocal(server: Server | HttpsServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** Closes the server with every connection it still holds. */
export async function closeServer(server: Server | HttpsServer): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
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
  const faults = faultBook<StandInRequest>();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const u = new URL(req.url ?? '/', 'http://stand-in');
        const r: StandInRequest = { method: req.method ?? 'GET', path: decodeURIComponent(u.pathname), query: u.searchParams, headers: req.headers, body: Buffer.concat(chunks) };
        const fault = faults.take(r);
        let reply: StandInReply;
        if (fault) {
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
  const port = await listenLocal(server);
  return {
    url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    calls,
    fail: faults.fail,
    stop: () => closeServer(server),
  };
}

/** The bearer token of a request, or undefined. */
export function bearer(req: StandInRequest): string | undefined {
  const m = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
  return m?.[1];
}
