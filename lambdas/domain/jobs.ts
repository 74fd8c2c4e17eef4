// On-demand jobs: creation (inputs to the blob store, a SCHEDULED record, one state machine
// execution), reads, cancel, downloads; and the steps the state machine runs (slot gate, per-file
// node chain with resumable outputs, finish/fail with the slot released on every path). The
// concurrency gate and launch spacing live in job-gate.ts, the per-file node chain (ProcessFile) in
// job-file-run.ts, per-file progress and failed-files entries in job-files.ts.
import { randomUUID } from 'node:crypto';
import type { BlobStore, Clock, EventPublisher, KeyValueStore, Orchestrator, SecretBox, StoredItem } from './ports';
import { sealNodeSecrets } from './node-secrets';
import { systemClock } from './ports';
import { Conflict, NotFound, ValidationError } from '../errors';
import type { Principal } from './auth';
import { ENTITY, keys } from '../data/keys';
import { planNodes, type JobNode } from './job-nodes';
import type { NodeRunner } from './node-runner';
import { findTemplate } from './templates';
import type { UploadedFile } from './uploads';
import type { ConnectorRuntime } from './connectors';
import type { AccountQuotas } from './quotas';
import { HEAD_WAIT_SECONDS, JobGate } from './job-gate';
import { withoutServerPaths } from './server-paths';
import { currentNode, filesView, JobFiles, jobWarnings, WARNING_FAILURE_PREFIX, type FileProgressView } from './job-files';
import { FileRun, type FileRunResult } from './job-file-run';
import type { StepInput } from './job-step-input';
import { stepErrorReason } from './step-error';
import { fileCount, inputKey, listedFileIds, outputKey, writeManifest, type JobFile } from './job-manifest';
import { DEFAULT_MAX_SOURCE_DOCUMENTS, IncrementalRuns, REMOVAL_FAILURE_PREFIX, SOURCE_ACK_FAILURE_ID, sourceDocumentsView, type SourceRunFields } from './source-state';

export { MAX_RUNNING_JOBS, LAUNCH_SPACING_MS, RECOUNT_AFTER_ATTEMPTS } from './job-gate';
export { MAX_FILE_ATTEMPTS } from './job-files';
export type { JobFile } from './job-manifest';
export const MAX_FILES_PER_JOB = 10;

export type JobStatus = 'SCHEDULED' | 'IN_PROGRESS' | 'COMPLETED' | 'STOPPED' | 'FAILED';
const TERMINAL: JobStatus[] = ['COMPLETED', 'STOPPED', 'FAILED'];
/** The form of the ids this service gives files (UUIDs): any other is no file of a job. */
const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** failed-files entries that are files (not a removal, the source position or a warning about a file that completed). */
function countFileFailures(failures: StoredItem[], jobId: string): number {
  const notAFile = [REMOVAL_FAILURE_PREFIX, SOURCE_ACK_FAILURE_ID, WARNING_FAILURE_PREFIX].map((id) => keys.jobFailurePrefix(jobId) + id);
  return failures.filter((f) => !notAFile.some((prefix) => String(f.SK).startsWith(prefix))).length;
}

type Upload = { filename: string; contentType?: string; data: Uint8Array };

/** What a workflow contributes to a job it runs. */
export interface WorkflowRun {
  workflowId: string;
  workflowName: string;
  nodes: JobNode[];
  sourceId?: string;
  destinationId?: string;
  jobType: 'persistent' | 'scheduled';
  /** false: only new or changed source documents are processed (see source-state.ts). */
  reprocessAll?: boolean;
}


export interface JobInformation {
  id: string;
  workflow_id: string;
  workflow_name: string;
  status: JobStatus;
  created_at: string;
  runtime: string | null;
  input_file_ids: string[];
  output_node_files: { node_id: string; file_id: string; node_type: string; node_subtype: string }[];
  job_type: 'ephemeral' | 'template' | 'persistent' | 'scheduled';
  /** Extension: why a job failed or stopped, or what its files met (the details' message). */
  message: string | null;
  /** Extension: the job's files; done and failed once it has finished, and while it runs (GET of one job) in progress too. */
  files: { total: number; done?: number; failed?: number; in_progress?: number };
  /** Extension (GET of one running job): the files being processed, as job details lists them. */
  files_in_progress?: FileProgressView[];
}

