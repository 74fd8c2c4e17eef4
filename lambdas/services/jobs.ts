// Composition root of the job area: jobs, uploads, workflows, notifications.
import { config } from '../config';
import { S3BlobStore } from '../adapters/s3-blob-store';
import { SfnOrchestrator } from '../adapters/sfn-orchestrator';
import { EventBridgePublisher } from '../adapters/eventbridge-publisher';
import { JobService } from '../domain/jobs';
import { WorkflowService } from '../domain/workflows';
import { UploadService, type UploadedFile } from '../domain/uploads';
import type { Principal } from '../domain/auth';
import { arrayValues } from '../validation';
import { NotificationRecorder } from '../domain/notifications';
import type { BlobStore, Orchestrator } from '../domain/ports';
import { lazySecretBox } from '../adapters/secret-box';
import type { NodeRunner } from '../domain/node-runner';
import { JobPages, type PageEngine } from '../domain/job-pages';
import { accountQuotas, coreStore } from './core';
import { accountAudience } from './notifications';
import { connectorService } from './connectors';

let jobs: JobService | undefined;
let workflows: WorkflowService | undefined;
let notifications: NotificationRecorder | undefined;
let uploads: UploadService | undefined;
let runner: NodeRunner | undefined;
let pages: JobPages | undefined;
let blobs: BlobStore | undefined;

/** Called by the job-step handler, the only place that bundles the engines. */
export function useNodeRunner(r: NodeRunner): void {
  runner = r;
  jobs = undefined;
  workflows = undefined;
}

const unconfiguredOrchestrator: Orchestrator = {
  startJob: async () => {
    throw new Error('JOB_STATE_MACHINE_ARN is not configured');
  },
  stopJob: async () => undefined,
};

export function jobService(): JobService {
  if (jobs) return jobs;
  const c = config();
  jobs = new JobService(
    coreStore(),
    new S3BlobStore(c.BUCKET_NAME),
    c.JOB_STATE_MACHINE_ARN ? new SfnOrchestrator(c.JOB_STATE_MACHINE_ARN) : unconfiguredOrchestrator,
    new EventBridgePublisher(c.EVENT_BUS_NAME),
    connectorService(),
    lazySecretBox,
    runner,
    undefined,
    accountQuotas(),
  );
  jobs.maxSourceDocuments = c.SOURCE_MAX_DOCUMENTS_PER_RUN;
  return jobs;
}

/** The page fan-out steps (job-pages.ts); the engine comes from the handler that bundles it. */
export function jobPages(engine: PageEngine): JobPages {
  return (pages ??= new JobPages(coreStore(), new S3BlobStore(config().BUCKET_NAME), lazySecretBox, engine, (input) => jobService().recordFileFailure(input)));
}

/** The job data bucket (uploaded inputs, outputs, oversized partition results). */
export function jobBlobs(): BlobStore {
  return (blobs ??= new S3BlobStore(config().BUCKET_NAME));
}

export function uploadService(): UploadService {
  return (uploads ??= new UploadService(coreStore(), new S3BlobStore(config().BUCKET_NAME), undefined, accountQuotas()));
}

/** The presigned uploads a create-job or run-workflow form names; claimed only once the request passed its checks. */
export function namedUploads(principal: Principal, fields: Record<string, string[]> | undefined): { count: number; claim: () => Promise<UploadedFile[]> } {
  const ids = arrayValues(fields?.input_upload_ids);
  return { count: ids.length, claim: () => (ids.length ? uploadService().claim(principal, ids) : Promise.resolve([])) };
}

export function workflowService(): WorkflowService {
  return (workflows ??= new WorkflowService(coreStore(), connectorService(), jobService(), lazySecretBox, undefined, accountQuotas()));
}

export function notificationRecorder(): NotificationRecorder {
  return (notifications ??= new NotificationRecorder(coreStore(), accountAudience));
}

export function resetJobServices(): void {
  jobs = undefined;
  pages = undefined;
  workflows = undefined;
  uploads = undefined;
  notifications = undefined;
  blobs = undefined;
}
