// Redis destination (type `redis`, fields from the platform's table: host, port 6379, database 0,
// username, password, ssl (TLS, default true), uri, batch_size 100). The uri may carry a password,
// so it is a secret here as the password is. A password goes over TLS only: with one, a redis://
// uri (422 on uri) or ssl false (422 on ssl) is refused, and refused again before connecting.
// Writes one key per element through the official client (see writer.ts for the key scheme, JSON
// vs string values, replace and batching). Check: connect with the credentials (AUTH and SELECT of
// the database), PING as the platform's precheck, then a DEL of an absent key (a write command: a
// read-only replica answers READONLY, an ACL user without write rights NOPERM) — the closest Redis
// allows to proving writes without writing — and whether RedisJSON is there.
import { randomUUID } from 'node:crypto';
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { literalHostProblem } from '../../net/outbound';
import { clearTextRedisProblem, describeRedisError, endpointOf, withRedis, type RedisTarget } from './client';
import { hasRedisJson, removeDocument, writeDocument } from './writer';

type RedisConfig = RedisTarget & ConnectorConfig;

const refine = refineWith<RedisConfig>((c, ctx) => {
  if (typeof c.port === 'number' && c.port > 65535) ctx.addIssue({ code: 'custom', path: ['port'], message: 'port must be between 1 and 65535' });
  if (typeof c.uri === 'string' && c.uri) {
    try {
      const at = endpointOf(c as unknown as RedisTarget);
      const problem = literalHostProblem(at.host);
      if (problem) ctx.addIssue({ code: 'custom', path: ['uri'], message: problem });
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['uri'], message: (err as Error).message });
    }
  } else if (typeof c.host === 'string') {
    const problem = literalHostProblem(c.host);
    if (problem) ctx.addIssue({ code: 'custom', path: ['host'], message: problem });
  }
  const clear = clearTextRedisProblem(c as unknown as RedisTarget);
  if (clear) ctx.addIssue({ code: 'custom', path: [clear.field], message: clear.message });
});

const shape = derivedShape('destination', 'redis', refine);

export const redisDestination = defineConnector<RedisConfig>({
  ...shape,
  secretFields: [...shape.secretFields, 'uri'],
  check: (c, ctx) =>
    withRedis(c, { signal: ctx.signal, connectTimeoutMs: Math.min(5000, Math.floor(ctx.timeoutMs / 2)) }, async (client, at) => {
      const step = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
        try {
          return await fn();
        } catch (err) {
          throw new Error(`${what}: ${describeRedisError(err, c)}`);
        }
      };
      const pong = await step('PING failed', () => client.ping());
      await step('the database refused a write (DEL of an absent key)', () => client.del(`${randomUUID()}:connection-check`));
      const json = await step('cannot tell whether RedisJSON is there', () => hasRedisJson(client));
      const keys = await client.dbSize().catch(() => undefined);
      return `${at.host}:${at.port} db ${at.database}${at.tls ? ' over TLS' : ''}: PING answered ${pong}; writes accepted${keys === undefined ? '' : `; ${keys} keys`}; records are stored as ${
        json ? 'RedisJSON documents' : 'JSON strings (no RedisJSON module)'
      }`;
    }),
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId, ctx) => removeDocument(c, recordId, ctx),
});