/** How long a download redirect URL works. */
const DOWNLOAD_URL_SECONDS = 15 * 60;

function checkFileCount(n: number): void {
  if (n > MAX_FILES_PER_JOB) {
    throw ValidationError.single(['body', 'input_files'], `At most ${MAX_FILES_PER_JOB} files per job (input_files and input_upload_ids together)`, 'too_long');
  }
}

function fromUploads(uploaded: UploadedFile[]): JobFile[] {
  return uploaded.map((u) => ({ fileId: randomUUID(), filename: u.filename, size: u.size, contentType: u.contentType, blobKey: u.blobKey }));
}
export { outputKey } from './job-manifest';

function isoDuration(ms: number): string {
  return `PT${(ms / 1000).toFixed(3).replace(/\.?0+$/, '')}S`;
}

/**
 * When a job's latest change happened: its latest stamp. Taking the latest of all (not the stamp of
 * this change) means one job's events never go back in time, even when the Lambdas that stamped them
 * disagree slightly about the clock; equal moments are ordered by the event's rank (jobEventRank).
 */
export function jobChangedAt(job: Pick<StoredItem, 'createdAt'> & Record<string, unknown>): Date {
  const stamps = [job.createdAt, job.startedAt, job.finishedAt].map((t) => (typeof t === 'string' ? Date.parse(t) : NaN));
  return new Date(Math.max(...stamps.filter((t) => !Number.isNaN(t))));
}

export class JobService {
  /** The per-account slot gate and launch spacing. */
  private readonly gate: JobGate;
  /** Per-file node states and processing attempts. */
  private readonly fileProgress: JobFiles;
  /** Source-document state of workflows: incremental runs. */
  private readonly incremental: IncrementalRuns;
  /** The ProcessFile step. */
  private readonly fileRun: FileRun;
  /** A source run listing more documents fails (a source paging without end). */
  maxSourceDocuments = DEFAULT_MAX_SOURCE_DOCUMENTS;

  constructor(
    private readonly store: KeyValueStore,
    private readonly blobs: BlobStore,
    private readonly orchestrator: Orchestrator,
    private readonly events: EventPublisher,
    private readonly connectors: ConnectorRuntime,
    private readonly secrets: SecretBox,
    /** Present where nodes run (the job-step Lambda); API Lambdas never process files. */
    runNode?: NodeRunner,
    private readonly clock: Clock = systemClock,
    /** Per-account limits (jobs scheduled or in progress); none where jobs are not created. */
    private readonly quotas?: AccountQuotas,
  ) {
    this.gate = new JobGate(store, clock);
    this.fileProgress = new JobFiles(store, clock);
    this.incremental = new IncrementalRuns(store, blobs, connectors);
    this.fileRun = new FileRun(store, blobs, connectors, secrets, this.fileProgress, this.incremental, clock, runNode);
  }

  // ---- API side ---------------------------------------------------------------------------

  /**
   * `files` come in the request; `uploaded` are presigned uploads already claimed for this job
   * (claim them only after `checkFileCount`, so a refused request does not use them up).
   */
  async create(
    p: Principal,
    requestData: string | undefined,
    files: Upload[],
    uploaded: () => Promise<UploadedFile[]> = async () => [],
    uploadCount = 0,
  ): Promise<JobInformation> {
    const { nodes, jobType } = this.parseRequestData(requestData);
    if (files.length + uploadCount === 0) throw ValidationError.single(['body', 'input_files'], 'At least one input file is required for an on-demand job', 'missing');
    checkFileCount(files.length + uploadCount);
    this.quotas?.assertJobRoom((await this.activeJobs(p.accountId)).length);
    await this.gate.claimLaunch(p.accountId);
    const jobId = randomUUID();
    return this.launch(p.accountId, jobId, {
      jobType,
      workflowId: randomUUID(),
      workflowName: `job-${jobId.slice(0, 8)}`,
      nodes: await sealNodeSecrets(nodes, this.secrets),
      files: [...(await this.storeUploads(jobId, files)), ...fromUploads(await uploaded())],
    });
  }

