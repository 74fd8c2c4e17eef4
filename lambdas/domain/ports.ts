// Ports: what domain services need from the outside world. Adapters in lambdas/adapters implement
// them with the AWS SDK; domain code never imports AWS.

export interface ItemKey {
  PK: string;
  SK: string;
}

export interface StoredItem extends ItemKey {
  entity: string;
  createdAt: string;
  updatedAt?: string;
  expiresAt?: number;
  [attribute: string]: unknown;
}

export interface QueryOptions {
  limit?: number;
  descending?: boolean;
  /** Exclusive start sort key for paging. */
  startAfterSK?: string;
  index?: string;
}

export interface KeyValueStore {
  get(key: ItemKey): Promise<StoredItem | undefined>;
  /** Writes the item; with `ifNotExists`, fails with Conflict when the key is taken. */
  put(item: StoredItem, opts?: { ifNotExists?: boolean; ifExists?: boolean }): Promise<void>;
  /** Deletes the item; returns false when it did not exist. */
  delete(key: ItemKey): Promise<boolean>;
  /** Items of one partition whose sort key begins with the prefix, in sort-key order. */
  queryPrefix(pk: string, skPrefix: string, opts?: QueryOptions): Promise<StoredItem[]>;
}

/** Encrypts secret values at rest (KMS on AWS, a local key file otherwise). */
export interface SecretBox {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

/** Hands work to an asynchronous consumer (an SQS queue feeding a Lambda). */
export interface WorkQueue {
  send(message: Record<string, unknown>): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
