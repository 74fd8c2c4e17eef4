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
// - the consumer requests (FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup, DescribeGroups,
//   OffsetFetch, OffsetCommit, ListOffsets, Fetch): see test-consumer.ts.
// It keeps every record (messages(topic)) and every request (requests), and can be told to answer the
// next requests of an API with an error code and a throttle time (fail()).
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { CONSUMER_VERSIONS, GroupState, type LogRecord } from './test-consumer';
import { decodeRecordSet, Reader, Writer } from './test-wire';

export { crc32c } from './test-wire';

/** A record of a topic's partition (a transaction marker: see markTransaction). */
export interface StoredMessage extends LogRecord {
  topic: string;
  partition: number;
}

export interface SeenKafkaRequest {
  api: string;
  version: number;
  clientId: string | null;
  user?: string;
  /** When it arrived (Date.now()). */
  at: number;
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
  fail(fault: { api: KafkaApiName; errorCode: number; throttleMs?: number; times?: number }): void;
  /** A Fetch starting exactly at this offset is answered with `errorCode` (default -1, UNKNOWN_SERVER_ERROR, not retriable) until `readable`. */
  unreadable(topic: string, partition: number, offset: number, errorCode?: number): void;
  readable(topic: string, partition: number, offset: number): void;
  /** Appends a transaction COMMIT marker (a control record taking the next offset), as a transactional producer leaves. */
  markTransaction(topic: string, partition: number): void;
  /** The offset a consumer group committed on a partition (undefined when none). */
  committed(group: string, topic: string, partition: number): number | undefined;
  stop(): Promise<void>;
}

export interface KafkaStandInOptions {
  /** TLS key and certificate (SASL_SSL); without them the listener is SASL_PLAINTEXT. */
  tls?: { key: string; cert: string };
  /** API key → secret, and the topics the key may not write. */
  users: Record<string, { secret: string; readOnly?: string[]; denied?: string[]; deniedGroups?: string[] }>;
  /** Records a Fetch returns per partition at most (small: a listing takes several rounds). */
  fetchMaxRecords?: number;
  /** Longest a Fetch with nothing to return is held (a broker holds it for max_wait_time). */
  maxFetchWaitMs?: number;
  /** The broker's message.max.bytes (a record batch above it is refused). */
  maxMessageBytes?: number;
}

const API = { Produce: 0, Fetch: 1, ListOffsets: 2, Metadata: 3, OffsetCommit: 8, OffsetFetch: 9, FindCoordinator: 10, JoinGroup: 11, Heartbeat: 12, LeaveGroup: 13, SyncGroup: 14, DescribeGroups: 15, SaslHandshake: 17, ApiVersions: 18, SaslAuthenticate: 36 } as const;
export type KafkaApiName = keyof typeof API;
const API_NAMES: Record<number, string> = Object.fromEntries(Object.entries(API).map(([k, v]) => [v, k]));
const SUPPORTED: [number, number, number][] = [
  [API.Produce, 3, 3],
  [API.Metadata, 1, 4],
  [API.SaslHandshake, 0, 1],
  [API.ApiVersions, 0, 2],
  [API.SaslAuthenticate, 0, 1],
  ...CONSUMER_VERSIONS,
];
const ERR = { NONE: 0, UNKNOWN_TOPIC_OR_PARTITION: 3, MESSAGE_TOO_LARGE: 10, CORRUPT_MESSAGE: 2, TOPIC_AUTHORIZATION_FAILED: 29, UNSUPPORTED_VERSION: 35, UNSUPPORTED_SASL_MECHANISM: 33, SASL_AUTHENTICATION_FAILED: 58 };

// --- the broker ---

export async function startKafkaStandIn(opts: KafkaStandInOptions): Promise<KafkaStandIn> {
  const maxMessageBytes = opts.maxMessageBytes ?? 1_048_588;
  const topics = new Map<string, StoredMessage[][]>();
  const requests: SeenKafkaRequest[] = [];
  const faults: { api: string; errorCode: number; throttleMs: number; left: number }[] = [];
  const groups = new GroupState({ fetchMaxRecords: opts.fetchMaxRecords ?? 500, maxFetchWaitMs: opts.maxFetchWaitMs ?? 200 });
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
        const seen: SeenKafkaRequest = { api: API_NAMES[apiKey] ?? `api-${apiKey}`, version, clientId, user, at: Date.now() };
        requests.push(seen);
        const reply = (body: Buffer, delayMs = 0) => {
          const head = Buffer.alloc(8);
          head.writeInt32BE(body.length + 4, 0);
          head.writeInt32BE(correlationId, 4);
          const send = () => void (socket.writable && socket.write(Buffer.concat([head, body])));
          if (delayMs > 0) setTimeout(send, delayMs);
          else send();
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
          const names = asked ?? [...topics.keys()].filter((t) => !opts.users[user!]?.denied?.includes(t));
          reply(metadataBody(version, names, fault, opts.users[user]?.denied ?? []));
          continue;
        }
        if (CONSUMER_VERSIONS.some(([k]) => k === apiKey)) {
          const who = user;
          const out = groups.handle(apiKey, r, {
            user: who,
            clientId,
            log: (t) => topics.get(t),
            mayRead: (t) => !opts.users[who]?.denied?.includes(t),
            mayUseGroup: (g) => !opts.users[who]?.deniedGroups?.includes(g),
            fault: takeFault(seen.api),
            node: { id: 1, host, port },
            detail: (d) => (seen.detail = d),
          });
          reply(out.body, out.delayMs);
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

  function metadataBody(version: number, names: string[], fault: { errorCode: number; throttleMs: number } | undefined, denied: string[]): Buffer {
    const w = new Writer();
    if (version >= 3) w.int32(fault?.throttleMs ?? 0);
    w.array([1], (x) => void x.int32(1).string(host).int32(port).string(null));
    if (version >= 2) w.string('stand-in-cluster');
    w.int32(1);
    w.array(names, (x, name) => {
      // A fault answers every topic with its error code and no partitions.
      // A topic the user may not describe answers TOPIC_AUTHORIZATION_FAILED, as with ACLs.
      const hidden = denied.includes(name);
      const parts = fault || hidden ? undefined : topics.get(name);
      x.int16(fault?.errorCode ?? (hidden ? ERR.TOPIC_AUTHORIZATION_FAILED : parts ? ERR.NONE : ERR.UNKNOWN_TOPIC_OR_PARTITION)).string(name).bool(false);
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
      return (topics.get(topic) ?? []).flat().filter((m) => !m.control);
    },
    fail(fault) {
      faults.push({ api: fault.api, errorCode: fault.errorCode, throttleMs: fault.throttleMs ?? 0, left: fault.times ?? 1 });
    },
    unreadable(topic, partition, offset, errorCode = -1) {
      groups.unreadable.set(`${topic}:${partition}:${offset}`, errorCode);
    },
    readable(topic, partition, offset) {
      groups.unreadable.delete(`${topic}:${partition}:${offset}`);
    },
    markTransaction(topic, partition) {
      const log = topics.get(topic)?.[partition];
      if (!log) throw new Error(`no partition ${partition} of ${topic}`);
      // Control record: key (version 0, type 1 = COMMIT), value (version 0, coordinator epoch 0).
      log.push({ topic, partition, offset: log.length, key: Buffer.from([0, 0, 0, 1]), value: Buffer.from([0, 0, 0, 0, 0, 0]), headers: {}, timestamp: Date.now(), control: true });
    },
    committed: (group, topic, partition) => groups.committed(group, topic, partition),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
