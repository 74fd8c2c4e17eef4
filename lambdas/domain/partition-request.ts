// The synchronous partition request (POST /general/v0/general): form fields → partition options and
// chunking options, each uploaded file through the engine, then the output format. Pure domain
// code shared by the HTTP handler and anything else that partitions on demand.
import { partition } from '../engine/partition/index';
import { parsePartitionForm } from '../engine/partition/params';
import { elementsToCsv } from '../engine/partition/output';
import { chunkElementsAsync, parseChunkingForm } from '../engine/chunking/index';
import type { Element } from '../engine/elements';
import { ValidationError } from './errors';

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

export async function runPartitionRequest(files: PartitionUpload[], fields: Record<string, string[]>): Promise<PartitionReply> {
  if (files.length === 0) throw ValidationError.single(['body', 'files'], 'Field required', 'missing');
  const parsed = parsePartitionForm(fields);
  const chunking = parseChunkingForm(fields);
  const perFile: Element[][] = [];
  const warnings: string[] = [];
  for (const file of files) {
    const hint = parsed.contentType ?? (file.contentType && file.contentType !== 'application/octet-stream' ? file.contentType : undefined);
    const result = await partition(
      { data: file.data, filename: file.filename, contentType: hint },
      parsed.options,
      { gzUncompressedContentType: parsed.gzUncompressedContentType },
    );
    warnings.push(...result.warnings.map((w) => `${file.filename}: ${w}`));
    perFile.push(chunking ? await chunkElementsAsync(result.elements, chunking) : result.elements);
  }
  if (parsed.outputFormat === 'text/csv') {
    return { contentType: 'text/csv; charset=utf-8', body: perFile.map((els) => elementsToCsv(els)).join(''), warnings };
  }
  const body = perFile.length === 1 ? perFile[0] : perFile;
  return { contentType: 'application/json', body: JSON.stringify(body), warnings };
}
