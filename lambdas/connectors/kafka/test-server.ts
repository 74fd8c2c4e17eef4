// A stand-in Kafka broker for tests and benchmarks only (no handler imports it). It speaks the Kafka
// binary protocol over TLS (or plain TCP) as a SASL_SSL listener of Confluent Cloud does, for the
// requests a producer and an admin client make:
// - ApiVersions (v0-2), SaslHandshake (v0-1), SaslAuthenticate (v0-1) with the PLAIN mechanism: any
//   other request before authentication closes the connection, as a SASL listener does;
// - Metadata (v1-4): this one broker leads every partition; a topic it does not have answers
//   UNKNOWN_TOPIC_OR_PARTITION (topics are never auto-created, as on Confluent Cloud);
// - Produce (v3, the first with record batches v2): batches are decoded (CRC-32C verified, varint
//   records with keys, values and headers) and appended to the partition's log with offsets; a batch
//   above maxMessageBytes gets MESSAGE_TOO_LARGE, a topic the user may not write
//   TOPIC_AUTHORIZATION_FAILED, as brokers answer.
// It keeps every record (messages(topic)) and every request (requests), and can be told to answer the
// next requests of an API with an error code and a throttle time (fail()).
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

export interface StoredMessage {
  topic: string;
  partition: number;
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
  timestamp: number;
}

export interface SeenKafkaRequest {
  api: string;
  version: number;
  clientId: string | null;
  user?: string;
  /** Produce: records per partition of this request; Metadata: the topics asked (null = all). */
  detail?: unknown;
}

export interface KafkaStandIn {
  /** host:port of the listener. */
  bootstrap: string;
  host: string;
  port: number;
  requests: SeenKafkaRequest[];
  addTopic(name: string, partitions?: number): void;
  messages(topic: string): StoredMessage[];
  /** The next `times` requests of `api` are answered with `errorCode` (and `throttleMs`) instead. */
  fail(fault: { api: 'Produce' | 'Metadata'; errorCode: number; throttleMs?: number; times?: number }): void;
  stop(): Promise<void>;
}

export interface KafkaStandInOptions {
  /** TLS key and certificate (SASL_SSL); without them the listener is SASL_PLAINTEXT. */
  tls?: { key: string; cert: string };
  /** API key → secret, and the topics the key may not write. */
  users: Record<string, { secret: string; readOnly?: string[] }>;
  /** The broker's message.max.bytes (a record batch above it is refused). */
  maxMessageBytes?: number;
}

const API = { Produce: 0, Metadata: 3, SaslHandshake: 17, ApiVersions: 18, SaslAuthenticate: 36 } as const;
const API_NAMES: Record<number, string> = Object.fromEntries(Object.entries(API).map(([k, v]) => [v, k]));
const SUPPORTED: [number, number, number][] = [
  [API.Produce, 3, 3],
  [API.Metadata, 1, 4],
  [API.SaslHandshake, 0, 1],
  [API.ApiVersions, 0, 2],
  [API.SaslAuthenticate, 0, 1],
];
const ERR = { NONE: 0, UNKNOWN_TOPIC_OR_PARTITION: 3, MESSAGE_TOO_LARGE: 10, CORRUPT_MESSAGE: 2, TOPIC_AUTHORIZATION_FAILED: 29, UNSUPPORTED_VERSION: 35, UNSUPPORTED_SASL_MECHANISM: 33, SASL_AUTHENTICATION_FAILED: 58 };

// --- protocol primitives ---