  /**
   * Runs a workflow: one job over the uploaded files, or over the source connector's files. Only one
   * job of a workflow may be active at a time (409 otherwise).
   */
  async runWorkflow(
    p: Principal,
    run: WorkflowRun,
    uploads: Upload[],
    uploaded: () => Promise<UploadedFile[]> = async () => [],
    uploadCount = 0,
  ): Promise<JobInformation> {
    const activeJobs = await this.activeJobs(p.accountId);
    const active = activeJobs.find((j) => j.workflowId === run.workflowId);
    if (active) throw new Conflict(`Workflow ${run.workflowId} already has an active job (${String(active.id)})`);
    this.quotas?.assertJobRoom(activeJobs.length);
    const jobId = randomUUID();
    let files: JobFile[] = [];
    if (uploads.length + uploadCount) {
      checkFileCount(uploads.length + uploadCount);
      files = [...(await this.storeUploads(jobId, uploads)), ...fromUploads(await uploaded())];
    } else if (!run.sourceId) {
      throw ValidationError.single(['body', 'input_files'], 'The workflow has no source connector: upload input_files to run it', 'missing');
    }
    // A source run lists its source in the PlanFiles step (not here: a listing can be long), so the
    // job's files are known once it runs; uploads are known now.
    const sourceRun = !files.length && run.sourceId ? { sourceRun: true, reprocessAll: run.reprocessAll ?? false } : {};
    const { reprocessAll: _r, ...spec } = run;
    return this.launch(p.accountId, jobId, { ...spec, files, ...sourceRun });
  }

  /** The account's jobs not yet finished (scheduled or in progress). */
  private async activeJobs(accountId: string): Promise<StoredItem[]> {
    return (await this.store.queryPrefix(keys.account(accountId), keys.jobPrefix)).filter((j) => !TERMINAL.includes(j.status as JobStatus));
  }

  private async storeUploads(jobId: string, files: Upload[]): Promise<JobFile[]> {
    const out: JobFile[] = [];
    for (const f of files) {
      const fileId = randomUUID();
      await this.blobs.put(inputKey(jobId, fileId), f.data, f.contentType);
      out.push({ fileId, filename: f.filename, size: f.data.length, contentType: f.contentType });
    }
    return out;
  }

  private async launch(
    accountId: string,
    jobId: string,
    spec: { jobType: string; workflowId: string; workflowName: string; nodes: JobNode[]; files: JobFile[]; sourceId?: string; destinationId?: string; sourceRun?: boolean; reprocessAll?: boolean },
  ): Promise<JobInformation> {
    const { files, ...rest } = spec;
    const manifest = rest.sourceRun ? {} : await writeManifest(this.blobs, jobId, files);
    const item: StoredItem = {
      ...keys.job(accountId, jobId),
      entity: ENTITY.job,
      createdAt: this.clock.now().toISOString(),
      id: jobId,
      status: 'SCHEDULED',
      slotHeld: false,
      ...rest,
      ...manifest,
    };
    await this.store.put(item, { ifNotExists: true });
    let executionArn: string;
    try {
      executionArn = await this.orchestrator.startJob(jobId, { accountId, jobId });
      await this.store.update(keys.job(accountId, jobId), { set: { executionArn } });
    } catch (err) {
      await this.markFailed(accountId, jobId, `could not start the job: ${(err as Error).message}`);
      throw err;
    }
    await this.emit('job.scheduled', item);
    // the job as created (SCHEDULED, as the platform answers): its execution may already have moved
    // it on by now, which GET /jobs/{id} shows
    return this.toInformation({ ...item, executionArn });
  }

  async list(p: Principal, filter: { workflowId?: string; status?: string }): Promise<JobInformation[]> {
    const items = await this.store.queryPrefix(keys.account(p.accountId), keys.jobPrefix);
    return items
      .filter((i) => (!filter.status || i.status === filter.status.toUpperCase()) && (!filter.workflowId || i.workflowId === filter.workflowId))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((i) => this.toInformation(i));
  }

