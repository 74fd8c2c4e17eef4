// What a record destination receives: one processed file's final elements (with embeddings when the
// workflow embeds), and the identity of the source document they came from. Destinations store
// records (one per element) keyed so that a file's records can be found again by `recordId`: a
// rewrite of the same file first removes them (replace, never duplicate).

/** An element as the engines produce it (the open-source library's element JSON). */
export interface ElementRecord {
  type: string;
  element_id: string;
  text: string;
  metadata: Record<string, unknown>;
  embeddings?: number[];
  [key: string]: unknown;
}

export interface FileRecords {
  /** Stable identity of the source document (same file, same id, across runs). */
  recordId: string;
  /** The document's key under the source root (or its upload name for on-demand jobs). */
  sourceKey: string;
  elements: ElementRecord[];
}

export interface UploadContext {
  signal?: AbortSignal;
  /** Structured log line (never pass secrets). */
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

export interface UploadResult {
  /** Records written for this file. */
  written: number;
  /** Records of an earlier write of this file that were removed first (when the store can tell). */
  deleted?: number;
}
