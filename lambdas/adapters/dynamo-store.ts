// KeyValueStore on one DynamoDB table through the document client. Single-item conditional
// writes only (dynalite has no transactions); expired items are filtered on read (no TTL there).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey, KeyValueStore, QueryOptions, StoredItem } from '../domain/ports';
import { Conflict, NotFound } from '../domain/errors';
import { TABLE_DEFINITION } from '../data/table-definition';
import { documentClient } from './aws-clients';
import { config } from '../config';

const live = (item: StoredItem | undefined): StoredItem | undefined =>
  item && (item.expiresAt === undefined || item.expiresAt * 1000 > Date.now()) ? item : undefined;

export class DynamoStore implements KeyValueStore {
  constructor(private readonly tableName = config().TABLE_NAME) {}

  async get(key: ItemKey): Promise<StoredItem | undefined> {
    const out = await documentClient().send(
      new GetCommand({ TableName: this.tableName, Key: { PK: key.PK, SK: key.SK }, ConsistentRead: true }),
    );
    return live(out.Item as StoredItem | undefined);
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
      throw err;
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
          KeyConditionExpression: opts.startAfterSK
            ? '#pk = :pk AND #sk BETWEEN :from AND :to'
            : '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
          ExpressionAttributeValues: opts.startAfterSK
            ? { ':pk': pk, ':from': opts.startAfterSK, ':to': `${skPrefix}\uffff` }
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
