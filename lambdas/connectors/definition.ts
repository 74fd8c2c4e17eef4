// The contract every connector type implements. A connector type is one file under ./types that
// exports one or more ConnectorDefinition values, listed in ./types/index.ts.
//
// input  - zod schema for the `config` of create/update bodies; applies defaults, accepts extra keys
//          (spec §2.1: config objects have additionalProperties true).
// output - zod schema describing the config as returned in responses (required fields and defaults
//          differ from the input shape, spec §2.1). Responses are built by registry.outputConfig().
// check  - really tries the connector; throws an Error whose message is the FAILURE reason. It may
//          return a note that becomes the reason of a SUCCESS (for example "credentials not verified").
// list/read (sources) and write (destinations) are the runtime operations used by workflow jobs.
// upload (record destinations: databases, vector and search stores) receives one processed file's
// elements as records and replaces that file's earlier records (by record id); removeRecords drops
// a document's records (a document gone from the source). A destination has write or upload.
import type { z } from 'zod';
import type { FileRecords, UploadContext, UploadResult } from './records/types';

export type ConnectorKind = 'source' | 'destination';
export const CONNECTOR_KINDS: readonly ConnectorKind[] = ['source', 'destination'];

export type ConnectorConfig = Record<string, unknown>;

/** What a response shows instead of a secret value. Never the clear value, never a partial one. */
export const SECRET_MASK = '**********';

export interface CheckContext {
  /** Aborted when the check's time budget is spent; pass it to SDK calls and fetch. */
  signal: AbortSignal;
  /** Budget of the whole check in milliseconds. */
  timeoutMs: number;
}

export interface RuntimeContext {
  signal?: AbortSignal;
  /**
   * Stream sources (list): receives, once the listing is complete, where the source should resume
   * after this run (e.g. a consumer group's offsets). Nothing is committed by list() itself: the job
   * hands the value back to acknowledge() when it has finished with the documents listed.
   */
  checkpoint?(value: Record<string, unknown>): void;
}

/**
 * The platform's `metadata.data_source` of a document: every element partitioned from it carries
 * these fields. Dates are epoch seconds in a string, as the platform's connectors write them
 * ("1718307393.0", see epochSeconds); record_locator says how to find the document again in its store.
 */
export type DataSourceMetadata = {
  url?: string;
  version?: string;
  record_locator?: Record<string, unknown>;
  date_created?: string;
  date_modified?: string;
  permissions_data?: Record<string, unknown>[];
};

export interface SourceObject {
  /**
   * The document's stable identity in the source, passed back to read(): a path relative to the
   * connector's configured root ('/'-separated) for file stores, the store's id for records.
   */
  key: string;
  size: number;
  /**
   * The document's version as the service states it (etag, modified time...): a run of a workflow
   * skips a document whose version has not changed since its last successful delivery. Absent: the
   * document is processed every run (there is nothing to compare).
   */
  version?: string;
  /**
   * The name the document is partitioned under (its extension picks the partitioner), when the key's
   * last segment is not one: e.g. `<table>_<id>.csv` for a database row, `<id>.txt` for a record.
   */
  filename?: string;
  /** data_source metadata for the document's elements (see DataSourceMetadata). */
  dataSource?: DataSourceMetadata;
}

