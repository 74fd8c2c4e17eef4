// The synchronous partition request (POST /general/v0/general): form fields → partition options and
// chunking options, each uploaded file through the engine, then the output format. Pure domain
// code shared by the HTTP handler and anything else that partitions on demand.
//
// The response is built per file and per element, its size counted as it grows: above
// `maxResponseBytes` (5 MB on AWS, where a Lambda answer carries at most 6 MB; 100 MB locally) the
// request is a 413 naming the limit, never a JSON.stringify of the whole result that fails with
// "Invalid string length" once it passes V8's ~512 M characters.
import { partition, partitionToJson } from '../engine/partition/index';
import { parsePartitionForm } from '../engine/partition/params';
import { elementsToCsv } from '../engine/partition/output';
import { chunkElementsAsync, parseChunkingForm } from '../engine/chunking/index';
import type { Element } from '../engine/elements';
import { PayloadTooLarge, ValidationError } from '../errors';

export interface PartitionUpload {
  filename: string;
  contentType?: string;
  data: Uint8Array;
}

export interface PartitionReply {
  contentType: string;
  body: string;
  warnings: string[];
}

/** A string built from parts whose UTF-8 size is checked as each part is added. */
class BoundedText {
  private readonly parts: string[] = [];
  private bytes = 0;
  private since = Date.now();
  constructor(private readonly maxBytes: number) {}

  async add(part: string, filename: string): Promise<void> {
    this.count(Buffer.byteLength(part, 'utf8'), filename);
    this.parts.push(part);
    // -- tens of thousands of elements: let other requests in every few milliseconds --
    if (Date.now() - this.since > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      this.since = Date.now();
    }
  }

  /** UTF-8 text as bytes: counted before it is decoded, so a text above the limit never becomes a string. */
  addUtf8(bytes: Uint8Array, filename: string): void {
    this.count(bytes.byteLength, filename);
    this.parts.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  }

  private count(bytes: number, filename: string): void {
    this.bytes += bytes;
    if (this.bytes > this.maxBytes) throw responseTooLarge(this.maxBytes, filename);
  }

  toString(): string {
    return this.parts.join('');
  }
}

function responseTooLarge(maxBytes: number, filename: string): PayloadTooLarge {
  const mb = maxBytes >= 1e6 ? `${Math.round(maxBytes / 1e5) / 10} MB` : `${maxBytes} bytes`;
  return new PayloadTooLarge(
    `The partition response would exceed this service's ${mb} response limit (at ${filename}): ` +
      'send the documents as a job (POST /api/v1/jobs/) and download each output, or send fewer or smaller files per request',
  );
}

/** Chunking problems found while chunking (too many chunks) are form fields of this request. */
function underBody(err: unknown): never {
  if (err instanceof ValidationError) {
    throw new ValidationError(err.issues.map((i) => (i.loc[0] === 'body' ? i : { ...i, loc: ['body', ...i.loc] })));
  }
  throw err;
}

export async function runPartitionRequest(
  files: PartitionUpload[],
  fields: Record<string, string[]>,
  maxResponseBytes = Number.POSITIVE_INFINITY,
  /** The caller's account: the partition sandbox serves accounts in turn. */
  tenant?: string,
): Promise<PartitionReply> {
  if (files.length === 0) throw ValidationError.single(['body', 'files'], 'Field required', 'missing');
  const parsed = parsePartitionForm(fields);
  const chunking = parseChunkingForm(fields);
  const out = new BoundedText(maxResponseBytes);
  const csv = parsed.outputFormat === 'text/csv';
  const several = files.length > 1;
  const warnings: string[] = [];
  if (!csv && several) await out.add('[', files[0]!.filename);
  for (const [f, file] of files.entries()) {
    const hint = parsed.contentType ?? (file.contentType && file.contentType !== 'application/octet-stream' ? file.contentType : undefined);
    const input = { data: file.data, filename: file.filename, contentType: hint };
    const extras = { gzUncompressedContentType: parsed.gzUncompressedContentType, interactive: true, ...(tenant ? { tenant } : {}) };
    if (!csv && !chunking) {
      // -- the elements as they are: the sandbox's JSON text is the very bytes JSON.stringify would give here --
      const raw = await partitionToJson(input, parsed.options, extras);
      warnings.push(...raw.warnings.map((w) => `${file.filename}: ${w}`));
      if (f > 0) await out.add(',', file.filename);
      out.addUtf8(raw.elementsJson, file.filename);
      continue;
    }
    const result = await partition(input, parsed.options, extras);
    warnings.push(...result.warnings.map((w) => `${file.filename}: ${w}`));
    const elements: Element[] = chunking ? await chunkElementsAsync(result.elements, chunking).catch(underBody) : result.elements;
    if (csv) {
      await out.add(fileCsv(elements, maxResponseBytes, file.filename), file.filename);
      continue;
    }
    // -- the same bytes as JSON.stringify of the whole array, one element at a time --
    await out.add(f > 0 ? ',[' : '[', file.filename);
    for (const [i, el] of elements.entries()) await out.add(i > 0 ? `,${JSON.stringify(el)}` : JSON.stringify(el), file.filename);
    await out.add(']', file.filename);
  }
  if (!csv && several) await out.add(']', files[files.length - 1]!.filename);
  return { contentType: csv ? 'text/csv; charset=utf-8' : 'application/json', body: out.toString(), warnings };
}

/** One file's CSV; a table too large for one string is the response's size problem, not a crash. */
function fileCsv(elements: Element[], maxBytes: number, filename: string): string {
  try {
    return elementsToCsv(elements);
  } catch (err) {
    if (err instanceof RangeError) throw responseTooLarge(maxBytes, filename);
    throw err;
  }
}
