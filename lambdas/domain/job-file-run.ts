// ProcessFile, the state machine's step for one file of a job: runs the job's node chain on it, each
// node's output stored so a retry resumes after the last stored one, then writes to the destination
// and records the source document's state (incremental runs). A cancel stops its work (job-watch.ts);
// a bad document (a 4xx from a node or the destination) is recorded as a failed file, anything else
// is thrown for the state machine's retries.
import { openNodeSecrets } from './node-secrets';
import type { BlobStore, Clock, KeyValueStore, SecretBox, StoredItem } from './ports';
import { DomainError } from '../errors';
import { keys } from '../data/keys';
import type { JobNode } from './job-nodes';
import type { NodeRunner } from './node-runner';
import type { ConnectorRuntime } from './connectors';
import { crashReason, JobFiles, MAX_FILE_ATTEMPTS, nodeStateAttr, substitutionAttr, WARNING_FAILURE_PREFIX } from './job-files';
import type { Element } from '../engine/elements';
import { withDataSource } from './data-source';
import { inputKey, outputKey, type JobFile } from './job-manifest';
import { stagedInputKey, type PagePlan } from './job-pages';
import type { IncrementalRuns } from './source-state';
import { JOB_NOT_RUNNING, JobNotRunning, watchJob, type JobWatch } from './job-watch';
import type { StepInput } from './job-step-input';
import { pageProgress } from './page-progress';
import { log } from '../logger';

export interface FileRunResult {
  fileId: string;
  ok: boolean;
  error?: string;
  /** A long document's page ranges, to partition in parallel and merge (job-pages.ts). */
  pages?: PagePlan;
}

export class FileRun {
  constructor(
    private readonly store: KeyValueStore,
    private readonly blobs: BlobStore,
    private readonly connectors: ConnectorRuntime,
    private readonly secrets: SecretBox,
    private readonly files: JobFiles,
    private readonly incremental: IncrementalRuns,
    private readonly clock: Clock,
    /** Present where nodes run (the job-step Lambda); API Lambdas never process files. */
    private readonly runNode?: NodeRunner,
  ) {}

  /**
   * Runs the node chain of one file; each node's output is stored, so a retry resumes. The start of
   * processing is counted before a node runs (job-files.ts): after MAX_FILE_ATTEMPTS starts that
   * never finished (crashes), the next one records the file as failed instead of running it again.
   */
  async process(input: StepInput): Promise<FileRunResult> {
    const { accountId, jobId } = input;
    const job = await this.store.get(keys.job(accountId, jobId));
    if (!job || job.status !== 'IN_PROGRESS') return { fileId: input.file?.fileId ?? input.fileId!, ok: false, error: JOB_NOT_RUNNING };
    const file = input.file ?? (job.files as JobFile[] | undefined)?.find((f) => f.fileId === input.fileId);
    if (!file) throw new Error(`file ${input.fileId} is not part of job ${jobId}`);
    const nodes = job.nodes as JobNode[];
    const progress = await this.files.get(accountId, jobId, file.fileId);
    if (nodes.some((_n, i) => progress?.[nodeStateAttr(i)] === 'failure')) {
      // already recorded as failed (a resumed job does not run a bad document again)
      return { fileId: file.fileId, ok: false, error: 'the file failed earlier in this job' };
    }
    // a cancel does not stop this Lambda: it stops its own work when the job stops (job-watch.ts)
    const watch = watchJob(this.store, accountId, jobId);
    try {
      return await this.runFileNodes(accountId, job, file, progress, watch);
    } catch (err) {
      if (err instanceof JobNotRunning) return { fileId: file.fileId, ok: false, error: err.message };
      throw err;
    } finally {
      watch.stop();
    }
  }

