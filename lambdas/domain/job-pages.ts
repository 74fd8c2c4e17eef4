// Page fan-out of a job's long documents (issue 12): one Lambda cannot OCR 600 pages in its 15
// minutes, so a PDF or multi-page TIFF (gzipped or not) above a page threshold is split into page
// ranges partitioned in parallel (the
// file's child execution runs an inline Map over them: statemachines/job.asl.json PartitionPages),
// then merged in page order into exactly the elements one pass gives.
//
// Flow: ProcessFile asks the partition node to split above the threshold; the sandbox opens the PDF
// (or reads the TIFF's directories) and answers with its page count alone (no pages partitioned). ProcessFile returns the ranges
// (`pages`), each range is partitioned raw (provisional ids, no post-processing) into S3 under the
// job's prefix, MergePages concatenates them in page order and post-processes once (languages from
// the whole document, page breaks, ids that count elements per page and de-duplicate over the whole
// document), stores the partition node's output and marks it done; ProcessFile then resumes from that
// output (chunking and embedding after the merge), as after any retry.
//
// Why these sizes: a range must finish well inside Lambda's 15 minutes (PARTITION_JOB_TIMEOUT_S,
// 840 s). OCR'd pages (hi_res, auto, ocr_only, vlm) cost about 4 s each here: 40 pages ≈ 160 s, a
// 5× margin for dense scans, and a 600-page scan becomes 15 parallel ranges (≈ 3 minutes instead of
// 40). Text-layer pages (fast) cost ~0.05 s: below 400 pages one pass is quicker than the extra
// invocations and S3 round trips. PAGE_RANGE_PAGES / PAGE_RANGE_PAGES_FAST change them (CDK context
// pageRanges).
import type { BlobStore, Clock, KeyValueStore, SecretBox } from './ports';
import { systemClock } from './ports';
import { keys } from '../data/keys';
import { DomainError } from '../errors';
import { pageProgress } from './page-progress';
import { JobFiles, substitutionAttr } from './job-files';
import { inputKey, outputKey, type JobFile } from './job-manifest';
import type { JobNode } from './job-nodes';
import { openNodeSecrets } from './node-secrets';
import { withDataSource } from './data-source';
import { JOB_NOT_RUNNING, watchJob } from './job-watch';
import type { Element } from '../engine/elements';

export const DEFAULT_PAGES_PER_RANGE = 40;
export const DEFAULT_PAGES_PER_RANGE_FAST = 400;

/** Pages per range for a partition strategy: above this a job's PDF is split. */
export function pagesPerRange(strategy: string | undefined, env: Record<string, string | undefined> = process.env): number {
  const fast = strategy === 'fast';
  const raw = Number(fast ? env.PAGE_RANGE_PAGES_FAST : env.PAGE_RANGE_PAGES);
  return Number.isSafeInteger(raw) && raw >= 1 ? raw : fast ? DEFAULT_PAGES_PER_RANGE_FAST : DEFAULT_PAGES_PER_RANGE;
}

export interface PageRange {
  index: number;
  /** 1-based, inclusive. */
  first: number;
  last: number;
}

/** What ProcessFile returns for a document to split: the ranges of the inline Map. */
export interface PagePlan {
  pageCount: number;
  ranges: PageRange[];
}

export function pageRanges(pageCount: number, size: number): PageRange[] {
  const out: PageRange[] = [];
  for (let first = 1, index = 0; first <= pageCount; first += size, index++) out.push({ index, first, last: Math.min(pageCount, first + size - 1) });
  return out;
}

/** A range's raw elements, under the job's prefix (expired with the job's data). */
export const rangeKey = (jobId: string, fileId: string, index: number) => `jobs/${jobId}/pages/${fileId}/${index}.json`;
/** A source document's copy, read by every range (the source is read once). */
export const stagedInputKey = (jobId: string, fileId: string) => `jobs/${jobId}/pages/${fileId}/input`;
/** Where a range reads the document. */
export const rangeInputKey = (jobId: string, file: JobFile) => (file.sourceKey ? stagedInputKey(jobId, file.fileId) : file.blobKey ?? inputKey(jobId, file.fileId));

/** A range's raw partition: elements with provisional ids, and the detected file type. */
export interface RangePart {
  elements: Element[];
  filetype: string;
  /** The name the elements carry (a gzip's content: the upload's name without .gz); older parts: the file's. */
  filename?: string;
}

/** The engine side (node-runner.ts): only the job-processing Lambdas bundle it. */
export interface PageEngine {
  /** A range's raw part, and the offline stand-in it used instead of what the node asked for, if any. */
  partitionRange(
    node: JobNode,
    document: { data: Uint8Array; filename: string; contentType?: string },
    range: PageRange,
    signal?: AbortSignal,
    tenant?: string,
    onProgress?: (pagesDone: number, pagesTotal: number) => void,
  ): Promise<{ part: RangePart; substitution?: string }>;
  /** The ranges' elements in page order, post-processed once: the elements of one pass. */
  merge(node: JobNode, parts: RangePart[], filename: string): Element[];
}

