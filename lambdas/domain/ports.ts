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
  /** Inclusive upper bound of the sort key (items from the prefix up to this value). */
  until?: string;
  index?: string;
}

/** A condition on one attribute; a list of conditions is an AND, `{ or: [...] }` an OR group. */
export type Condition =
  | { attr: string; op: 'lt' | 'le' | 'gt' | 'ge' | 'eq' | 'ne'; value: string | number | boolean }
  | { attr: string; op: 'in'; value: (string | number)[] }
  | { attr: string; op: 'exists' | 'notExists' }
  | { or: Condition[] };

export interface UpdateSpec {
  set?: Record<string, unknown>;
  /** Atomic numeric increments (negative to decrement); missing attributes start at 0. */
  add?: Record<string, number>;
  remove?: string[];
  /** Attributes set only where absent (`if_not_exists`): the first writer's value stays. */
  setIfAbsent?: Record<string, unknown>;
  /** All must hold, else Conflict. The item must exist unless `upsert` is set. */
  conditions?: Condition[];
  upsert?: boolean;
  /** Return only the attributes this update named (their new values) instead of the whole item. */
  returnUpdatedOnly?: boolean;
}

export interface KeyValueStore {
  /** Single-item conditional update; returns the item after the update. */
  update(key: ItemKey, spec: UpdateSpec): Promise<StoredItem>;
  get(key: ItemKey): Promise<StoredItem | undefined>;
  /**
   * Consistent reads of many items (one request per 100 keys), in the order of `keys`; `attributes`
   * narrows what is read (the key attributes always come back).
   */
  getMany(keys: ItemKey[], opts?: { attributes?: string[] }): Promise<(StoredItem | undefined)[]>;
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

/** Object storage for job inputs and every node's outputs. */
export interface BlobStore {
  put(key: string, data: Uint8Array | string, contentType?: string): Promise<void>;
  /** Undefined when the object does not exist. */
  get(key: string): Promise<Uint8Array | undefined>;
  exists(key: string): Promise<boolean>;
  /** Size in bytes; undefined when the object does not exist. */
  size(key: string): Promise<number | undefined>;
  /**
   * The object's bytes when it is at most `maxBytes`, else only its size (the body is not read);
   * undefined when it does not exist. One request either way.
   */
  getUpTo(key: string, maxBytes: number): Promise<{ data: Uint8Array } | { size: number } | undefined>;
  /**
   * Writes an object from a stream of chunks without holding it whole (a multipart upload, one
   * part in memory at a time; a single PUT when it is small). Returns the bytes written.
   */
  putStream(key: string, chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>, contentType?: string): Promise<number>;
  /** The object's lines ('\n'-separated UTF-8), read as a stream; none when it does not exist. */
  lines(key: string): AsyncIterable<string>;
  /**
   * A time-limited URL that lets its holder PUT this one object once: with this content type and
   * exactly `bytes` bytes (the length is signed, so the storage refuses another), and only while the
   * object does not exist (`If-None-Match: *` signed: a second PUT is refused).
   */
  presignPut(key: string, contentType: string, bytes: number, expiresInSeconds: number): Promise<string>;
  /** A time-limited URL that lets its holder GET this one object. */
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
}

/** Runs the job state machine. */
export interface Orchestrator {
  startJob(jobId: string, input: Record<string, unknown>): Promise<string>;
  stopJob(executionId: string, cause: string): Promise<void>;
}

/** Puts platform events (job.* ) on the event bus. */
export interface EventPublisher {
  /** `at`: when the change happened (default now); consumers order events by it, to the millisecond. */
  publish(eventType: string, detail: Record<string, unknown>, at?: Date): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Sends one plain-text e-mail (SES v2 on AWS, aws-ses-v2-local locally). */
export interface EmailSender {
  send(mail: { to: string; cc?: string[]; replyTo?: string[]; subject: string; text: string }): Promise<void>;
}

/** POSTs one webhook delivery over HTTPS; resolves with the response status (rejects on network errors or timeout). */
export interface WebhookPoster {
  /** The receiver's status and the start of its answer (at most 1 KiB, for test deliveries). */
  post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body?: string }>;
}
