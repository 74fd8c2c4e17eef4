// The common part of the local stand-in servers that tests and benchmarks run in place of hosted
// stores (Pinecone, Qdrant, Astra DB...): an HTTP server on 127.0.0.1 that logs every request and can
// be told to answer the next matching requests with a fault (429 + Retry-After, 5xx) before the real
// handler runs. With `tls` it serves HTTPS (stores whose every call carries a secret: clients refuse
// http:// for them), trusted by the connectors through CONNECTOR_CA_FILE = standInTls().certFile.
// Not imported by any handler.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { selfSignedCert } from '../azure-ai-search/test-server';
import { closeServer, faultBook, listenLocal, type StandInFault } from '../rest-test-server';

let tls: ReturnType<typeof selfSignedCert> | undefined;
/** One self-signed certificate (127.0.0.1, localhost) per process for the TLS stand-ins. */
export function standInTls(): { key: string; cert: string; certFile: string } {
  return (tls ??= selfSignedCert());
}

export interface SeenRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: unknown;
  bytes: number;
  /** The body as received (binary protocols such as Thrift read this). */
  raw: Buffer;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A reply given instead of the handler's to the requests it matches (default: any), `times` times (default 1). */
export type Fault = StandInFault<SeenRequest>;

export interface StandInServer {
  url: string;
  port: number;
  requests: SeenRequest[];
  /** Answers the next matching request(s) with this reply instead of handling them. */
  fail(fault: Fault): void;
  stop(): Promise<void>;
}

export async function startStandIn(handle: (req: SeenRequest) => Reply | Promise<Reply>, opts: { tls?: { key: string; cert: string } } = {}): Promise<StandInServer> {
  const requests: SeenRequest[] = [];
  const faults = faultBook<SeenRequest>();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://stand-in');
      let body: unknown;
      try {
        body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
      } catch {
        body = undefined;
      }
      const seen: SeenRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, bytes: raw.length, raw };
      requests.push(seen);
      let reply: Reply;
      const fault = faults.take(seen);
      if (fault) {
        reply = fault;
      } else {
        try {
          reply = await handle(seen);
        } catch (err) {
          reply = { status: 500, body: { error: `stand-in failure: ${(err as Error).message}` } };
        }
      }
      const binary = Buffer.isBuffer(reply.body);
      const text = reply.body === undefined ? '' : binary || typeof reply.body === 'string' ? (reply.body as string | Buffer) : JSON.stringify(reply.body);
      const type = binary ? 'application/x-thrift' : typeof reply.body === 'string' ? 'text/plain' : 'application/json';
      res.writeHead(reply.status, { 'content-type': type, ...(reply.headers ?? {}) });
      res.end(text);
    });
  };
  const server: Server = opts.tls ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, listener) : createServer(listener);
  const port = await listenLocal(server);
  return {
    url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    fail: faults.fail,
    stop: () => closeServer(server),
  };
}
