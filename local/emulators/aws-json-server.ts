// A minimal AWS JSON-protocol endpoint (POST /, X-Amz-Target: <Service>.<Operation>), enough for the
// SDK v3 clients of the stand-ins below. Errors use the protocol's `__type` body. With `signed`, a
// request not SigV4-signed with that credential for that service gets a 403 (sigv4-guard.ts).
import * as nodeCrypto from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { closeServer, listen } from './http-server';
import { guardHttpServer, sigV4, type EmulatorCredentials } from './sigv4-guard';

export class AwsJsonError extends Error {
  constructor(readonly code: string, message: string, readonly status = 400) {
    super(message);
  }
}

export type Operations = Record<string, (input: any) => Promise<unknown> | unknown>;

export async function startAwsJsonServer(
  contentType: string,
  operations: Operations,
  port = 0,
  signed?: { credentials: EmulatorCredentials; service: string },
): Promise<{ endpoint: string; server: Server; stop(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const target = String(req.headers['x-amz-target'] ?? '');
    const op = target.split('.').pop() ?? '';
    const reply = (status: number, body: unknown) => {
      const data = JSON.stringify(body);
      res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(data) });
      res.end(data);
    };
    const handler = operations[op];
    if (!handler) return reply(400, { __type: 'UnknownOperationException', message: `operation ${op} is not emulated` });
    try {
      const input = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      reply(200, (await handler(input)) ?? {});
    } catch (err) {
      if (err instanceof AwsJsonError) return reply(err.status, { __type: err.code, message: err.message });
      reply(500, { __type: 'InternalFailure', message: (err as Error).message });
    }
  });
  if (signed) guardHttpServer(server, sigV4(signed.credentials, nodeCrypto).verify, signed.service);
  const bound = await listen(server, port);
  return {
    endpoint: `http://127.0.0.1:${bound}`,
    server,
    stop: () => closeServer(server),
  };
}
