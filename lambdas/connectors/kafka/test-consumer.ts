// The consumer side of the stand-in Kafka broker (test-server.ts), for tests and benchmarks only: the
// requests kafkajs' consumer and admin send to read a topic through a consumer group, at the versions
// kafkajs 2.2.4 picks when the broker advertises these ranges:
// - FindCoordinator v1 (this broker coordinates every group), JoinGroup v2, SyncGroup v1, Heartbeat v1,
//   LeaveGroup v1, DescribeGroups v1: a group has at most one member at a time (a new member replaces
//   the one before, whose next heartbeat gets UNKNOWN_MEMBER_ID), which is all the tests need; the
//   member is its own leader and its assignment is handed back by SyncGroup as it sent it;
// - OffsetFetch v3 / OffsetCommit v3: committed offsets per group and partition (-1 when none); a
//   commit from a member checks its generation, an admin commit (generation -1) needs an empty group;
// - ListOffsets v2: earliest (-2) and latest (-1) offsets of a partition;
// - Fetch v8: records from the asked offset as one record batch v2 (CRC-32C), at most `fetchMaxRecords`
//   records per partition per request (so a listing takes several rounds); a fetch with nothing to
//   return waits up to its max_wait_time (capped) as a broker does; a throttled fetch (fault) is
//   answered at once with no records and throttle_time_ms, the client then waiting (KIP-219).
// Authorization: a topic in the user's `denied` list answers TOPIC_AUTHORIZATION_FAILED, a group in
// `deniedGroups` GROUP_AUTHORIZATION_FAILED, as brokers with ACLs do.
import { randomUUID } from 'node:crypto';
import { encodeRecordBatch, type Reader, Writer } from './test-wire';

export const CONSUMER_API = { Fetch: 1, ListOffsets: 2, OffsetCommit: 8, OffsetFetch: 9, FindCoordinator: 10, JoinGroup: 11, Heartbeat: 12, LeaveGroup: 13, SyncGroup: 14, DescribeGroups: 15 } as const;

export const CONSUMER_VERSIONS: [number, number, number][] = [
  [CONSUMER_API.Fetch, 8, 8],
  [CONSUMER_API.ListOffsets, 2, 2],
  [CONSUMER_API.OffsetCommit, 3, 3],
  [CONSUMER_API.OffsetFetch, 3, 3],
  [CONSUMER_API.FindCoordinator, 1, 1],
  [CONSUMER_API.JoinGroup, 2, 2],
  [CONSUMER_API.Heartbeat, 1, 1],
  [CONSUMER_API.LeaveGroup, 1, 1],
  [CONSUMER_API.SyncGroup, 1, 1],
  [CONSUMER_API.DescribeGroups, 1, 1],
];

const E = { NONE: 0, OFFSET_OUT_OF_RANGE: 1, UNKNOWN_TOPIC_OR_PARTITION: 3, ILLEGAL_GENERATION: 22, UNKNOWN_MEMBER_ID: 25, TOPIC_AUTHORIZATION_FAILED: 29, GROUP_AUTHORIZATION_FAILED: 30, NON_EMPTY_GROUP: 68 };

export interface LogRecord {
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
  timestamp: number;
  /** A transaction marker (control record): consumers never see it, but it takes an offset. */
  control?: boolean;
}

interface Member {
  clientId: string;
  metadata: Buffer;
  assignment: Buffer;
}

interface Group {
  generation: number;
  protocolType: string;
  protocol: string;
  members: Map<string, Member>;
  offsets: Map<string, number>;
}

export interface ConsumerRequestContext {
  user: string;
  clientId: string | null;
  /** Partitions of a topic (each its log), undefined when the topic does not exist. */
  log(topic: string): LogRecord[][] | undefined;
  mayRead(topic: string): boolean;
  mayUseGroup(group: string): boolean;
  fault?: { errorCode: number; throttleMs: number };
  node: { id: number; host: string; port: number };
  /** Recorded on the request the stand-in keeps. */
  detail(d: unknown): void;
}

export interface ConsumerReply {
  body: Buffer;
  delayMs?: number;
}

/** The consumer groups of one stand-in broker and the answers to the consumer requests. */
export class GroupState {
  readonly groups = new Map<string, Group>();
  /** `topic:partition:offset` → error code: a Fetch starting exactly there gets it (a broker-side read failure). */
  readonly unreadable = new Map<string, number>();