  /** The job; while it runs, with its files by state and the files in progress (as details has them). */
  async get(p: Principal, jobId: string): Promise<JobInformation> {
    const job = await this.load(p.accountId, jobId);
    const info = this.toInformation(job);
    if (job.status !== 'IN_PROGRESS') return info;
    const failures = await this.store.queryPrefix(keys.account(p.accountId), keys.jobFailurePrefix(jobId));
    return { ...info, ...(await this.liveFiles(p.accountId, job, failures)) };
  }

  /** The job's files by state and those in progress, from their items (job-files.ts). */
  private async liveFiles(accountId: string, job: StoredItem, failures: StoredItem[], known?: StoredItem[]) {
    const jobId = String(job.id);
    const items = known ?? (await this.fileProgress.items(accountId, jobId));
    const names = new Map(((job.files as JobFile[] | undefined) ?? []).map((f) => [f.fileId, f.filename]));
    return filesView(items, job.nodes as JobNode[], fileCount(job), countFileFailures(failures, jobId), TERMINAL.includes(job.status as JobStatus), names, this.clock.now());
  }

  async cancel(p: Principal, jobId: string): Promise<{ id: string; status: string; message: string }> {
    const job = await this.load(p.accountId, jobId);
    if (TERMINAL.includes(job.status as JobStatus)) {
      return { id: jobId, status: String(job.status), message: `Job is already ${String(job.status).toLowerCase()}.` };
    }
    let stopped: StoredItem;
    try {
      stopped = await this.store.update(keys.job(p.accountId, jobId), {
        set: { status: 'STOPPED', finishedAt: this.clock.now().toISOString(), message: 'Cancelled by the user.' },
        conditions: [{ attr: 'status', op: 'in', value: ['SCHEDULED', 'IN_PROGRESS'] }],
      });
      // -- a job waiting first in line gives its place up now --
      await this.gate.forget(p.accountId, jobId);
    } catch (err) {
      if (err instanceof Conflict) return this.cancel(p, jobId);
      throw err;
    }
    if (stopped.executionArn) await this.orchestrator.stopJob(String(stopped.executionArn), 'Cancelled by the user');
    await this.gate.release(p.accountId, jobId);
    // (the item as stored: its finishedAt, its message)
    await this.emit('job.stopped', stopped);
    return { id: jobId, status: 'cancelled', message: 'Job successfully cancelled.' };
  }

  /**
   * A node's output for one file: the JSON itself, or, above `inlineMaxBytes` (a Lambda response
   * carries at most 6 MB), a short-lived URL to fetch it from storage directly.
   */
  async download(p: Principal, jobId: string, fileId: string, nodeId?: string, inlineMaxBytes = Infinity): Promise<{ data: Uint8Array } | { url: string }> {
    const job = await this.load(p.accountId, jobId);
    // a job of more files than its item lists: an id it does not list is known by its output
    const ids = listedFileIds(job);
    if (!FILE_ID.test(fileId) || (!ids.includes(fileId) && fileCount(job) <= ids.length)) throw new NotFound(`File ${fileId} not found in job ${jobId}`);
    const nodes = job.nodes as JobNode[];
    const node = nodeId ? nodes.find((n) => n.id === nodeId) : nodes[nodes.length - 1];
    if (!node) throw new NotFound(`Node ${nodeId} not found in job ${jobId}`);
    const key = outputKey(jobId, node.id, fileId);
    const out = await this.blobs.getUpTo(key, inlineMaxBytes);
    if (!out) {
      const failure = await this.store.get(keys.jobFailure(p.accountId, jobId, fileId));
      if (failure) throw new NotFound(`File ${fileId} (${String(failure.document)}) failed and has no output: ${String(failure.error)}`);
      throw new NotFound(`No output yet for file ${fileId} at node ${node.name} (job status ${job.status})`);
    }
    if ('size' in out) return { url: await this.blobs.presignGet(key, DOWNLOAD_URL_SECONDS) };
    return out;
  }

