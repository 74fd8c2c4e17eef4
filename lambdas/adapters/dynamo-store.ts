// KeyValueStore on one DynamoDB table through the document client. Single-item conditional
// writes only (dynalite has no transactions); expired items are filtered on read (no TTL there).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Condition, ItemKey, KeyValueStore, QueryOptions, StoredItem, UpdateSpec } from '../domain/ports';
import { Conflict, NotFound, PayloadTooLarge, ValidationError } from '../errors';
import { TABLE_DEFINITION } from '../data/table-definition';
import { documentClient } from './aws-clients';
import { config } from '../config';

/**
 * DynamoDB refuses an item above 400 KB, or a number beyond its range, with a ValidationException.
 * The schemas keep every request within both; should one still get there, it is the request's
 * content, not a server fault: 413 for the size, 422 for the number.
 */
function refusedInput(err: unknown): PayloadTooLarge | ValidationError | undefined {
  const e = err as Error;
  // -- the document client's own refusal (before any call): an integer beyond 2^53 - 1 --
  if (/greater than Number\.MAX_SAFE_INTEGER/.test(e?.message ?? '')) {
    return ValidationError.single(['body'], `A number is out of the range a record holds (at most ${Number.MAX_SAFE_INTEGER} in magnitude)`, 'value_error');
  }
  if (e?.name !== 'ValidationException') return undefined;
  if (/item size/i.test(e.message)) {
    return new PayloadTooLarge('The record is too large to store (DynamoDB holds at most 400 KB per item): send smaller names, config or settings');
  }
  if (/number (overflow|underflow)/i.test(e.message)) {
    return ValidationError.single(['body'], 'A number is out of the range a record holds (0 or at least 1e-130 in magnitude)', 'value_error');
  }
  return undefined;
}

const live = (item: StoredItem | undefined): StoredItem | undefined =>
  item && (item.expiresAt === undefined || item.expiresAt * 1000 > Date.now()) ? item : undefined;

// ---- conditional updates -------------------------------------------------------------------


interface ExprState {
  names: Record<string, string>;
  values: Record<string, unknown>;
  n: number;
  /** Refs of string values already bound (a value set on many attributes is bound once). */
  strings: Map<string, string>;
}

function nameRef(s: ExprState, attr: string): string {
  const ref = `#n${s.n++}`;
  s.names[ref] = attr;
  return ref;
}

function valueRef(s: ExprState, value: unknown): string {
  const known = typeof value === 'string' ? s.strings.get(value) : undefined;
  if (known) return known;
  const ref = `:v${s.n++}`;
  s.values[ref] = value;
  if (typeof value === 'string') s.strings.set(value, ref);
  return ref;
}

const OPS = { lt: '<', le: '<=', gt: '>', ge: '>=', eq: '=', ne: '<>' } as const;

function conditionExpr(s: ExprState, c: Condition): string {
  if ('or' in c) return `(${c.or.map((x) => conditionExpr(s, x)).join(' OR ')})`;
  const n = nameRef(s, c.attr);
  switch (c.op) {
    case 'exists':
      return `attribute_exists(${n})`;
    case 'notExists':
      return `attribute_not_exists(${n})`;
    case 'in':
      return `${n} IN (${c.value.map((v) => valueRef(s, v)).join(', ')})`;
    default:
      return `${n} ${OPS[c.op]} ${valueRef(s, c.value)}`;
  }
}

export function buildUpdate(spec: UpdateSpec): {
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  const s: ExprState = { names: {}, values: {}, n: 0, strings: new Map() };
  const sets = Object.entries(spec.set ?? {}).map(([k, v]) => `${nameRef(s, k)} = ${valueRef(s, v)}`);
  for (const [k, v] of Object.entries(spec.setIfAbsent ?? {})) {
    const n = nameRef(s, k);
    sets.push(`${n} = if_not_exists(${n}, ${valueRef(s, v)})`);
  }
  const adds = Object.entries(spec.add ?? {}).map(([k, v]) => `${nameRef(s, k)} ${valueRef(s, v)}`);
  const removes = (spec.remove ?? []).map((k) => nameRef(s, k));
  const parts = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ].filter(Boolean);
  const conds = [...(spec.upsert ? [] : [{ attr: 'PK', op: 'exists' } as Condition]), ...(spec.conditions ?? [])];
  return {
    UpdateExpression: parts.join(' '),
    ConditionExpression: conds.length ? conds.map((c) => conditionExpr(s, c)).join(' AND ') : undefined,
    ExpressionAttributeNames: s.names,
    ExpressionAttributeValues: Object.keys(s.values).length ? s.values : undefined,
  };
}


/** Keys per BatchGetItem request (DynamoDB's limit). */
const BATCH_GET_MAX = 100;

export class DynamoStore implements KeyValueStore {
  constructor(private readonly tableName = config().TABLE_NAME) {}