  constructor(private readonly opts: { fetchMaxRecords: number; maxFetchWaitMs: number }) {}

  private group(id: string): Group {
    let g = this.groups.get(id);
    if (!g) this.groups.set(id, (g = { generation: 0, protocolType: '', protocol: '', members: new Map(), offsets: new Map() }));
    return g;
  }

  /** The committed offset of a group on a partition (undefined when none). */
  committed(group: string, topic: string, partition: number): number | undefined {
    return this.groups.get(group)?.offsets.get(`${topic}:${partition}`);
  }

  handle(api: number, r: Reader, c: ConsumerRequestContext): ConsumerReply {
    const throttle = c.fault?.throttleMs ?? 0;
    const fault = c.fault?.errorCode ?? E.NONE;
    // Before KIP-219 versions a broker delays a throttled answer itself (Fetch v8 lets the client wait).
    const delayMs = api === CONSUMER_API.Fetch ? 0 : throttle;
    const w = new Writer().int32(throttle);
    switch (api) {
      case CONSUMER_API.FindCoordinator: {
        const key = r.string() ?? '';
        r.int8(); // key type: 0 group
        c.detail({ group: key });
        const error = fault || (c.mayUseGroup(key) ? E.NONE : E.GROUP_AUTHORIZATION_FAILED);
        w.int16(error).string(null).int32(error ? -1 : c.node.id).string(error ? '' : c.node.host).int32(error ? -1 : c.node.port);
        return { body: w.done(), delayMs };
      }
      case CONSUMER_API.JoinGroup: {
        const groupId = r.string() ?? '';
        r.int32(); // session timeout
        r.int32(); // rebalance timeout
        const asked = r.string() ?? '';
        const protocolType = r.string() ?? '';
        const protocols = r.array(() => ({ name: r.string() ?? '', metadata: Buffer.from(r.bytes() ?? Buffer.alloc(0)) })) ?? [];
        const memberId = asked || `${c.clientId ?? 'client'}-${randomUUID()}`;
        c.detail({ group: groupId, memberId });
        const error = fault || (c.mayUseGroup(groupId) ? E.NONE : E.GROUP_AUTHORIZATION_FAILED);
        if (error) return { body: w.int16(error).int32(-1).string('').string('').string(memberId).array([], () => undefined).done(), delayMs };
        const g = this.group(groupId);
        g.generation++;
        g.protocolType = protocolType;
        g.protocol = protocols[0]?.name ?? '';
        g.members = new Map([[memberId, { clientId: c.clientId ?? '', metadata: protocols[0]?.metadata ?? Buffer.alloc(0), assignment: Buffer.alloc(0) }]]);
        w.int16(E.NONE).int32(g.generation).string(g.protocol).string(memberId).string(memberId);
        w.array([...g.members], (x, [id, m]) => void x.string(id).bytes(m.metadata));
        return { body: w.done(), delayMs };
      }
      case CONSUMER_API.SyncGroup: {
        const groupId = r.string() ?? '';
        const generation = r.int32();
        const memberId = r.string() ?? '';
        const assignments = r.array(() => ({ member: r.string() ?? '', data: Buffer.from(r.bytes() ?? Buffer.alloc(0)) })) ?? [];
        const g = this.groups.get(groupId);
        const member = g?.members.get(memberId);
        const error = fault || (!member ? E.UNKNOWN_MEMBER_ID : g!.generation !== generation ? E.ILLEGAL_GENERATION : E.NONE);
        if (!error) for (const a of assignments) if (g!.members.has(a.member)) g!.members.get(a.member)!.assignment = a.data;
        return { body: w.int16(error).bytes(error ? Buffer.alloc(0) : member!.assignment).done(), delayMs };
      }
      case CONSUMER_API.Heartbeat: {
        const g = this.groups.get(r.string() ?? '');
        const generation = r.int32();
        const member = g?.members.get(r.string() ?? '');
        return { body: w.int16(fault || (!member ? E.UNKNOWN_MEMBER_ID : g!.generation !== generation ? E.ILLEGAL_GENERATION : E.NONE)).done(), delayMs };
      }
      case CONSUMER_API.LeaveGroup: {
        const groupId = r.string() ?? '';
        const memberId = r.string() ?? '';
        c.detail({ group: groupId, memberId });
        const left = this.groups.get(groupId)?.members.delete(memberId);
        return { body: w.int16(fault || (left ? E.NONE : E.UNKNOWN_MEMBER_ID)).done(), delayMs };
      }
      case CONSUMER_API.DescribeGroups: {
        const ids = r.array(() => r.string() ?? '') ?? [];
        w.array(ids, (x, id) => {
          const g = this.groups.get(id);
          const error = fault || (c.mayUseGroup(id) ? E.NONE : E.GROUP_AUTHORIZATION_FAILED);
          const state = !g ? 'Dead' : g.members.size ? 'Stable' : 'Empty';
          x.int16(error).string(id).string(error ? '' : state).string(g?.protocolType ?? '').string(g?.protocol ?? '');
          x.array(error || !g ? [] : [...g.members], (y, [mid, m]) => void y.string(mid).string(m.clientId).string('/127.0.0.1').bytes(m.metadata).bytes(m.assignment));
        });
        return { body: w.done(), delayMs };
      }
      case CONSUMER_API.OffsetFetch: {
        const groupId = r.string() ?? '';
        const asked = r.array(() => ({ topic: r.string() ?? '', partitions: r.array(() => r.int32()) ?? [] }));
        const groupError = fault || (c.mayUseGroup(groupId) ? E.NONE : E.GROUP_AUTHORIZATION_FAILED);
        const g = this.groups.get(groupId);
        const topics = asked ?? [...new Set([...(g?.offsets.keys() ?? [])].map((k) => k.slice(0, k.lastIndexOf(':'))))].map((topic) => ({ topic, partitions: (c.log(topic) ?? []).map((_, i) => i) }));
        c.detail({ group: groupId, topics: asked });
        w.array(groupError ? [] : topics, (x, t) => {
          x.string(t.topic).array(t.partitions, (y, p) => {
            const error = !c.mayRead(t.topic) ? E.TOPIC_AUTHORIZATION_FAILED : E.NONE;
            y.int32(p).int64(error ? -1 : g?.offsets.get(`${t.topic}:${p}`) ?? -1).string('').int16(error);
          });
        });
        return { body: w.int16(groupError).done(), delayMs };
      }
      case CONSUMER_API.OffsetCommit: {
        const groupId = r.string() ?? '';
        const generation = r.int32();
        const memberId = r.string() ?? '';
        r.int64(); // retention time
        const topics = r.array(() => ({ topic: r.string() ?? '', partitions: r.array(() => ({ partition: r.int32(), offset: r.int64(), metadata: r.string() })) ?? [] })) ?? [];
        c.detail({ group: groupId, generation, commits: topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.topic, partition: p.partition, offset: p.offset }))) });
        const g = this.group(groupId);
        const admin = generation === -1 && memberId === '';
        const groupError =
          fault ||
          (!c.mayUseGroup(groupId)
            ? E.GROUP_AUTHORIZATION_FAILED
            : admin
              ? g.members.size
                ? E.NON_EMPTY_GROUP
                : E.NONE
              : !g.members.has(memberId)
                ? E.UNKNOWN_MEMBER_ID
                : g.generation !== generation
                  ? E.ILLEGAL_GENERATION
                  : E.NONE);
        w.array(topics, (x, t) => {
          x.string(t.topic).array(t.partitions, (y, p) => {
            const error = groupError || (!c.mayRead(t.topic) ? E.TOPIC_AUTHORIZATION_FAILED : !c.log(t.topic)?.[p.partition] ? E.UNKNOWN_TOPIC_OR_PARTITION : E.NONE);
            if (!error) g.offsets.set(`${t.topic}:${p.partition}`, p.offset);
            y.int32(p.partition).int16(error);
          });
        });
        return { body: w.done(), delayMs };
      }
      case CONSUMER_API.ListOffsets: {
        r.int32(); // replica id
        r.int8(); // isolation level
        const topics = r.array(() => ({ topic: r.string() ?? '', partitions: r.array(() => ({ partition: r.int32(), timestamp: r.int64() })) ?? [] })) ?? [];
        c.detail(topics);
        w.array(topics, (x, t) => {
          x.string(t.topic).array(t.partitions, (y, p) => {
            const log = c.log(t.topic)?.[p.partition];
            const error = fault || (!c.mayRead(t.topic) ? E.TOPIC_AUTHORIZATION_FAILED : !log ? E.UNKNOWN_TOPIC_OR_PARTITION : E.NONE);
            const offset = error || !log ? -1 : p.timestamp === -2 ? (log[0]?.offset ?? 0) : p.timestamp === -1 ? endOf(log) : (log.find((m) => m.timestamp >= p.timestamp)?.offset ?? endOf(log));
            y.int32(p.partition).int16(error).int64(-1).int64(offset);
          });
        });
        return { body: w.done(), delayMs };
      }
      case CONSUMER_API.Fetch:
        return this.fetch(r, c, throttle, fault);
      default:
        throw new Error(`api ${api} is not a consumer request`);
    }
  }

  private fetch(r: Reader, c: ConsumerRequestContext, throttle: number, fault: number): ConsumerReply {
    r.int32(); // replica id
    const maxWait = r.int32();
    r.int32(); // min bytes
    r.int32(); // max bytes
    r.int8(); // isolation level
    r.int32(); // session id
    r.int32(); // session epoch
    const topics = r.array(() => ({ topic: r.string() ?? '', partitions: r.array(() => ({ partition: r.int32(), offset: r.int64(), logStart: r.int64(), maxBytes: r.int32() })) ?? [] })) ?? [];
    const throttled = throttle > 0;
    let records = 0;
    const parts = topics.map((t) => ({
      topic: t.topic,
      partitions: t.partitions.map((p) => {
        const log = c.log(t.topic)?.[p.partition];
        const error = fault || this.unreadable.get(`${t.topic}:${p.partition}:${Number(p.offset)}`) || (!c.mayRead(t.topic) ? E.TOPIC_AUTHORIZATION_FAILED : !log ? E.UNKNOWN_TOPIC_OR_PARTITION : p.offset < (log[0]?.offset ?? 0) || p.offset > endOf(log) ? E.OFFSET_OUT_OF_RANGE : E.NONE);
        const from = error || throttled ? [] : log!.filter((m) => m.offset >= p.offset).slice(0, this.opts.fetchMaxRecords);
        // Keep to the partition's max bytes, but always return the first record (as brokers do).
        let bytes = 0;
        const taken = from.filter((m, i) => (bytes += (m.value?.length ?? 0) + (m.key?.length ?? 0) + 64) <= p.maxBytes || i === 0);
        records += taken.length;
        return { partition: p.partition, error, high: log ? endOf(log) : -1, start: log?.[0]?.offset ?? 0, set: encodeRuns(taken), asked: p.offset, returned: taken.length };
      }),
    }));
    c.detail({ throttled, fetched: parts.flatMap((t) => t.partitions.map((p) => ({ topic: t.topic, partition: p.partition, offset: p.asked, records: p.returned, error: p.error }))) });
    const w = new Writer().int32(throttle).int16(E.NONE).int32(0);
    w.array(parts, (x, t) => {
      x.string(t.topic).array(t.partitions, (y, p) => {
        y.int32(p.partition).int16(p.error).int64(p.high).int64(p.high).int64(p.start).array([], () => undefined).bytes(p.set);
      });
    });
    // Nothing to return: a broker holds the fetch until data arrives or max_wait_time passes.
    const idle = !records && !throttled && parts.every((t) => t.partitions.every((p) => !p.error));
    return { body: w.done(), delayMs: idle ? Math.min(maxWait, this.opts.maxFetchWaitMs) : 0 };
  }
}

/** Record batches of the records, a new batch wherever data and control records alternate. */
function encodeRuns(records: LogRecord[]): Buffer {
  const out: Buffer[] = [];
  for (let i = 0; i < records.length; ) {
    let j = i;
    while (j < records.length && Boolean(records[j]!.control) === Boolean(records[i]!.control)) j++;
    out.push(encodeRecordBatch(records[i]!.offset, records.slice(i, j), { control: records[i]!.control }));
    i = j;
  }
  return Buffer.concat(out);
}

const endOf = (log: LogRecord[]) => (log.length ? log[log.length - 1]!.offset + 1 : 0);
