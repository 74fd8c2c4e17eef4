// What the MongoDB source and destination share: the config refinement (a uri the driver accepts,
// non-empty database and collection, a positive batch_size) and the platform's precheck (a ping with
// the uri's credentials, then the database and the collection exist), each side adding its own step.
import type { Collection } from 'mongodb';
import type { z } from 'zod';
import type { CheckContext, ConnectorConfig } from '../definition';
import { describeMongoError, uriProblem, withMongo, type MongoTarget } from './client';
import { checkBatchSize } from '../schema';

/** The derived input schema refined as both sides need it. */
export function mongoInput<C>(base: z.ZodTypeAny): z.ZodType<C> {
  return (base as z.ZodType<ConnectorConfig>).superRefine((c, ctx) => {
    if (typeof c.uri === 'string') {
      const problem = uriProblem(c.uri);
      if (problem) ctx.addIssue({ code: 'custom', path: ['uri'], message: problem });
    }
    for (const f of ['database', 'collection'] as const) {
      if (typeof c[f] === 'string' && !c[f].trim()) ctx.addIssue({ code: 'custom', path: [f], message: `${f} must not be empty` });
    }
    checkBatchSize(c, ctx);
  }) as unknown as z.ZodType<C>;
}

/**
 * Pings with the uri's credentials, proves the database and the collection exist (a destination's
 * message adds what to create), then runs `more` on the collection; errors name the failed step.
 */
export function checkMongo(
  c: MongoTarget,
  ctx: Pick<CheckContext, 'signal' | 'timeoutMs'>,
  o: { destination: boolean },
  more: (coll: Collection, fail: (what: string, err: unknown) => Error) => Promise<string>,
): Promise<string> {
  return withMongo(c, { signal: ctx.signal, serverSelectionTimeoutMS: Math.min(5000, Math.floor(ctx.timeoutMs / 2)) }, async (client) => {
    const fail = (what: string, err: unknown) => new Error(`${what}: ${describeMongoError(err, c.uri)}`);
    await client.db('admin').command({ ping: 1 }).catch((err) => {
      throw fail('ping failed', err);
    });
    const db = client.db(c.database);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray().catch((err) => {
      throw fail(`cannot list the collections of database ${c.database}`, err);
    })).map((x) => x.name).sort();
    if (!names.length) throw new Error(`database ${c.database} does not exist (it has no collections)${o.destination ? `; create it with collection ${c.collection} first` : ''}`);
    if (!names.includes(c.collection)) {
      throw new Error(`collection ${c.collection} does not exist in database ${c.database} (it has: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', ...' : ''})${o.destination ? '; create it first' : ''}`);
    }
    return more(db.collection(c.collection), fail);
  });
}