  async details(p: Principal, jobId: string) {
    const job = await this.load(p.accountId, jobId);
    const nodes = job.nodes as JobNode[];
    const total = fileCount(job);
    const failures = await this.store.queryPrefix(keys.account(p.accountId), keys.jobFailurePrefix(jobId));
    const status = job.status as JobStatus;
    const processing =
      status === 'COMPLETED' ? (failures.length ? 'COMPLETED_WITH_ERRORS' : 'SUCCESS') : status;
    const ended = TERMINAL.includes(status);
    const items = await this.fileProgress.items(p.accountId, jobId);
    const stats = await this.fileProgress.stats(p.accountId, jobId, nodes.length, total, ended, items);
    return {
      id: jobId,
      processing_status: processing,
      node_stats: nodes.map((n, i) => ({ node_name: n.name, node_type: n.type, node_subtype: n.subtype, ...stats[i]! })),
      message: (job.message as string | undefined) ?? null,
      // not platform fields: the job's files by state, and the pages read of the files in progress
      ...(await this.liveFiles(p.accountId, job, failures, items)),
      // not a platform field: offline stand-ins used instead of what a node asked for
      warnings: jobWarnings(job),
      // not a platform field: what an incremental run skipped and removed (workflow source runs only)
      ...(sourceDocumentsView(job, total) ? { source_documents: sourceDocumentsView(job, total) } : {}),
    };
  }

  async failedFiles(p: Principal, jobId: string) {
    await this.load(p.accountId, jobId);
    const failures = await this.store.queryPrefix(keys.account(p.accountId), keys.jobFailurePrefix(jobId));
    return { failed_files: failures.map((f) => ({ document: String(f.document), error: String(f.error) })) };
  }

  // ---- state machine steps --------------------------------------------------------------------

  /**
   * Takes a run slot if one is free. Returns the file ids to process once acquired; otherwise how
   * long to wait before the next try, growing from 2 s to 30 s so that a long wait stays far below
   * the 25,000-event history limit of an execution; the oldest waiting job (the gate's head, next in
   * line) asks every HEAD_WAIT_SECONDS at most, so a freed slot does not stay idle.
   */
  async acquireSlot(input: StepInput): Promise<{ acquired: boolean; cancelled: boolean; attempt: number; waitSeconds: number }> {
    const attempt = (input.gate?.attempt ?? 0) + 1;
    const waitSeconds = Math.min(30, 1 + attempt);
    const job = await this.store.get(keys.job(input.accountId, input.jobId));
    if (!job || job.status !== 'SCHEDULED') {
      const resumable = job?.status === 'IN_PROGRESS' && job.slotHeld === true;
      return { acquired: resumable, cancelled: !resumable, attempt, waitSeconds };
    }
    const slot = await this.gate.take(input.accountId, input.jobId, attempt, String(job.createdAt ?? ''));
    if (!slot.taken) return { acquired: false, cancelled: false, attempt, waitSeconds: slot.first ? Math.min(waitSeconds, HEAD_WAIT_SECONDS) : waitSeconds };
    try {
      const updated = await this.store.update(keys.job(input.accountId, input.jobId), {
        set: { status: 'IN_PROGRESS', slotHeld: true, startedAt: this.clock.now().toISOString() },
        remove: ['claimingAt'],
        conditions: [{ attr: 'status', op: 'eq', value: 'SCHEDULED' }],
      });
      await this.emit('job.in_progress', updated);
      return { acquired: true, cancelled: false, attempt, waitSeconds: 0 };
    } catch (err) {
      // Cancelled between the two writes: give the slot back.
      await this.gate.giveBack(input.accountId);
      if (err instanceof Conflict) return { acquired: false, cancelled: true, attempt, waitSeconds: 0 };
      throw err;
    }
  }

  /**
   * The job's file manifest (see job-manifest.ts), read by the file Map. Uploads wrote it at launch;
   * a workflow's source run lists its source now (incremental: only new and changed documents) and
   * records the counts. A listing that fails fails the job, with the reason in its failed files.
   * Planning again (a retry, a resumed job) lists again and rewrites the manifest.
   */
  async planFiles(input: StepInput): Promise<{ manifestKey: string; count: number }> {
    const { accountId, jobId } = input;
    const job = await this.store.get(keys.job(accountId, jobId));
    if (!job) throw new Error(`job ${jobId} not found`);
    if (typeof job.manifestKey === 'string' && (!job.sourceRun || job.planned === true)) {
      return { manifestKey: job.manifestKey, count: fileCount(job) };
    }
    let planned;
    try {
      planned = await this.incremental.plan(
        accountId,
        jobId,
        { workflowId: String(job.workflowId), sourceId: String(job.sourceId), destinationId: job.destinationId ? String(job.destinationId) : undefined, reprocessAll: job.reprocessAll === true },
        this.maxSourceDocuments,
      );
    } catch (err) {
      const reason = (err as Error)?.message ?? String(err);
      await this.fileProgress.putFailure(accountId, jobId, 'source-listing', 'source listing', reason);
      throw err;
    }
    await this.store.update(keys.job(accountId, jobId), { set: { ...planned.manifest, ...planned.fields, planned: true } });
    return { manifestKey: planned.manifest.manifestKey, count: planned.manifest.fileCount };
  }