  private async runFileNodes(accountId: string, job: StoredItem, file: JobFile, progress: Awaited<ReturnType<JobFiles['get']>>, watch: JobWatch): Promise<FileRunResult> {
    const jobId = String(job.id);
    const nodes = job.nodes as JobNode[];
    let opened: JobNode[] | undefined;
    let elements: Element[] | undefined;
    let started = false;
    for (const [i, node] of nodes.entries()) {
      const key = outputKey(jobId, node.id, file.fileId);
      const stored = await this.blobs.get(key);
      if (stored) {
        elements = JSON.parse(Buffer.from(stored).toString('utf8')) as Element[];
        // a crash between storing the output and marking it leaves it unmarked: mark it now
        if (progress?.[nodeStateAttr(i)] !== 'success') await this.files.mark(accountId, jobId, file.fileId, i, 'success');
        continue;
      }
      if (!started) {
        started = true;
        const attempt = await this.files.begin(accountId, jobId, file.fileId, i, this.clock.now().toISOString(), file.filename);
        if (Number(attempt.attempts) > MAX_FILE_ATTEMPTS) {
          const reason = crashReason(attempt, nodes);
          await this.files.recordFailure(accountId, jobId, file, i, reason);
          return { fileId: file.fileId, ok: false, error: reason };
        }
      } else {
        await watch.check(); // the job may have stopped while the previous node ran
        await this.files.mark(accountId, jobId, file.fileId, i, 'running');
      }
      try {
        const nodeInput = elements === undefined ? { document: await this.readInput(accountId, job, file) } : { elements };
        if (!this.runNode) throw new Error('this function cannot run job nodes (no node runner wired)');
        opened ??= await openNodeSecrets(nodes, this.secrets);
        const onProgress = 'document' in nodeInput ? pageProgress(this.files, this.clock, { accountId, jobId, fileId: file.fileId, filename: file.filename, part: 0 }) : undefined;
        const result = await this.runNode(opened[i]!, nodeInput, () => undefined, undefined, { fanOut: i === 0, signal: watch.signal, tenant: accountId, ...(onProgress ? { onProgress } : {}) });
        if (watch.signal.aborted) throw watch.signal.reason as Error; // (a node that does not watch the signal)
        if (result.pages && 'document' in nodeInput && nodeInput.document) {
          // a long PDF or TIFF: its ranges run in parallel, then MergePages stores this node's output (job-pages.ts)
          if (file.sourceKey) await this.blobs.put(stagedInputKey(jobId, file.fileId), nodeInput.document.data);
          await this.files.pages(accountId, jobId, file.fileId, 0, 0, result.pages.pageCount);
          log.info('file split into page ranges', { filename: file.filename, pages: result.pages.pageCount, ranges: result.pages.ranges.length });
          return { fileId: file.fileId, ok: true, pages: result.pages };
        }
        elements = result.elements;
        // an offline stand-in is said in the job's details and notification; recorded before the output, so a crash re-records it
        if (result.substitution && job[substitutionAttr(i)] !== result.substitution) {
          await this.store.update(keys.job(accountId, jobId), { set: { [substitutionAttr(i)]: result.substitution } });
        }
        // elements that kept their text (an enrichment call refused): listed in failed-files, not a failed file
        if (result.fileWarning) await this.files.putFailure(accountId, jobId, `${WARNING_FAILURE_PREFIX}${file.fileId}-${i}`, file.filename, result.fileWarning);
        if ('document' in nodeInput && file.dataSource) elements = withDataSource(elements, file.dataSource, this.clock.now());
        await this.blobs.put(key, JSON.stringify(elements), 'application/json');
        await this.files.mark(accountId, jobId, file.fileId, i, 'success');
      } catch (err) {
        if (watch.signal.aborted) throw watch.signal.reason as Error; // stopped, not failed: nothing is recorded
        if (err instanceof DomainError && err.status < 500) {
          // The document itself is bad: record it and carry on with the other files.
          log.warn('file failed', { filename: file.filename, node: node.name, nodeType: node.type, reason: err.message });
          await this.files.recordFailure(accountId, jobId, file, i, err.message);
          return { fileId: file.fileId, ok: false, error: err.message };
        }
        // retried by the state machine; the reason is kept in case the retries run out by crashing
        await this.files.noteError(accountId, jobId, file.fileId, (err as Error)?.message ?? String(err));
        throw err;
      }
    }
    if (job.destinationId && elements) {
      await watch.check(); // a stopped job writes nothing more to its destination
      try {
        await this.connectors.deliver(accountId, String(job.destinationId), {
          sourceId: job.sourceId ? String(job.sourceId) : undefined,
          sourceKey: file.sourceKey ?? file.filename,
          elements,
        });
      } catch (err) {
        if (err instanceof DomainError && err.status < 500) {
          log.warn('file failed', { filename: file.filename, node: 'destination', reason: err.message });
          await this.files.recordFailure(accountId, jobId, file, nodes.length - 1, `writing to the destination failed: ${err.message}`);
          return { fileId: file.fileId, ok: false, error: err.message };
        }
        throw err;
      }
    }
    if (file.sourceKey && job.sourceId) {
      // only now, after the destination write: a run that crashed before it processes this document again
      await this.incremental.states.record(
        accountId,
        String(job.workflowId),
        { docKey: file.sourceKey, version: file.version, sourceId: String(job.sourceId), destinationId: job.destinationId ? String(job.destinationId) : undefined, lastJobId: jobId },
        this.clock.now().toISOString(),
      );
    }
    log.info('file finished', { filename: file.filename, nodes: nodes.length });
    return { fileId: file.fileId, ok: true };
  }

  private async readInput(accountId: string, job: StoredItem, file: JobFile): Promise<{ data: Uint8Array; filename: string; contentType?: string }> {
    const data = file.sourceKey
      ? await this.connectors.readSource(accountId, String(job.sourceId), file.sourceKey)
      : await this.blobs.get(file.blobKey ?? inputKey(String(job.id), file.fileId));
    if (!data) throw new Error(`input of file ${file.fileId} is missing`);
    return { data, filename: file.filename, contentType: file.contentType };
  }
}
