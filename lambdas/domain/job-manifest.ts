// The file list of a job lives in S3, not in the job item: a JSON Lines manifest, one JobFile per
// line, written at launch (uploads) or by the PlanFiles step (a workflow's source listing, streamed:
// 100,000 documents never sit in memory nor in a DynamoDB item, whose limit is 400 KB). The job's
// Distributed Map reads it with an ItemReader, so each file's processing gets its own entry as input.
//
// The job item keeps the count and the first MAX_LISTED_FILE_IDS file ids, which is what the job
// responses (input_file_ids, output_node_files) list: a bigger job's response names its first files
// and the job details count all of them.
import { randomUUID } from 'node:crypto';
import type { BlobStore, StoredItem } from './ports';
import type { ListedDocument } from './connectors';

export interface JobFile {
  fileId: string;
  filename: string;
  size: number;
  contentType?: string;
  /** Workflow jobs: the object's key in the source connector (read at processing time). */
  sourceKey?: string;
  /** Workflow jobs: the document's version as listed (recorded once the document is delivered). */
  version?: string;
  /** Workflow jobs: the source's metadata.data_source for the document's elements. */
  dataSource?: Record<string, unknown>;
  /** Stream sources: a document kept from earlier runs that did not deliver it, and how many tried. */
  retry?: number;
  /** Presigned uploads: the uploaded object, read in place (domain/uploads.ts). */
  blobKey?: string;
}

/** File ids a job item keeps for the job responses. */
export const MAX_LISTED_FILE_IDS = 1000;

export const manifestKey = (jobId: string) => `jobs/${jobId}/manifest.jsonl`;
/** An uploaded input of a job (presigned uploads are read in place, at their blobKey). */
export const inputKey = (jobId: string, fileId: string) => `jobs/${jobId}/input/${fileId}`;
/** A node's output for one file (a retry resumes from it). */
export const outputKey = (jobId: string, nodeId: string, fileId: string) => `jobs/${jobId}/${nodeId}/${fileId}.json`;

/** What the job item records of a written manifest. */
export interface ManifestSummary {
  manifestKey: string;
  fileCount: number;
  inputFileIds: string[];
}

/** Streams the files into the job's manifest; returns what the job item keeps. */
export async function writeManifest(blobs: BlobStore, jobId: string, files: AsyncIterable<JobFile> | Iterable<JobFile>): Promise<ManifestSummary> {
  const key = manifestKey(jobId);
  const inputFileIds: string[] = [];
  let fileCount = 0;
  async function* lines(): AsyncIterable<string> {
    for await (const f of files) {
      fileCount++;
      if (inputFileIds.length < MAX_LISTED_FILE_IDS) inputFileIds.push(f.fileId);
      yield JSON.stringify(f) + '\n';
    }
  }
  await blobs.putStream(key, lines(), 'application/x-ndjson');
  return { manifestKey: key, fileCount, inputFileIds };
}

/** The job file of a listed source document (read from the source when it is processed). */
export function fileOfDocument(doc: ListedDocument): JobFile {
  return {
    fileId: randomUUID(),
    filename: doc.filename ?? (doc.key.split('/').pop() || doc.key),
    size: doc.size,
    sourceKey: doc.key,
    ...(doc.version !== undefined ? { version: doc.version } : {}),
    ...(doc.dataSource ? { dataSource: doc.dataSource } : {}),
  };
}

/** Files of a job, in manifest order (a job stored before manifests keeps them in its item). */
export async function* jobFiles(blobs: BlobStore, job: StoredItem): AsyncIterable<JobFile> {
  if (Array.isArray(job.files)) {
    yield* job.files as JobFile[];
    return;
  }
  if (typeof job.manifestKey === 'string') for await (const line of blobs.lines(job.manifestKey)) yield JSON.parse(line) as JobFile;
}

export function fileCount(job: StoredItem): number {
  if (typeof job.fileCount === 'number') return job.fileCount;
  return Array.isArray(job.files) ? job.files.length : 0;
}

/** The file ids the job responses list (all of them up to MAX_LISTED_FILE_IDS). */
export function listedFileIds(job: StoredItem): string[] {
  if (Array.isArray(job.inputFileIds)) return job.inputFileIds as string[];
  return Array.isArray(job.files) ? (job.files as JobFile[]).map((f) => f.fileId) : [];
}