class Reader {
  constructor(private b: Buffer, public pos = 0) {}
  int8 = () => this.b.readInt8((this.pos += 1) - 1);
  int16 = () => this.b.readInt16BE((this.pos += 2) - 2);
  int32 = () => this.b.readInt32BE((this.pos += 4) - 4);
  uint32 = () => this.b.readUInt32BE((this.pos += 4) - 4);
  int64 = () => Number(this.b.readBigInt64BE((this.pos += 8) - 8));
  bool = () => this.int8() !== 0;
  string(): string | null {
    const n = this.int16();
    if (n < 0) return null;
    return this.b.toString('utf8', this.pos, (this.pos += n));
  }
  bytes(): Buffer | null {
    const n = this.int32();
    if (n < 0) return null;
    return this.b.subarray(this.pos, (this.pos += n));
  }
  array<T>(item: () => T): T[] | null {
    const n = this.int32();
    if (n < 0) return null;
    return Array.from({ length: n }, item);
  }
  /** Zigzag varint (record fields). */
  varint(): number {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const byte = this.b[this.pos++]!;
      v |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
      shift += 7n;
    }
    return Number((v >> 1n) ^ -(v & 1n));
  }
  raw(n: number): Buffer {
    return this.b.subarray(this.pos, (this.pos += n));
  }
  get left() {
    return this.b.length - this.pos;
  }
}

class Writer {
  private parts: Buffer[] = [];
  private put(n: number, f: (b: Buffer) => void) {
    const b = Buffer.alloc(n);
    f(b);
    this.parts.push(b);
    return this;
  }
  int8 = (v: number) => this.put(1, (b) => b.writeInt8(v));
  int16 = (v: number) => this.put(2, (b) => b.writeInt16BE(v));
  int32 = (v: number) => this.put(4, (b) => b.writeInt32BE(v));
  int64 = (v: number) => this.put(8, (b) => b.writeBigInt64BE(BigInt(v)));
  bool = (v: boolean) => this.int8(v ? 1 : 0);
  string(s: string | null) {
    if (s === null) return this.int16(-1);
    const b = Buffer.from(s, 'utf8');
    this.int16(b.length);
    this.parts.push(b);
    return this;
  }
  bytes(b: Buffer | null) {
    if (b === null) return this.int32(-1);
    this.int32(b.length);
    this.parts.push(b);
    return this;
  }
  array<T>(items: readonly T[], each: (w: Writer, item: T) => void) {
    this.int32(items.length);
    for (const it of items) each(this, it);
    return this;
  }
  done = () => Buffer.concat(this.parts);
}

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32c(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) crc = CRC32C_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

interface DecodedRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
  timestamp: number;
}

/** Decodes a record set (one or more record batches, magic 2, uncompressed). Throws on a corrupt batch. */
function decodeRecordSet(set: Buffer): { batches: { bytes: number; records: DecodedRecord[] }[] } {
  const r = new Reader(set);
  const batches: { bytes: number; records: DecodedRecord[] }[] = [];
  while (r.left >= 12) {
    r.int64(); // base offset (the broker assigns)
    const length = r.int32();
    const start = r.pos;
    r.int32(); // partition leader epoch
    const magic = r.int8();
    if (magic !== 2) throw new Error(`record batch magic ${magic} not supported`);
    const crc = r.uint32();
    const checked = set.subarray(r.pos, start + length);
    if (crc32c(checked) !== crc) throw new Error('record batch CRC mismatch');
    const attributes = r.int16();
    if (attributes & 0x7) throw new Error('compressed record batches are not supported by the stand-in');
    r.int32(); // last offset delta
    const firstTimestamp = r.int64();
    r.int64(); // max timestamp
    r.int64(); // producer id
    r.int16(); // producer epoch
    r.int32(); // base sequence
    const count = r.int32();
    const records: DecodedRecord[] = [];
    for (let i = 0; i < count; i++) {
      r.varint(); // record length
      r.int8(); // attributes
      const tsDelta = r.varint();
      r.varint(); // offset delta
      const kl = r.varint();
      const key = kl < 0 ? null : Buffer.from(r.raw(kl));
      const vl = r.varint();
      const value = vl < 0 ? null : Buffer.from(r.raw(vl));
      const headers: Record<string, string> = {};
      const hn = r.varint();
      for (let h = 0; h < hn; h++) {
        const name = r.raw(r.varint()).toString('utf8');
        const hl = r.varint();
        headers[name] = hl < 0 ? '' : r.raw(hl).toString('utf8');
      }
      records.push({ key, value, headers, timestamp: firstTimestamp + tsDelta });
    }
    r.pos = start + length;
    batches.push({ bytes: length + 12, records });
  }
  return { batches };
}