  async get(key: ItemKey): Promise<StoredItem | undefined> {
    const out = await documentClient().send(
      new GetCommand({ TableName: this.tableName, Key: { PK: key.PK, SK: key.SK }, ConsistentRead: true }),
    );
    return live(out.Item as StoredItem | undefined);
  }

  async getMany(keys: ItemKey[], opts: { attributes?: string[] } = {}): Promise<(StoredItem | undefined)[]> {
    const found = new Map<string, StoredItem>();
    const id = (k: ItemKey) => `${k.PK}\u0000${k.SK}`;
    const unique = [...new Map(keys.map((k) => [id(k), { PK: k.PK, SK: k.SK }])).values()];
    const projection = opts.attributes ? ['PK', 'SK', 'expiresAt', ...opts.attributes] : undefined;
    await Promise.all(
      Array.from({ length: Math.ceil(unique.length / BATCH_GET_MAX) }, async (_, i) => {
        let pending: Record<string, unknown>[] = unique.slice(i * BATCH_GET_MAX, (i + 1) * BATCH_GET_MAX);
        // DynamoDB may answer part of a batch (UnprocessedKeys): ask again for the rest, backing off.
        for (let attempt = 0; pending.length; attempt++) {
          if (attempt) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt)));
          const out = await documentClient().send(
            new BatchGetCommand({
              RequestItems: {
                [this.tableName]: {
                  Keys: pending,
                  ConsistentRead: true,
                  ...(projection
                    ? { ProjectionExpression: projection.map((_a, j) => `#p${j}`).join(', '), ExpressionAttributeNames: Object.fromEntries(projection.map((a, j) => [`#p${j}`, a])) }
                    : {}),
                },
              },
            }),
          );
          for (const raw of out.Responses?.[this.tableName] ?? []) {
            const item = live(raw as StoredItem);
            if (item) found.set(id(item), item);
          }
          pending = (out.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Record<string, unknown>[];
        }
      }),
    );
    return keys.map((k) => found.get(id(k)));
  }

  async put(item: StoredItem, opts: { ifNotExists?: boolean; ifExists?: boolean } = {}): Promise<void> {
    const condition = opts.ifNotExists
      ? 'attribute_not_exists(PK)'
      : opts.ifExists
        ? 'attribute_exists(PK)'
        : undefined;
    try {
      await documentClient().send(
        new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: condition }),
      );
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException || (err as Error).name === 'ConditionalCheckFailedException') {
        if (opts.ifExists) throw new NotFound('Item not found');
        throw new Conflict('Item already exists');
      }
      throw refusedInput(err) ?? err;
    }
  }

  async update(key: ItemKey, spec: UpdateSpec): Promise<StoredItem> {
    try {
      const out = await documentClient().send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { PK: key.PK, SK: key.SK },
          ReturnValues: spec.returnUpdatedOnly ? 'UPDATED_NEW' : 'ALL_NEW',
          ...buildUpdate(spec),
        }),
      );
      return (out.Attributes ?? {}) as StoredItem;
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') throw new Conflict('Condition not met');
      throw refusedInput(err) ?? err;
    }
  }

  async delete(key: ItemKey): Promise<boolean> {
    const out = await documentClient().send(
      new DeleteCommand({ TableName: this.tableName, Key: { PK: key.PK, SK: key.SK }, ReturnValues: 'ALL_OLD' }),
    );
    return Boolean(out.Attributes);
  }

  async queryPrefix(pk: string, skPrefix: string, opts: QueryOptions = {}): Promise<StoredItem[]> {
    const index = opts.index ? TABLE_DEFINITION.indexes.find((i) => i.name === opts.index) : undefined;
    const pkName = index?.partitionKey ?? TABLE_DEFINITION.partitionKey;
    const skName = index?.sortKey ?? TABLE_DEFINITION.sortKey;
    const items: StoredItem[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await documentClient().send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: index?.name,
          KeyConditionExpression:
            opts.startAfterSK || opts.until ? '#pk = :pk AND #sk BETWEEN :from AND :to' : '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
          ExpressionAttributeValues:
            opts.startAfterSK || opts.until
              ? { ':pk': pk, ':from': opts.startAfterSK ?? (skPrefix || '\u0001'), ':to': opts.until ?? `${skPrefix}\uffff` }
              : { ':pk': pk, ':prefix': skPrefix },
          ScanIndexForward: !opts.descending,
          ExclusiveStartKey: startKey,
          Limit: opts.limit ? opts.limit + 1 : undefined,
        }),
      );
      for (const raw of out.Items ?? []) {
        const item = live(raw as StoredItem);
        if (!item) continue;
        if (opts.startAfterSK && (item[skName] as string) === opts.startAfterSK) continue;
        items.push(item);
      }
      startKey = out.LastEvaluatedKey;
    } while (startKey && (!opts.limit || items.length < opts.limit));
    return opts.limit ? items.slice(0, opts.limit) : items;
  }
}