export interface ConnectorDefinition<C extends ConnectorConfig = ConnectorConfig> {
  readonly kind: ConnectorKind;
  readonly type: string;
  readonly input: z.ZodType<C>;
  readonly output: z.ZodType<ConnectorConfig>;
  /** Fields whose values are credentials: masked in responses, encrypted at rest by the store. */
  readonly secretFields: readonly string[];
  /** Fields kept in storage but absent from the output shape (e.g. astradb flatten_metadata). */
  readonly outputOmit?: readonly string[];
  /** True for types without a typed model (free-form objects); secrets are then found by name. */
  readonly freeForm?: boolean;
  /**
   * A stream source (a topic, a queue): each run lists what arrived since the last, so a key it does
   * not list again has NOT left the source, and an incremental run must not remove its records.
   */
  readonly stream?: boolean;
  /** Why the type does not exist in this runtime (e.g. `local` on AWS), or undefined when it does. */
  unavailable?(): string | undefined;
  check(config: C, ctx: CheckContext): Promise<string | void>;
  list?(config: C, ctx?: RuntimeContext): AsyncIterable<SourceObject>;
  /**
   * Stream sources: the run that listed up to `checkpoint` has finished with every document it listed
   * (delivered, or kept for a retry by the service): the source may move past them (kafka commits
   * the group's offsets). Never moves a position backwards.
   */
  acknowledge?(config: C, checkpoint: Record<string, unknown>, ctx?: RuntimeContext): Promise<void>;
  read?(config: C, key: string, ctx?: RuntimeContext): Promise<Uint8Array>;
  write?(config: C, key: string, data: Uint8Array, ctx?: RuntimeContext): Promise<void>;
  upload?(config: C, file: FileRecords, ctx: UploadContext): Promise<UploadResult>;
  removeRecords?(config: C, recordId: string, ctx: UploadContext): Promise<number | undefined>;
}

/** A date as the platform's data_source dates: epoch seconds in a string; undefined when unknown. */
export function epochSeconds(date: Date | string | number | undefined | null): string | undefined {
  if (date === undefined || date === null || date === '') return undefined;
  const ms = date instanceof Date ? date.getTime() : typeof date === 'number' ? date : Date.parse(date);
  if (!Number.isFinite(ms)) return undefined;
  const s = ms / 1000;
  return Number.isInteger(s) ? s.toFixed(1) : String(s);
}

/** What a file store says of a listed file. */
export interface ListedFile {
  key: string;
  size?: number | string | null;
  /** etag, content hash...: the document's version and its data_source version. */
  version?: string | null;
  url: string;
  recordLocator: Record<string, unknown>;
  created?: Date | string | number | null;
  modified?: Date | string | number | null;
}

/** A listed file of a file store with the platform's data_source (url, version, record_locator, dates). */
export function fileObject(f: ListedFile): SourceObject {
  return {
    key: f.key,
    size: Number(f.size ?? 0),
    ...(f.version ? { version: f.version } : {}),
    dataSource: {
      url: f.url,
      ...(f.version ? { version: f.version } : {}),
      record_locator: f.recordLocator,
      date_created: epochSeconds(f.created),
      date_modified: epochSeconds(f.modified),
    },
  };
}

/** Erases the config type parameter so definitions of different types share one registry list. */
export function defineConnector<C extends ConnectorConfig>(def: ConnectorDefinition<C>): ConnectorDefinition {
  return def as unknown as ConnectorDefinition;
}

/** Joins a '/'-separated prefix and key without doubling or losing slashes. */
export function joinKey(prefix: string, key: string): string {
  const p = prefix.replace(/^\/+/, '');
  const k = key.replace(/^\/+/, '');
  if (!p) return k;
  return p.endsWith('/') ? p + k : `${p}/${k}`;
}

/** Rejects keys that would escape the configured root ('..' segments, empty segments). */
export function assertSafeKey(key: string): string {
  const k = key.replace(/^\/+/, '');
  if (!k || k.split('/').some((seg) => seg === '..' || seg === '.')) {
    throw new Error(`invalid object key ${JSON.stringify(key)}`);
  }
  return k;
}

/** Error message of an unknown thrown value, with the SDK error name when it is informative. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const anyErr = err as Error & { code?: string; Code?: string; cause?: unknown };
    const name = anyErr.name && anyErr.name !== 'Error' ? anyErr.name : anyErr.code ?? anyErr.Code;
    let msg = anyErr.message || String(name ?? 'error');
    if (anyErr.cause instanceof Error && anyErr.cause.message && !msg.includes(anyErr.cause.message)) {
      const c = anyErr.cause as Error & { code?: string };
      msg += ` (${c.code ? `${c.code}: ` : ''}${c.message})`;
    }
    return name && !msg.startsWith(String(name)) ? `${name}: ${msg}` : msg;
  }
  return String(err);
}
