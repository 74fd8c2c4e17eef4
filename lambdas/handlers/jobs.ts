// Job endpoints (spec §4.3): thin wrappers over JobService.
import { httpRoute } from '../http/handler';
import { routeById } from '../routes';
import { jobService, namedUploads, uploadService } from '../services/jobs';
import { reply } from '../http/response';
import { config } from '../config';

type JobParams = { job_id: string };

export const listJobs = httpRoute(routeById('list_jobs'), async ({ principal, query }) => {
  const q = query as { workflow_id?: string; status?: string };
  return jobService().list(principal, { workflowId: q.workflow_id, status: q.status });
});

export const createJob = httpRoute(routeById('create_job'), async ({ principal, form }) => {
  const requestData = form!.fields.request_data?.[0];
  const uploads = namedUploads(principal, form!.fields);
  return jobService().create(
    principal,
    requestData,
    form!.files.map((f) => ({ filename: f.filename, contentType: f.contentType, data: f.data })),
    uploads.claim,
    uploads.count,
  );
});

export const createUpload = httpRoute(routeById('create_upload'), async ({ principal, body }) =>
  uploadService().create(principal, body as { filename: string; content_type?: string; size: number }),
);

export const getJob = httpRoute(routeById('get_job'), async ({ principal, params }) =>
  jobService().get(principal, (params as JobParams).job_id),
);

export const cancelJob = httpRoute(routeById('cancel_job'), async ({ principal, params }) =>
  jobService().cancel(principal, (params as JobParams).job_id),
);

export const downloadJobOutput = httpRoute(routeById('download_job_output'), async ({ principal, params, query }) => {
  const q = query as { file_id: string; node_id?: string };
  const out = await jobService().download(principal, (params as JobParams).job_id, q.file_id, q.node_id, config().DOWNLOAD_INLINE_MAX_BYTES);
  // -- above a Lambda response's 6 MB: a redirect to a short-lived storage URL (clients follow it) --
  if ('url' in out) return reply({ statusCode: 307, headers: { location: out.url }, body: '' });
  return reply({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(out.data).toString('utf8') });
});

export const getJobDetails = httpRoute(routeById('get_job_details'), async ({ principal, params }) =>
  jobService().details(principal, (params as JobParams).job_id),
);

export const getJobFailedFiles = httpRoute(routeById('get_job_failed_files'), async ({ principal, params }) =>
  jobService().failedFiles(principal, (params as JobParams).job_id),
);
