// RedisJSON in front of a real redis-server, for tests: Debian ships no RedisJSON module, so this
// TCP proxy speaks RESP to the client, answers the two RedisJSON commands the destination uses the
// way the module does (JSON.SET key $ <json> → OK, JSON.GET key → the JSON text or nil; the
// document is kept by the real server as a string under the same key), records them, and passes
// every other command (AUTH, SELECT, SCAN, MULTI/EXEC, UNLINK, ...) through unchanged, so replies
// stay in order. With a TLS target (`tls`: the server's certificate) it serves TLS with the same
// certificate and reaches the server over TLS. Not imported by any handler.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { connect as connectTls, createServer as createTlsServer } from 'node:tls';

export interface JsonProxy {
  port: number;
  /** The RedisJSON commands the client sent, as [command, key, path]. */
  jsonCommands: string[][];
  stop(): Promise<void>;
}

/** Parses complete RESP arrays of bulk strings (what clients send); returns them and the bytes used. */
function parseCommands(buf: Buffer): { commands: Buffer[][]; used: number } {
  const commands: Buffer[][] = [];
  let at = 0;
  outer: while (at < buf.length) {
    if (buf[at] !== 0x2a) throw new Error('the proxy expects RESP arrays');
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) break;
    const n = Number(buf.toString('latin1', at + 1, eol));
    let p = eol + 2;
    const args: Buffer[] = [];
    for (let i = 0; i < n; i++) {
      const e = buf.indexOf('\r\n', p);
      if (e < 0) break outer;
      const len = Number(buf.toString('latin1', p + 1, e));
      if (e + 2 + len + 2 > buf.length) break outer;
      args.push(buf.subarray(e + 2, e + 2 + len));
      p = e + 2 + len + 2;
    }
    commands.push(args);
    at = p;
  }
  return { commands, used: at };
}

const encode = (args: (string | Buffer)[]) =>
  Buffer.concat([Buffer.from(`*${args.length}\r\n`), ...args.flatMap((a) => [Buffer.from(`$${Buffer.byteLength(a)}\r\n`), Buffer.from(a), Buffer.from('\r\n')])]);

export async function startJsonProxy(target: { host: string; port: number; tls?: { key: string; cert: string } }): Promise<JsonProxy> {
  const jsonCommands: string[][] = [];
  const sockets = new Set<Socket>();
  const tls = target.tls;
  const serve = (client: Socket) => {
    const upstream: Socket = tls ? connectTls({ host: target.host, port: target.port, ca: tls.cert }) : connect({ host: target.host, port: target.port });
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const { commands, used } = parseCommands(pending);
      pending = pending.subarray(used);
      for (const args of commands) {
        const name = args[0]!.toString().toUpperCase();
        if (name === 'JSON.SET' && args.length >= 4) {
          jsonCommands.push([name, args[1]!.toString(), args[2]!.toString()]);
          upstream.write(encode(['SET', args[1]!, args[3]!]));
        } else if (name === 'JSON.GET' && args.length >= 2) {
          jsonCommands.push([name, args[1]!.toString()]);
          upstream.write(encode(['GET', args[1]!]));
        } else {
          upstream.write(encode(args));
        }
      }
    });
    upstream.on('data', (d) => client.write(d));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  };
  const server: Server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, serve) : createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    jsonCommands,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