// --- the broker ---

export async function startKafkaStandIn(opts: KafkaStandInOptions): Promise<KafkaStandIn> {
  const maxMessageBytes = opts.maxMessageBytes ?? 1_048_588;
  const topics = new Map<string, StoredMessage[][]>();
  const requests: SeenKafkaRequest[] = [];
  const faults: { api: string; errorCode: number; throttleMs: number; left: number }[] = [];
  const sockets = new Set<Socket>();
  let port = 0;
  const host = '127.0.0.1';

  const takeFault = (api: string) => {
    const f = faults.find((x) => x.api === api && x.left > 0);
    if (f) f.left--;
    return f;
  };

  const onConnection = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    let mechanism: string | undefined;
    let user: string | undefined;
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const size = pending.readInt32BE(0);
        if (pending.length < 4 + size) break;
        const frame = pending.subarray(4, 4 + size);
        pending = pending.subarray(4 + size);
        const r = new Reader(frame);
        const apiKey = r.int16();
        const version = r.int16();
        const correlationId = r.int32();
        const clientId = r.string();
        const seen: SeenKafkaRequest = { api: API_NAMES[apiKey] ?? `api-${apiKey}`, version, clientId, user };
        requests.push(seen);
        const reply = (body: Buffer) => {
          const head = Buffer.alloc(8);
          head.writeInt32BE(body.length + 4, 0);
          head.writeInt32BE(correlationId, 4);
          socket.write(Buffer.concat([head, body]));
        };
        const supported = SUPPORTED.find(([k]) => k === apiKey);
        if (apiKey === API.ApiVersions) {
          // An unsupported version is answered in v0 form with the error and the supported ranges.
          const ok = version <= 2;
          const w = new Writer().int16(ok ? ERR.NONE : ERR.UNSUPPORTED_VERSION).array(SUPPORTED, (x, [k, min, max]) => x.int16(k).int16(min).int16(max));
          if (ok && version >= 1) w.int32(0);
          reply(w.done());
          continue;
        }
        if (!supported || version < supported[1] || version > supported[2]) {
          socket.destroy(); // a broker closes the connection on a request it cannot parse
          return;
        }
        if (apiKey === API.SaslHandshake) {
          mechanism = r.string() ?? '';
          reply(new Writer().int16(mechanism === 'PLAIN' ? ERR.NONE : ERR.UNSUPPORTED_SASL_MECHANISM).array(['PLAIN'], (x, m) => x.string(m)).done());
          continue;
        }
        if (apiKey === API.SaslAuthenticate) {
          const auth = (r.bytes() ?? Buffer.alloc(0)).toString('utf8').split('\0');
          const [, name = '', secret = ''] = auth;
          const known = mechanism === 'PLAIN' && opts.users[name]?.secret === secret;
          if (known) user = name;
          const w = new Writer().int16(known ? ERR.NONE : ERR.SASL_AUTHENTICATION_FAILED).string(known ? null : 'Authentication failed: Invalid username or password').bytes(Buffer.alloc(0));
          if (version >= 1) w.int64(0);
          reply(w.done());
          if (!known) socket.end();
          continue;
        }
        if (!user) {
          socket.destroy(); // before authentication a SASL listener accepts only the handshake
          return;
        }
        seen.user = user;
        if (apiKey === API.Metadata) {
          const asked = r.array(() => r.string() ?? '');
          if (version >= 4) r.bool(); // allow_auto_topic_creation: never here
          seen.detail = asked;
          const fault = takeFault('Metadata');
          const names = asked ?? [...topics.keys()];
          reply(metadataBody(version, names, fault));
          continue;
        }
        if (apiKey === API.Produce) {
          r.string(); // transactional id
          const acks = r.int16();
          r.int32(); // timeout
          const data = r.array(() => ({ topic: r.string() ?? '', parts: r.array(() => ({ partition: r.int32(), set: r.bytes() ?? Buffer.alloc(0) })) ?? [] })) ?? [];
          const fault = takeFault('Produce');
          const detail: { topic: string; partition: number; records: number }[] = [];
          const results = data.map(({ topic, parts }) => ({
            topic,
            parts: parts.map(({ partition, set }) => {
              const log = topics.get(topic)?.[partition];
              let decoded: ReturnType<typeof decodeRecordSet>;
              try {
                decoded = decodeRecordSet(set);
              } catch {
                return { partition, error: ERR.CORRUPT_MESSAGE, base: -1 };
              }
              detail.push({ topic, partition, records: decoded.batches.reduce((n, b) => n + b.records.length, 0) });
              if (fault) return { partition, error: fault.errorCode, base: -1 };
              if (!log) return { partition, error: ERR.UNKNOWN_TOPIC_OR_PARTITION, base: -1 };
              if (opts.users[user!]?.readOnly?.includes(topic)) return { partition, error: ERR.TOPIC_AUTHORIZATION_FAILED, base: -1 };
              if (decoded.batches.some((b) => b.bytes > maxMessageBytes)) return { partition, error: ERR.MESSAGE_TOO_LARGE, base: -1 };
              const base = log.length;
              for (const b of decoded.batches) for (const rec of b.records) log.push({ topic, partition, offset: log.length, ...rec });
              return { partition, error: ERR.NONE, base };
            }),
          }));
          seen.detail = detail;
          if (acks === 0) continue;
          const w = new Writer().array(results, (x, t) => {
            x.string(t.topic).array(t.parts, (y, p) => y.int32(p.partition).int16(p.error).int64(p.base).int64(-1));
          });
          w.int32(fault?.throttleMs ?? 0);
          reply(w.done());
          continue;
        }
      }
    });
  };

  function metadataBody(version: number, names: string[], fault?: { errorCode: number; throttleMs: number }): Buffer {
    const w = new Writer();
    if (version >= 3) w.int32(fault?.throttleMs ?? 0);
    w.array([1], (x) => void x.int32(1).string(host).int32(port).string(null));
    if (version >= 2) w.string('stand-in-cluster');
    w.int32(1);
    w.array(names, (x, name) => {
      // A fault answers every topic with its error code and no partitions.
      const parts = fault ? undefined : topics.get(name);
      x.int16(fault?.errorCode ?? (parts ? ERR.NONE : ERR.UNKNOWN_TOPIC_OR_PARTITION)).string(name).bool(false);
      x.array(
        (parts ?? []).map((_, i) => i),
        (y, i) => void y.int16(ERR.NONE).int32(i).int32(1).array([1], (z, n) => void z.int32(n)).array([1], (z, n) => void z.int32(n)),
      );
    });
    return w.done();
  }

  const server: Server = opts.tls ? createTlsServer({ key: opts.tls.key, cert: opts.tls.cert }, onConnection) : createTcpServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  port = (server.address() as { port: number }).port;

  return {
    bootstrap: `${host}:${port}`,
    host,
    port,
    requests,
    addTopic(name, partitions = 3) {
      if (!topics.has(name)) topics.set(name, Array.from({ length: partitions }, () => []));
    },
    messages(topic) {
      return (topics.get(topic) ?? []).flat();
    },
    fail(fault) {
      faults.push({ api: fault.api, errorCode: fault.errorCode, throttleMs: fault.throttleMs ?? 0, left: fault.times ?? 1 });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
