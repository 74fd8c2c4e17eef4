// Contract between the partition pipeline (index.ts: detection, dispatch, post-processing) and the
// per-format partitioners (formats/*, pdf/*, image/*). Pure TypeScript: no AWS imports.
import type { Element } from '../elements';

/** Canonical file kinds the engine dispatches on (detected by content, extension as a hint). */
export const FILE_TYPES = [
  'pdf', 'docx', 'doc', 'pptx', 'ppt', 'xlsx', 'xls', 'csv', 'tsv', 'odt', 'ods', 'odp', 'rtf', 'epub',
  'html', 'xml', 'md', 'rst', 'org', 'txt', 'eml', 'msg', 'json',
  'jpg', 'png', 'tiff', 'bmp', 'heic',
] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** MIME type reported in `metadata.filetype` for each kind (as the open-source library does). */
export const FILETYPE_MIME: Record<FileType, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  ppt: 'application/vnd.ms-powerpoint',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  rtf: 'text/rtf',
  epub: 'application/epub',
  html: 'text/html',
  xml: 'application/xml',
  md: 'text/markdown',
  rst: 'text/x-rst',
  org: 'text/org',
  txt: 'text/plain',
  eml: 'message/rfc822',
  msg: 'application/vnd.ms-outlook',
  json: 'application/json',
  jpg: 'image/jpeg',
  png: 'image/png',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
  heic: 'image/heic',
};

export type Strategy = 'auto' | 'fast' | 'hi_res' | 'ocr_only' | 'od_only' | 'vlm';

export interface VlmOptions {
  provider?: string;
  model?: string;
  /** With allow_fast, pages with a good text layer skip the model. */
  allowFast?: boolean;
  isDynamic?: boolean;
}

/** Every partition option, already parsed and defaulted (see params.ts for the form mapping). */
export interface PartitionOptions {
  strategy: Strategy;
  /** ISO 639-3 codes requested by the caller (empty: detect). */
  languages: string[];
  /** Tesseract language codes derived from `languages`/`ocr_languages`. */
  ocrLanguages: string[];
  /** detect_language_per_element: each element's languages from its own text (when none requested). */
  detectLanguagePerElement: boolean;
  encoding?: string;
  coordinates: boolean;
  includePageBreaks: boolean;
  uniqueElementIds: boolean;
  xmlKeepTags: boolean;
  includeSlideNotes: boolean;
  /** Element types whose image is embedded as base64 (e.g. ['Image', 'Table']). */
  extractImageBlockTypes: string[];
  /** File kinds for which table structure inference is skipped. */
  skipInferTableTypes: string[];
  pdfInferTableStructure: boolean;
  startingPageNumber?: number;
  hiResModelName?: string;
  /** E-mail: also partition attachments. */
  processAttachments: boolean;
  vlm?: VlmOptions;
}

export const DEFAULT_PARTITION_OPTIONS: PartitionOptions = {
  strategy: 'auto',
  languages: [],
  ocrLanguages: ['eng'],
  detectLanguagePerElement: false,
  coordinates: false,
  includePageBreaks: false,
  uniqueElementIds: false,
  xmlKeepTags: false,
  includeSlideNotes: true,
  extractImageBlockTypes: [],
  skipInferTableTypes: [],
  pdfInferTableStructure: true,
  processAttachments: false,
};

export interface PartitionInput {
  data: Uint8Array;
  filename: string;
  /** Caller's MIME hint (content_type form field or the part's Content-Type). */
  contentType?: string;
}

export interface FormatContext {
  filename: string;
  filetype: FileType;
  options: PartitionOptions;
  /** Warnings surfaced to the caller/logs (e.g. a partial result). */
  warn(message: string): void;
  /** Partition an embedded document (e-mail attachment, archive member) with the same options. */
  partitionNested(input: PartitionInput): Promise<Element[]>;
  /** Page fan-out (PartitionExtras.pages / splitAbove): honoured by the PDF and image partitioners (page-span.ts). */
  pages?: { first: number; last: number };
  splitAbove?: number;
  /** Multi-page partitioners (PDF, images) report the document's page count here. */
  notePageCount?(count: number): void;
  /** The document's time budget in seconds, when known (PartitionExtras.timeBudgetSeconds). */
  timeBudgetS?: number;
  /** Multi-page partitioners report the pages read so far of those they read (PartitionExtras.onProgress). */
  progress?(pagesDone: number, pagesTotal: number): void;
}

/**
 * A per-format partitioner returns elements in reading order with provisional ids
 * (makeElement); parent_id may reference provisional ids. The pipeline then sets
 * filename/filetype, languages, page offsets and final ids.
 */
export type FormatPartitioner = (data: Uint8Array, ctx: FormatContext) => Promise<Element[]>;

export interface PartitionExtras {
  /** For .gz uploads: the MIME type of the compressed content (gz_uncompressed_content_type). */
  gzUncompressedContentType?: string;
  /** Internal: nesting depth of partitionNested. */
  depth?: number;
  /** Limit on decompressed gzip size (default MAX_GUNZIP_BYTES). */
  maxDecompressedBytes?: number;
  /** Time budget of this document in the sandbox (default PARTITION_TIMEOUT_S; job nodes pass PARTITION_JOB_TIMEOUT_S). */
  timeoutSeconds?: number;
  /** The document's time budget as the partitioners see it (the sandbox passes timeoutSeconds on): work it cannot fit is refused up front. */
  timeBudgetSeconds?: number;
  /**
   * Page fan-out of jobs (domain/job-pages.ts). PDF and TIFF: partition these pages (1-based, inclusive;
   * page numbers stay the document's), with no OCR page cap.
   */
  pages?: { first: number; last: number };
  /** PDF and TIFF: a document of more pages is not partitioned: no elements, its pageCount (the job splits it). */
  splitAbove?: number;
  /**
   * The partitioner's elements before post-processing (provisional ids, no filename, languages or
   * final ids): page ranges are merged first, then post-processed once (postProcess), as one pass.
   */
  raw?: boolean;
  /** Whose document (an account id): the sandbox serves tenants in turn, so one tenant's queue never holds another's document. */
  tenant?: string;
  /** A caller waits on the answer (the synchronous endpoint): served before the tenant's batch work. */
  interactive?: boolean;
  /**
   * Pages read so far of the pages this call reads (a one-pass document or a job's page range), as a
   * PDF or multi-page image goes; the sandbox forwards it from its process at a bounded rate.
   */
  onProgress?: (pagesDone: number, pagesTotal: number) => void;
  /** Aborting it stops the work: a queued document is dropped, the process partitioning it is killed; rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface PartitionResult {
  elements: Element[];
  warnings: string[];
  filetype: FileType;
  /** PDFs and images: the document's page count. */
  pageCount?: number;
}

/** A PartitionResult whose elements are still the UTF-8 JSON text the sandbox sent (JSON.stringify of the array). */
export type PartitionJsonResult = Omit<PartitionResult, 'elements'> & { elementsJson: Uint8Array };