  /** Runs the node chain of one file (job-file-run.ts). */
  processFile(input: StepInput): Promise<FileRunResult> {
    return this.fileRun.process(input);
  }

  /** The Catch of ProcessFile: a file whose processing kept failing after the retries. */
  async recordFileFailure(input: StepInput): Promise<{ fileId: string; ok: false; error: string }> {
    const job = await this.store.get(keys.job(input.accountId, input.jobId));
    const file = input.file ?? (job?.files as JobFile[] | undefined)?.find((f) => f.fileId === input.fileId);
    const reason = stepErrorReason(input.error, 'processing failed');
    if (job && file) {
      const nodes = job.nodes as JobNode[];
      const progress = await this.fileProgress.get(input.accountId, input.jobId, file.fileId);
      await this.fileProgress.recordFailure(input.accountId, input.jobId, file, currentNode(progress, nodes.length), reason);
    }
    return { fileId: file?.fileId ?? input.fileId!, ok: false, error: reason };
  }

  async finishJob(input: StepInput): Promise<{ status: string }> {
    const jobKey = keys.job(input.accountId, input.jobId);
    await this.gate.release(input.accountId, input.jobId);
    const job = await this.store.get(jobKey);
    if (!job || TERMINAL.includes(job.status as JobStatus)) return { status: String(job?.status ?? 'UNKNOWN') };
    await this.incremental.removeGone(input.accountId, job, (id, document, error) => this.fileProgress.putFailure(input.accountId, input.jobId, id, document, error));
    const unacknowledged = await this.incremental.settleStream(input.accountId, job, this.clock.now().toISOString());
    if (unacknowledged) await this.fileProgress.putFailure(input.accountId, input.jobId, SOURCE_ACK_FAILURE_ID, 'source position', unacknowledged);
    const failures = await this.store.queryPrefix(keys.account(input.accountId), keys.jobFailurePrefix(input.jobId));
    const total = fileCount(job);
    const fileFailures = countFileFailures(failures, input.jobId);
    // a run with nothing to process (every document unchanged) has completed, not failed
    const status: JobStatus = total > 0 && fileFailures >= total ? 'FAILED' : 'COMPLETED';
    const failed =
      status === 'FAILED' ? `All ${total} file(s) failed; see failed-files.` : fileFailures ? `${fileFailures} of ${total} file(s) failed.` : null;
    // node warnings: offline stand-ins (said as such) and others (e.g. enrichment calls that kept the text)
    const warnings = jobWarnings(job);
    const standIns = warnings.filter((w) => /stand-in/.test(w));
    const others = warnings.filter((w) => !/stand-in/.test(w));
    const message =
      [failed, standIns.length ? `Offline stand-ins used: ${standIns.join('; ')}.` : null, others.length ? `Warnings: ${others.join('; ')}.` : null].filter(Boolean).join(' ') || null;
    try {
      const done = await this.store.update(jobKey, {
        set: { status, finishedAt: this.clock.now().toISOString(), message, filesFailed: fileFailures },
        conditions: [{ attr: 'status', op: 'eq', value: 'IN_PROGRESS' }],
      });
      await this.emit(status === 'FAILED' ? 'job.failed' : 'job.completed', done);
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
    }
    return { status };
  }

  /** Every failure path of the state machine ends here; so does the execution-ended cleanup. */
  async failJob(input: StepInput): Promise<{ status: string }> {
    const reason = stepErrorReason(input.error, 'the job failed');
    await this.gate.release(input.accountId, input.jobId);
    await this.markFailed(input.accountId, input.jobId, reason);
    return { status: 'FAILED' };
  }

