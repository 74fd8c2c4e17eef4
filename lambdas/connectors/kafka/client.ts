// Connections to a tenant's Kafka cluster (Confluent Cloud) through kafkajs, configured as the
// platform's kafka-cloud connector configures confluent-kafka: SASL_SSL with the PLAIN mechanism,
// the API key as user name and its secret as password, bootstrap "<server>:<port>".
// Why kafkajs and not Confluent's @confluentinc/kafka-javascript: that one is a librdkafka native
// addon whose install downloads a prebuilt binary from GitHub, or else compiles librdkafka after
// downloading zlib, OpenSSL, zstd and curl sources: neither works from the package registry alone.
// Every broker connection (the bootstrap ones and each broker the cluster's metadata names) is made
// by the socket factory below, under the outbound policy (literal addresses checked, names resolved
// through the policy's lookup); TLS is always verified, CONNECTOR_CA_FILE adding a private CA.
// Errors come out in Kafka's words (the protocol error's text), never with the key or secret.
import { isIP, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ISocketFactory, Kafka } from 'kafkajs';
import type { z } from 'zod';
import { assertAllowedHost, guardedLookup, literalHostProblem, OutboundPolicyError, policyReason } from '../../net/outbound';
import { connectorCa, redact } from '../agents';

export interface KafkaTarget {
  bootstrap_servers: string;
  port?: number;
  kafka_api_key: string;
  secret: string;
  topic: string;
  batch_size?: number;
}

/** Kafka's own rule for topic names (Topic.validate): 1-249 of [a-zA-Z0-9._-], not "." or "..". */
export const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

/** "host:port" of each bootstrap server: a comma-separated list, each with its own port or the config's. */
export function brokersOf(c: Pick<KafkaTarget, 'bootstrap_servers' | 'port'>): { host: string; port: number }[] {
  return c.bootstrap_servers
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const s = entry.replace(/^[a-z_]+:\/\//i, ''); // "SASL_SSL://host:9092", as Confluent shows it
      const fallback = c.port ?? 9092;
      const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
      if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : fallback };
      if (isIP(s) === 6) return { host: s, port: fallback };
      const m = /^(.*):(\d+)$/.exec(s);
      return m ? { host: m[1]!, port: Number(m[2]) } : { host: s, port: fallback };
    });
}

/** Why these bootstrap servers may not be used (without connecting), or undefined. */
export function bootstrapProblem(c: Pick<KafkaTarget, 'bootstrap_servers' | 'port'>): string | undefined {
  const brokers = brokersOf(c);
  if (!brokers.length) return 'bootstrap_servers must name at least one server';
  for (const b of brokers) {
    if (!b.host || /[\s/]/.test(b.host)) return `${JSON.stringify(b.host)} is not a host name`;
    if (!(b.port >= 1 && b.port <= 65535)) return `port ${b.port} of ${b.host} is not a TCP port`;
    const literal = literalHostProblem(b.host);
    if (literal) return literal;
  }
  return undefined;
}

/** Connects like kafkajs's default factory, but under the outbound policy and with the connector CA. */
const guardedSocketFactory: ISocketFactory = ({ host, port, ssl, onConnect }) => {
  const problem = literalHostProblem(host);
  if (problem) {
    const s = new Socket();
    process.nextTick(() => s.destroy(new OutboundPolicyError(problem)));
    return s;
  }
  const ca = connectorCa();
  const socket = tlsConnect({ host, port, lookup: guardedLookup, ...(isIP(host) ? {} : { servername: host }), ...(ssl && typeof ssl === 'object' ? ssl : {}), ...(ca ? { ca } : {}) }, onConnect);
  socket.setKeepAlive(true, 60_000);
  return socket;
};

/**
 * What kafkajs drops on the floor: when no broker names a group's coordinator it throws a bare
 * "Failed to find group coordinator", the broker's answer (GROUP_AUTHORIZATION_FAILED when the key
 * may not use the group) going only to its debug log. Capturing that one log entry keeps the
 * store's own reason; nothing else of the log is kept.
 */
