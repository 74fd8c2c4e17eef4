// Job endpoints (spec §4.3): thin wrappers over JobService.
import { httpRoute } from '../http/handler';
import { routeById } from '../routes';
import { jobService } from '../services/jobs';
import { reply } from '../http/response';

type JobParams = { job_id: string };

export const listJobs = httpRoute(routeById('list_jobs'), async ({ principal, query }) => {
  const q = query as { workflow_id?: string; status?: string };
  return jobService().list(principal, { workflowId: q.workflow_id, status: q.status });
});

export const createJob = httpRoute(routeById('create_job'), async ({ principal, form }) => {
  const requestData = form!.fields.request_data?.[0];
  return jobService().create(
    principal,
    requestData,
    form!.files.map((f) => ({ filename: f.filename, contentType: f.contentType, data: f.data })),
  );
});

export const getJob = httpRoute(routeById('get_job'), async ({ principal, params }) =>
  jobService().get(principal, (params as JobParams).job_id),
);

export const cancelJob = httpRoute(routeById('cancel_job'), async ({ principal, params }) =>
  jobService().cancel(principal, (params as JobParams).job_id),
);

export const downloadJobOutput = httpRoute(routeById('download_job_output'), async ({ principal, params, query }) => {
  const q = query as { file_id: string; node_id?: string };
  const data = await jobService().download(principal, (params as JobParams).job_id, q.file_id, q.node_id);
  return reply({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(data).toString('utf8') });
});

export const getJobDetails = httpRoute(routeById('get_job_details'), async ({ principal, params }) =>
  jobService().details(principal, (params as JobParams).job_id),
);

export const getJobFailedFiles = httpRoute(routeById('get_job_failed_files'), async ({ principal, params }) =>
  jobService().failedFiles(principal, (params as JobParams).job_id),
);