  // ---- helpers --------------------------------------------------------------------------------

  private parseRequestData(raw: string | undefined): { nodes: JobNode[]; jobType: 'ephemeral' | 'template' } {
    if (raw === undefined || raw.trim() === '') throw ValidationError.single(['body', 'request_data'], 'Field required', 'missing');
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch (err) {
      throw ValidationError.single(['body', 'request_data'], `request_data is not valid JSON: ${(err as Error).message}`, 'json_invalid');
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      throw ValidationError.single(['body', 'request_data'], 'request_data must be a JSON object', 'dict_type');
    }
    const obj = data as { job_nodes?: unknown; template_id?: unknown };
    if ((obj.job_nodes === undefined) === (obj.template_id === undefined)) {
      throw ValidationError.single(['body', 'request_data'], 'Give exactly one of job_nodes and template_id', 'value_error');
    }
    if (obj.template_id !== undefined) {
      const template = typeof obj.template_id === 'string' ? findTemplate(obj.template_id) : undefined;
      if (!template) throw new NotFound(`Template ${String(obj.template_id)} not found`);
      return { nodes: planNodes(template.nodes, ['body', 'request_data', 'template_id']), jobType: 'template' };
    }
    return { nodes: planNodes(obj.job_nodes, ['body', 'request_data', 'job_nodes']), jobType: 'ephemeral' };
  }

  private async markFailed(accountId: string, jobId: string, message: string): Promise<void> {
    try {
      const done = await this.store.update(keys.job(accountId, jobId), {
        set: { status: 'FAILED', finishedAt: this.clock.now().toISOString(), message: withoutServerPaths(message) },
        conditions: [{ attr: 'status', op: 'in', value: ['SCHEDULED', 'IN_PROGRESS'] }],
      });
      await this.emit('job.failed', done);
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
    }
  }


  /** Publishes the job's latest change, at the moment it happened (jobChangedAt). */
  private async emit(type: string, job: StoredItem): Promise<void> {
    const accountId = String(job.PK).replace(/^ACCT#/, '');
    const detail = {
      account_id: accountId,
      job_id: job.id,
      workflow_id: job.workflowId,
      workflow_name: job.workflowName,
      status: job.status,
      job_type: job.jobType,
      message: job.message ?? null,
      // -- the job's files: their number, and once it has finished how many were done and failed --
      files: filesCounts(job),
      ...(jobWarnings(job).length ? { warnings: jobWarnings(job) } : {}),
    };
    await this.events.publish(type, detail, jobChangedAt(job));
  }

  private async load(accountId: string, jobId: string): Promise<StoredItem> {
    const job = await this.store.get(keys.job(accountId, jobId));
    if (!job) throw new NotFound('Job not found');
    return job;
  }

  private toInformation(job: StoredItem): JobInformation {
    const nodes = job.nodes as JobNode[];
    const fileIds = listedFileIds(job);
    const started = job.startedAt ? Date.parse(String(job.startedAt)) : undefined;
    const ended = job.finishedAt ? Date.parse(String(job.finishedAt)) : undefined;
    return {
      id: String(job.id),
      workflow_id: String(job.workflowId),
      workflow_name: String(job.workflowName),
      status: job.status as JobStatus,
      created_at: job.createdAt,
      runtime: started !== undefined ? isoDuration((ended ?? this.clock.now().getTime()) - started) : null,
      input_file_ids: fileIds,
      output_node_files: nodes.flatMap((n) => fileIds.map((id) => ({ node_id: n.id, file_id: id, node_type: n.type, node_subtype: n.subtype }))),
      job_type: job.jobType as JobInformation['job_type'],
      message: (job.message as string | undefined) ?? null,
      files: filesCounts(job),
    };
  }
}

/** The job's file counts as its item records them: the total, and once finished the done and failed. */
function filesCounts(job: StoredItem): { total: number; done?: number; failed?: number } {
  const total = fileCount(job);
  return typeof job.filesFailed === 'number' ? { total, done: Math.max(0, total - job.filesFailed), failed: job.filesFailed } : { total };
}