export class CoordinatorErrors {
  readonly seen: Error[] = [];
  explain(err: unknown): unknown {
    const last = this.seen[this.seen.length - 1];
    return (err as Error)?.name === 'KafkaJSGroupCoordinatorNotFound' && last ? last : err;
  }
}

export async function kafkaClient(c: KafkaTarget, opts: { connectionTimeout?: number; retries?: number; coordinatorErrors?: CoordinatorErrors } = {}): Promise<Kafka> {
  const problem = bootstrapProblem(c);
  if (problem) throw new Error(problem);
  // A refused bootstrap host fails at once and in plain words (kafkajs would retry a refused
  // connection like a network error); the socket factory still checks every connection it makes.
  for (const b of brokersOf(c)) await assertAllowedHost(b.host);
  const { Kafka: Client, logLevel } = await import('kafkajs'); // loaded on first use, not by every handler
  return new Client({
    clientId: 'workflow-service',
    brokers: brokersOf(c).map((b) => `${b.host.includes(':') ? `[${b.host}]` : b.host}:${b.port}`),
    ssl: true,
    sasl: { mechanism: 'plain', username: c.kafka_api_key, password: c.secret },
    socketFactory: guardedSocketFactory,
    connectionTimeout: opts.connectionTimeout ?? 10_000,
    authenticationTimeout: 10_000,
    requestTimeout: 30_000,
    // kafkajs retries what Kafka marks retriable (leader changes, timeouts, not enough replicas),
    // with exponential back-off; the rest (a refused record, an authorization error) is final.
    retry: { retries: opts.retries ?? 5, initialRetryTime: 300, maxRetryTime: 10_000 },
    // Its log lines carry broker addresses and stack traces, never the credentials; they stay off.
    logLevel: opts.coordinatorErrors ? logLevel.DEBUG : logLevel.NOTHING,
    ...(opts.coordinatorErrors
      ? {
          logCreator: () => (entry: { log: { message?: string; error?: unknown } }) => {
            if (entry.log.message === 'Tried to find group coordinator' && entry.log.error instanceof Error) opts.coordinatorErrors!.seen.push(entry.log.error);
          },
        }
      : {}),
  });
}

/** Kafka's message for a failure (the root protocol or connection error), without the credentials. */
export function describeKafkaError(err: unknown, c: Pick<KafkaTarget, 'kafka_api_key' | 'secret'>): string {
  const policy = policyReason(err);
  if (policy) return policy;
  let e = err as (Error & { originalError?: Error; cause?: Error; type?: string }) | undefined;
  // KafkaJSNumberOfRetriesExceeded and friends wrap the error that was retried: report that one.
  for (let depth = 0; e && depth < 5 && (e.name === 'KafkaJSNumberOfRetriesExceeded' || e.name === 'KafkaJSNonRetriableError') && (e.originalError ?? e.cause); depth++) {
    e = (e.originalError ?? e.cause) as typeof e;
  }
  let msg = e?.message ?? String(err);
  if (e?.type && !msg.includes(e.type)) msg = `${msg} (${e.type})`;
  const cause = (e as { cause?: { message?: string; code?: string } })?.cause;
  if (cause?.message && !msg.includes(cause.message)) msg += `: ${cause.message}`;
  return redact(msg, [c.secret, c.kafka_api_key]);
}

/** The config issues source and destination share: the bootstrap servers, the topic's name, the port. */
export function addTargetIssues(c: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (typeof c.bootstrap_servers === 'string') {
    const problem = bootstrapProblem(c as unknown as KafkaTarget);
    if (problem) ctx.addIssue({ code: 'custom', path: ['bootstrap_servers'], message: problem });
  }
  if (typeof c.topic === 'string' && (!TOPIC_NAME.test(c.topic) || c.topic === '.' || c.topic === '..')) {
    ctx.addIssue({ code: 'custom', path: ['topic'], message: 'topic must be 1 to 249 letters, digits, ".", "_" or "-" (Kafka\'s rule for topic names)' });
  }
  if (c.port !== undefined && !(Number.isInteger(c.port) && (c.port as number) >= 1 && (c.port as number) <= 65535)) {
    ctx.addIssue({ code: 'custom', path: ['port'], message: 'port must be a TCP port (1 to 65535)' });
  }
}