interface StepBase {
  accountId: string;
  jobId: string;
  file: JobFile;
}
export interface RangeInput extends StepBase {
  range: PageRange;
}
export interface RangeOutcome {
  index: number;
  ok: boolean;
  error?: string;
}
export interface MergeInput extends StepBase {
  result: { pages: PagePlan };
  ranges: RangeOutcome[];
}

/** Records a file as failed with its reason (JobService.recordFileFailure). */
export type FailFile = (input: StepBase & { error: { Cause: string } }) => Promise<unknown>;

export class JobPages {
  private readonly progress: JobFiles;

  constructor(
    private readonly store: KeyValueStore,
    private readonly blobs: BlobStore,
    private readonly secrets: SecretBox,
    private readonly engine: PageEngine,
    private readonly failFile: FailFile,
    private readonly clock: Clock = systemClock,
  ) {
    this.progress = new JobFiles(store, clock);
  }

  /**
   * Partitions one range into S3 (a retry or a resumed job reuses a stored range). A document error
   * (4xx: corrupt page, the time or memory budget) is the range's outcome, failing the file at the
   * merge; anything else is thrown, for the state machine's Retry and then Catch (RecordFileFailure).
   */
  async partitionRange(input: RangeInput): Promise<RangeOutcome> {
    const { accountId, jobId, file, range } = input;
    const job = await this.store.get(keys.job(accountId, jobId));
    if (!job || job.status !== 'IN_PROGRESS') return { index: range.index, ok: false, error: JOB_NOT_RUNNING };
    const key = rangeKey(jobId, file.fileId, range.index);
    if (await this.blobs.exists(key)) return { index: range.index, ok: true };
    const data = await this.blobs.get(rangeInputKey(jobId, file));
    if (!data) throw new Error(`input of file ${file.fileId} is missing`);
    const [node] = await openNodeSecrets((job.nodes as JobNode[]).slice(0, 1), this.secrets);
    // a cancel does not stop this Lambda: it stops its own work when the job stops (job-watch.ts)
    const watch = watchJob(this.store, accountId, jobId);
    try {
      const onProgress = pageProgress(this.progress, this.clock, { accountId, jobId, fileId: file.fileId, filename: file.filename, part: range.index + 1 });
      const { part, substitution } = await this.engine.partitionRange(node!, { data, filename: file.filename, contentType: file.contentType }, range, watch.signal, accountId, onProgress);
      if (watch.signal.aborted) return { index: range.index, ok: false, error: JOB_NOT_RUNNING };
      // a stand-in is said in the job's details, message and notification (as ProcessFile does); recorded
      // before the range's output, so a retry that reuses the output has recorded it already
      if (substitution && job[substitutionAttr(0)] !== substitution) await this.store.update(keys.job(accountId, jobId), { set: { [substitutionAttr(0)]: substitution } });
      await this.blobs.put(key, JSON.stringify(part), 'application/json');
      return { index: range.index, ok: true };
    } catch (err) {
      if (watch.signal.aborted) return { index: range.index, ok: false, error: JOB_NOT_RUNNING };
      if (err instanceof DomainError && err.status < 500) return { index: range.index, ok: false, error: `pages ${range.first}-${range.last}: ${err.message}` };
      throw err;
    } finally {
      watch.stop();
    }
  }

  /** Merges the ranges into the partition node's output, or fails the file with the first range's reason. */
  async merge(input: MergeInput): Promise<{ ok: boolean; error?: string }> {
    const { accountId, jobId, file } = input;
    const job = await this.store.get(keys.job(accountId, jobId));
    if (!job || job.status !== 'IN_PROGRESS') return { ok: false, error: JOB_NOT_RUNNING };
    const failed = [...input.ranges].sort((a, b) => a.index - b.index).find((r) => !r.ok);
    if (failed) {
      const error = failed.error ?? 'a page range failed';
      await this.failFile({ accountId, jobId, file, error: { Cause: error } });
      return { ok: false, error };
    }
    const node = (job.nodes as JobNode[])[0]!;
    const parts: RangePart[] = [];
    for (const r of [...input.result.pages.ranges].sort((a, b) => a.index - b.index)) {
      const stored = await this.blobs.get(rangeKey(jobId, file.fileId, r.index));
      if (!stored) throw new Error(`pages ${r.first}-${r.last} of file ${file.fileId} are missing`);
      parts.push(JSON.parse(Buffer.from(stored).toString('utf8')) as RangePart);
    }
    let elements = this.engine.merge(node, parts, file.filename);
    if (file.dataSource) elements = withDataSource(elements, file.dataSource, this.clock.now());
    await this.blobs.put(outputKey(jobId, node.id, file.fileId), JSON.stringify(elements), 'application/json');
    await this.progress.mark(accountId, jobId, file.fileId, 0, 'success');
    return { ok: true };
  }
}
