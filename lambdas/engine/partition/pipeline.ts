// The partition pipeline, run inside the partition sandbox's workers (callers use partition() from
// index.ts, which runs it there): detect the file type (content first, extension and caller MIME as hints), unwrap gzip, dispatch
// (PDF and images here, other formats through FORMAT_PARTITIONERS), then post-process every element:
// filename/filetype, languages, page offset, page breaks, final ids; caps from limits.ts.
// Errors are typed (lambdas/errors.ts): unsupported type → BadRequest, unreadable document →
// UnprocessableDocument; anything unexpected from a partitioner is wrapped so a corrupt upload is
// never a 500.
import { gunzipSync } from 'node:zlib';
import { BadRequest, DomainError, UnprocessableDocument } from '../../errors';
import type { Element } from '../elements';
import { detectFileType, fileTypeFromMime, gunzippedName } from './detect';
import { FORMAT_PARTITIONERS } from './formats';
import { capExceeded, MAX_ELEMENTS, MAX_GUNZIP_BYTES, MAX_NESTING } from './limits';
import { partitionImage } from './image';
import { postProcess } from './post-process';
import { partitionPdf } from './pdf';
export { postProcess } from './post-process';
import {
  DEFAULT_PARTITION_OPTIONS,
  FILETYPE_MIME,
  type FileType,
  type FormatContext,
  type FormatPartitioner,
  type PartitionExtras,
  type PartitionInput,
  type PartitionOptions,
  type PartitionResult,
} from './types';

const IMAGE_TYPES = new Set<FileType>(['jpg', 'png', 'tiff', 'bmp', 'heic']);

function partitionerFor(filetype: FileType): FormatPartitioner | undefined {
  if (filetype === 'pdf') return partitionPdf;
  if (IMAGE_TYPES.has(filetype)) return partitionImage;
  return FORMAT_PARTITIONERS[filetype];
}

/** zlib stops producing output at maxOutputLength: a gzip bomb costs at most `limit` bytes and the time to make them. */
function gunzip(data: Uint8Array, limit = MAX_GUNZIP_BYTES): Uint8Array {
  try {
    return gunzipSync(data, { maxOutputLength: limit });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || /too large|maxOutputLength/i.test(String((err as Error).message))) {
      throw capExceeded('The decompressed gzip content', limit, 'bytes');
    }
    throw new UnprocessableDocument('Invalid or truncated gzip file.');
  }
}

/** Partitions one document on the calling thread (see the file header for the steps): what the sandbox runs. */
export async function partitionDocument(input: PartitionInput, options?: Partial<PartitionOptions>, extras: PartitionExtras = {}): Promise<PartitionResult> {
  const opts: PartitionOptions = { ...DEFAULT_PARTITION_OPTIONS, ...options };
  const warnings: string[] = [];
  let data = input.data;
  let filename = input.filename || 'unknown';
  let contentType = input.contentType;
  if (!data || data.length === 0) throw new BadRequest(`File ${filename} is empty.`);

  let det = detectFileType(data, filename, contentType);
  if (det.gzip) {
    data = gunzip(data, extras.maxDecompressedBytes);
    if (data.length === 0) throw new BadRequest(`File ${filename} is empty after decompression.`);
    const hint = extras.gzUncompressedContentType;
    filename = gunzippedName(filename);
    contentType = hint ?? (contentType && !/gzip/i.test(contentType) ? contentType : undefined);
    det = detectFileType(data, filename, contentType);
    if (det.gzip) throw new UnprocessableDocument('Nested gzip content is not supported.');
  }
  // The caller's MIME type decides among text kinds (e.g. text/markdown vs text/plain).
  const callerType = fileTypeFromMime(contentType);
  let filetype = det.filetype;
  if (filetype && callerType && filetype !== callerType && isTextKind(filetype) && isTextKind(callerType)) filetype = callerType;
  if (!filetype) throw new BadRequest(`File type ${det.mime} is not supported.`);
  const partitioner = partitionerFor(filetype);
  if (!partitioner) throw new BadRequest(`File type ${FILETYPE_MIME[filetype]} is not supported.`);

  // -- the hosted platform's object-detection-only strategy has no engine of its own here: said, not silent --
  if (opts.strategy === 'od_only' && !extras.depth) warnings.push('strategy od_only is run as hi_res by this service (layout, tables and OCR where a page has no text)');
  const depth = extras.depth ?? 0;
  let pageCount: number | undefined;
  const ctx: FormatContext = {
    pages: extras.pages,
    splitAbove: extras.splitAbove,
    notePageCount: (n) => (pageCount = n),
    ...(extras.onProgress ? { progress: extras.onProgress } : {}),
    ...(extras.timeBudgetSeconds ? { timeBudgetS: extras.timeBudgetSeconds } : {}),
    filename,
    filetype,
    options: opts,
    warn: (m) => warnings.push(m),
    partitionNested: async (nested) => {
      if (depth + 1 > MAX_NESTING) throw new UnprocessableDocument('Documents are nested too deeply.');
      const r = await partitionDocument(nested, opts, { depth: depth + 1 });
      warnings.push(...r.warnings.map((w) => `${nested.filename}: ${w}`));
      return r.elements;
    },
  };

  let elements: Element[];
  try {
    elements = await partitioner(data, ctx);
  } catch (err) {
    if (err instanceof DomainError) throw err;
    const msg = (err as Error)?.message ?? String(err);
    throw new UnprocessableDocument(`Could not read ${FILETYPE_MIME[filetype]} file ${filename}: ${msg}`);
  }
  if (elements.length > MAX_ELEMENTS) throw capExceeded(`The document's element count (${elements.length})`, MAX_ELEMENTS, 'elements');
  const count = pageCount === undefined ? {} : { pageCount };
  // a page range, or a document left to be split: its caller post-processes the merged elements
  const split = extras.splitAbove !== undefined && pageCount !== undefined && pageCount > extras.splitAbove;
  if (extras.raw || split) return { elements, warnings, filetype, ...count };
  return { elements: postProcess(elements, filename, filetype, opts), warnings, filetype, ...count };
}

function isTextKind(t: FileType): boolean {
  return ['txt', 'md', 'rst', 'org', 'csv', 'tsv', 'html', 'xml', 'json', 'eml'].includes(t);
}
