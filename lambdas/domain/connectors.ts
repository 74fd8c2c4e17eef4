// Source and destination connectors: CRUD, secret handling and connection checks.
// Secrets are split from the config on write, sealed by the SecretBox and stored apart; responses
// carry masked values only. A client that sends a masked value back (a GET body round trip) keeps
// the stored secret. Connection checks are recorded as SCHEDULED, handed to a work queue, and the
// consumer (runCheck) records SUCCESS or FAILURE with a reason.
import type { AccountQuotas } from './quotas';
import { randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { Clock, KeyValueStore, SecretBox, StoredItem, WorkQueue } from './ports';
import { systemClock } from './ports';
import { ConnectorFailure, DomainError, NotFound, ValidationError } from '../errors';
import type { Principal } from './auth';
import { isMaskedFormOf } from '../credentials';
import { withoutServerPaths } from './server-paths';
import { ENTITY, keys, type ConnectorKind } from '../data/keys';

const nextSortId = monotonicFactory();

/**
 * How long a SCHEDULED check answers a repeated ask for it: a queued check runs within its queue's
 * three receives of a minute each, so one older than this was lost (dead-lettered), and a new ask
 * queues a fresh one.
 */
export const CHECK_REUSE_MS = 180_000;

/** What the service needs from the connector registry (lambdas/connectors). */
export interface ConnectorCatalog {
  types(kind: ConnectorKind): string[];
  /** Validates and defaults a create/update config, or throws ValidationError located at `loc`. */
  validate(accountId: string, kind: ConnectorKind, type: string, config: unknown, loc: (string | number)[]): Record<string, unknown>;
  /** The response (output) shape of a stored config, every credential masked (shape kept). */
  output(kind: ConnectorKind, type: string, config: Record<string, unknown>): Record<string, unknown>;
  /** Secret field names: the schema's, and given `config` every field holding a credential (by name or value). */
  secretFields(kind: ConnectorKind, type: string, config?: Record<string, unknown>): string[];
  check(accountId: string, kind: ConnectorKind, type: string, config: Record<string, unknown>): Promise<{ status: 'SUCCESS' | 'FAILURE'; reason?: string }>;
  /** Runtime operations used by workflow jobs (types that support them: see supportsRuntime). */
  supportsRuntime(kind: ConnectorKind, type: string): boolean;
  /** A stream source type (a topic): a key a run does not list again has not left the source. */
  isStream?(type: string): boolean;
  /** opts.onCheckpoint: a stream source's resume position once the listing is complete (see acknowledge). */
  list(accountId: string, type: string, config: Record<string, unknown>, opts?: ListOptions): AsyncIterable<ListedDocument>;
  /** A stream source may move past what a finished run listed up to `checkpoint` (kafka: commit offsets). */
  acknowledge?(accountId: string, type: string, config: Record<string, unknown>, checkpoint: Record<string, unknown>): Promise<void>;
  read(accountId: string, type: string, config: Record<string, unknown>, key: string): Promise<Uint8Array>;
  write(accountId: string, type: string, config: Record<string, unknown>, key: string, data: Uint8Array): Promise<void>;
  /** One processed document to a destination (records replaced by the document's record id, or a file). */
  deliver(accountId: string, type: string, config: Record<string, unknown>, doc: DeliveredDocument): Promise<{ written: number; deleted?: number }>;
  /** Removes a source document's records; undefined when the destination type cannot remove (file stores). */
  remove(accountId: string, type: string, config: Record<string, unknown>, doc: { sourceId?: string; sourceKey: string }): Promise<number | undefined>;
}

export interface ListOptions {
  /** Stream sources: where to resume after this run, given once the listing is complete. */
  onCheckpoint?(checkpoint: Record<string, unknown>): void;
}

/** A document of a source listing: its key, size and (when the service gives one) version. */
export interface ListedDocument {
  key: string;
  size: number;
  version?: string;
  /** Name to partition it under when the key's last segment is not a file name. */
  filename?: string;
  /** The platform's metadata.data_source of the document (url, version, record_locator, dates...). */
  dataSource?: Record<string, unknown>;
}

/** A processed document on its way to a destination. */
export interface DeliveredDocument {
  /** The workflow's source connector (with sourceKey: the document's identity). */
  sourceId?: string;
  sourceKey: string;
  elements: { type: string; element_id: string; text: string; metadata: Record<string, unknown>; embeddings?: number[] }[];
}

/** What jobs need from connectors: read inputs from a source, write results to a destination. */
export interface ConnectorRuntime {
  listSource(accountId: string, sourceId: string, opts?: ListOptions): AsyncIterable<ListedDocument>;
  /** A stream source's run is over: it may move past what the run listed (see ConnectorCatalog.acknowledge). */
  acknowledgeSource?(accountId: string, sourceId: string, checkpoint: Record<string, unknown>): Promise<void>;
  readSource(accountId: string, sourceId: string, key: string): Promise<Uint8Array>;
  /** Whether the source is a stream (its runs list only what is new: nothing "left" it). */
  sourceIsStream?(accountId: string, sourceId: string): Promise<boolean>;
  writeDestination(accountId: string, destinationId: string, key: string, data: Uint8Array): Promise<void>;
  deliver(accountId: string, destinationId: string, doc: DeliveredDocument): Promise<{ written: number; deleted?: number }>;
  /** Removes a document that left the source; undefined when the destination cannot remove records. */
  removeDocument(accountId: string, destinationId: string, doc: { sourceId?: string; sourceKey: string }): Promise<number | undefined>;
}

export const SECRET_MASK = '**********';

export interface ConnectorRecord {
  id: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  created_at: string;
  updated_at: string | null;
}

export interface ConnectionCheckRecord {
  id: string;
  status: 'SCHEDULED' | 'SUCCESS' | 'FAILURE';
  reason: string | null;
  created_at: string;
  reported_at: string | null;
}

export interface ConnectionCheckMessage {
  task: 'connection-check';
  accountId: string;
  kind: ConnectorKind;
  connectorId: string;
  checkSK: string;
}

const label = (kind: ConnectorKind) => (kind === 'source' ? 'Source' : 'Destination');

export class ConnectorService implements ConnectorRuntime {
  constructor(
    private readonly store: KeyValueStore,
    private readonly secrets: SecretBox,
    private readonly catalog: ConnectorCatalog,
    private readonly checks: WorkQueue,
    private readonly clock: Clock = systemClock,
    private readonly quotas?: AccountQuotas,
  ) {}

  private async countConnectors(accountId: string): Promise<number> {
    const [s, d] = await Promise.all((['source', 'destination'] as const).map((k) => this.store.queryPrefix(keys.account(accountId), keys.connectorPrefix(k))));
    return s!.length + d!.length;
  }

  async list(p: Principal, kind: ConnectorKind, type?: string): Promise<ConnectorRecord[]> {
    const items = await this.store.queryPrefix(keys.account(p.accountId), keys.connectorPrefix(kind));
    const filtered = type ? items.filter((i) => i.type === type) : items;
    filtered.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    return filtered.map((i) => this.toRecord(kind, i));
  }

  async create(p: Principal, kind: ConnectorKind, input: { name: string; type: string; config: unknown }): Promise<ConnectorRecord> {
    const config = this.catalog.validate(p.accountId, kind, input.type, input.config, ['body', 'config']);
    const id = randomUUID();
    const now = this.clock.now().toISOString();
    const item: StoredItem = {
      ...keys.connector(p.accountId, kind, id),
      entity: kind === 'source' ? ENTITY.source : ENTITY.destination,
      createdAt: now,
      id,
      name: input.name,
      type: input.type,
      ...(await this.splitSecrets(kind, input.type, config)),
    };
    await this.quotas?.reserve(p.accountId, 'connectors', () => this.countConnectors(p.accountId));
    try {
      await this.store.put(item, { ifNotExists: true });
    } catch (err) {
      await this.quotas?.release(p.accountId, 'connectors');
      throw err;
    }
    return this.toRecord(kind, item);
  }

  async get(p: Principal, kind: ConnectorKind, id: string): Promise<ConnectorRecord> {
    return this.toRecord(kind, await this.load(p.accountId, kind, id));
  }

  async update(p: Principal, kind: ConnectorKind, id: string, input: { config: unknown }): Promise<ConnectorRecord> {
    const current = await this.load(p.accountId, kind, id);
    const type = String(current.type);
    const incoming = { ...((input.config ?? {}) as Record<string, unknown>) };
    // What a response showed, sent back (the mask, or a map's masked form), means "keep what is stored"
    // (records stored before a field counted as a credential hold it in clear: the same applies).
    const stored = await this.clearConfig(current);
    const shown = { ...this.catalog.output(kind, type, stored), ...((current.maskedSecrets ?? {}) as Record<string, unknown>) };
    for (const f of Object.keys(incoming)) {
      if (stored[f] === undefined || stored[f] === null) continue;
      if (incoming[f] === SECRET_MASK || isMaskedFormOf(incoming[f], shown[f])) incoming[f] = stored[f];
    }
    const config = this.catalog.validate(p.accountId, kind, type, incoming, ['body', 'config']);
    const item: StoredItem = {
      ...current,
      ...(await this.splitSecrets(kind, type, config)),
      updatedAt: this.clock.now().toISOString(),
    };
    await this.store.put(item, { ifExists: true });
    return this.toRecord(kind, item);
  }

  async delete(p: Principal, kind: ConnectorKind, id: string): Promise<{ detail: string }> {
    await this.load(p.accountId, kind, id);
    if (await this.store.delete(keys.connector(p.accountId, kind, id))) await this.quotas?.release(p.accountId, 'connectors');
    const checks = await this.store.queryPrefix(keys.account(p.accountId), keys.connectionCheckPrefix(kind, id));
    await Promise.all(checks.map((c) => this.store.delete(c)));
    return { detail: `${label(kind)} with id ${id} successfully deleted.` };
  }

  /**
   * Records a SCHEDULED check and queues it; the consumer fills in the outcome. A check of this
   * connector still SCHEDULED (asked for within CHECK_REUSE_MS) is answered instead of queueing
   * another: asking again does not make it run sooner, and an account's queued checks stay bounded by
   * its connectors (a tenant repeating asks cannot fill the shared queue ahead of another's check).
   */
  async requestCheck(p: Principal, kind: ConnectorKind, id: string): Promise<ConnectionCheckRecord> {
    await this.load(p.accountId, kind, id);
    const [latest] = await this.store.queryPrefix(keys.account(p.accountId), keys.connectionCheckPrefix(kind, id), { descending: true, limit: 1 });
    if (latest?.status === 'SCHEDULED' && this.clock.now().getTime() - Date.parse(String(latest.createdAt)) < CHECK_REUSE_MS) return toCheckRecord(latest);
    await this.quotas?.checkRate(p.accountId);
    const now = this.clock.now().toISOString();
    const checkKey = keys.connectionCheck(p.accountId, kind, id, nextSortId());
    const item: StoredItem = {
      ...checkKey,
      entity: ENTITY.connectionCheck,
      createdAt: now,
      id: randomUUID(),
      status: 'SCHEDULED',
    };
    await this.store.put(item);
    const message: ConnectionCheckMessage = { task: 'connection-check', accountId: p.accountId, kind, connectorId: id, checkSK: checkKey.SK };
    await this.checks.send({ ...message });
    return toCheckRecord(item);
  }

  async latestCheck(p: Principal, kind: ConnectorKind, id: string): Promise<ConnectionCheckRecord> {
    await this.load(p.accountId, kind, id);
    const [latest] = await this.store.queryPrefix(keys.account(p.accountId), keys.connectionCheckPrefix(kind, id), {
      descending: true,
      limit: 1,
    });
    if (!latest) throw new NotFound(`No connection check found for ${label(kind).toLowerCase()} ${id}`);
    return toCheckRecord(latest);
  }

  /** Queue consumer: runs the check against the real connector and records the outcome. */
  async runCheck(msg: ConnectionCheckMessage): Promise<ConnectionCheckRecord | undefined> {
    const checkKey = { PK: keys.account(msg.accountId), SK: msg.checkSK };
    const check = await this.store.get(checkKey);
    if (!check || check.status !== 'SCHEDULED') return check ? toCheckRecord(check) : undefined;
    let outcome: { status: 'SUCCESS' | 'FAILURE'; reason?: string };
    const connector = await this.store.get(keys.connector(msg.accountId, msg.kind, msg.connectorId));
    if (!connector) {
      outcome = { status: 'FAILURE', reason: 'connector was deleted before the check ran' };
    } else {
      const config = await this.clearConfig(connector);
      try {
        outcome = await this.catalog.check(msg.accountId, msg.kind, String(connector.type), config);
      } catch (err) {
        outcome = { status: 'FAILURE', reason: (err as Error).message };
      }
    }
    const done: StoredItem = {
      ...check,
      status: outcome.status,
      reason: outcome.reason ? withoutServerPaths(outcome.reason) : null,
      reportedAt: this.clock.now().toISOString(),
      updatedAt: this.clock.now().toISOString(),
    };
    await this.store.put(done);
    return toCheckRecord(done);
  }

  /** Confirms the connector exists in the account and can be used by jobs (422 at `loc` otherwise). */
  async assertUsable(accountId: string, kind: ConnectorKind, id: string, loc: (string | number)[]): Promise<void> {
    const item = await this.store.get(keys.connector(accountId, kind, id));
    if (!item) throw ValidationError.single(loc, `${label(kind)} ${id} not found`, 'value_error', id);
    if (!this.catalog.supportsRuntime(kind, String(item.type))) {
      throw ValidationError.single(loc, `${label(kind)} type ${String(item.type)} cannot be used by jobs in this deployment`, 'value_error', id);
    }
  }

  async sourceIsStream(accountId: string, sourceId: string): Promise<boolean> {
    const item = await this.load(accountId, 'source', sourceId);
    return this.catalog.isStream?.(String(item.type)) ?? false;
  }

  /** The source's documents as its connector lists them (streamed); a store failure is a ConnectorFailure. */
  async *listSource(accountId: string, sourceId: string, opts?: ListOptions): AsyncIterable<ListedDocument> {
    const item = await this.load(accountId, 'source', sourceId);
    try {
      yield* this.catalog.list(accountId, String(item.type), await this.clearConfig(item), opts);
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new ConnectorFailure(`${String(item.type)} source: listing failed: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  async acknowledgeSource(accountId: string, sourceId: string, checkpoint: Record<string, unknown>): Promise<void> {
    const item = await this.load(accountId, 'source', sourceId);
    try {
      await this.catalog.acknowledge?.(accountId, String(item.type), await this.clearConfig(item), checkpoint);
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new ConnectorFailure(`${String(item.type)} source: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /**
   * One document's bytes. A failure of the store (after the connector's own retries: throttling,
   * 5xx) is a ConnectorFailure with the store's message, so the job records that document as a
   * failed file and goes on with the others.
   */
  async readSource(accountId: string, sourceId: string, key: string): Promise<Uint8Array> {
    const item = await this.load(accountId, 'source', sourceId);
    try {
      return await this.catalog.read(accountId, String(item.type), await this.clearConfig(item), key);
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new ConnectorFailure(`${String(item.type)} source: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  async writeDestination(accountId: string, destinationId: string, key: string, data: Uint8Array): Promise<void> {
    const item = await this.load(accountId, 'destination', destinationId);
    await this.catalog.write(accountId, String(item.type), await this.clearConfig(item), key, data);
  }

  /**
   * Delivers a processed document. A failure of the store (after the connector's own retries) is a
   * ConnectorFailure carrying the store's message: the job records that file as failed and goes on.
   */
  async deliver(accountId: string, destinationId: string, doc: DeliveredDocument): Promise<{ written: number; deleted?: number }> {
    const item = await this.load(accountId, 'destination', destinationId);
    try {
      return await this.catalog.deliver(accountId, String(item.type), await this.clearConfig(item), doc);
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new ConnectorFailure(`${String(item.type)} destination: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** Same failure mapping as deliver: the store's message as a ConnectorFailure. */
  async removeDocument(accountId: string, destinationId: string, doc: { sourceId?: string; sourceKey: string }): Promise<number | undefined> {
    const item = await this.load(accountId, 'destination', destinationId);
    try {
      return await this.catalog.remove(accountId, String(item.type), await this.clearConfig(item), doc);
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new ConnectorFailure(`${String(item.type)} destination: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** The stored config with secrets decrypted, for connector runtimes (jobs, checks). */
  async clearConfig(item: StoredItem): Promise<Record<string, unknown>> {
    const config = { ...((item.config ?? {}) as Record<string, unknown>) };
    for (const field of Object.keys((item.sealedSecrets ?? {}) as Record<string, string>)) config[field] = await this.openField(item, field);
    return config;
  }

  /** One sealed field opened; a map or a list was sealed as JSON (sealedJson) and comes back as one. */
  private async openField(item: StoredItem, field: string): Promise<unknown> {
    const clear = await this.secrets.open(((item.sealedSecrets ?? {}) as Record<string, string>)[field]!);
    return ((item.sealedJson ?? []) as string[]).includes(field) ? JSON.parse(clear) : clear;
  }

  private async load(accountId: string, kind: ConnectorKind, id: string): Promise<StoredItem> {
    const item = await this.store.get(keys.connector(accountId, kind, id));
    if (!item) throw new NotFound(`${label(kind)} with id ${id} not found`);
    return item;
  }

  private async splitSecrets(
    kind: ConnectorKind,
    type: string,
    config: Record<string, unknown>,
  ): Promise<{ config: Record<string, unknown>; sealedSecrets: Record<string, string>; sealedJson: string[]; maskedSecrets: Record<string, unknown> }> {
    const plain = { ...config };
    const sealedSecrets: Record<string, string> = {};
    const sealedJson: string[] = [];
    const maskedSecrets: Record<string, unknown> = {};
    // -- what responses show for each sealed field (a map keeps its shape), kept beside the sealed value --
    const shown = this.catalog.output(kind, type, config);
    for (const field of this.catalog.secretFields(kind, type, config)) {
      const value = plain[field];
      delete plain[field];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') sealedJson.push(field);
      sealedSecrets[field] = await this.secrets.seal(typeof value === 'string' ? value : JSON.stringify(value));
      maskedSecrets[field] = typeof value === 'string' || shown[field] === undefined ? SECRET_MASK : shown[field];
    }
    return { config: plain, sealedSecrets, sealedJson, maskedSecrets };
  }

  private toRecord(kind: ConnectorKind, item: StoredItem): ConnectorRecord {
    const type = String(item.type);
    const config = { ...((item.config ?? {}) as Record<string, unknown>) };
    const shown = (item.maskedSecrets ?? {}) as Record<string, unknown>;
    for (const field of Object.keys((item.sealedSecrets ?? {}) as Record<string, string>)) config[field] = shown[field] ?? SECRET_MASK;
    return {
      id: String(item.id),
      name: String(item.name),
      type,
      config: this.catalog.output(kind, type, config),
      created_at: item.createdAt,
      updated_at: item.updatedAt ?? null,
    };
  }
}

function toCheckRecord(item: StoredItem): ConnectionCheckRecord {
  return {
    id: String(item.id),
    status: item.status as ConnectionCheckRecord['status'],
    reason: (item.reason as string | null | undefined) ?? null,
    created_at: item.createdAt,
    reported_at: (item.reportedAt as string | undefined) ?? null,
  };
}

/** Rejects a type that the catalogue does not know (422 on the `type` field). */
export function assertKnownType(catalog: ConnectorCatalog, kind: ConnectorKind, type: string, loc: (string | number)[]): void {
  const allowed = catalog.types(kind);
  if (!allowed.includes(type)) {
    throw ValidationError.single(loc, `Input should be ${allowed.map((t) => `'${t}'`).join(', ')}`, 'enum', type);
  }
}
