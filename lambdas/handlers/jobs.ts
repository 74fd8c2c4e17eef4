// Job endpoints (spec §4.3): thin wrappers over JobService.
import { httpRoute } from '../http/handler';
import { routeById } from '../routes';
import { services } from '../services';
import { reply } from '../http/response';

type JobParams = { job_id: string };

export const listJobs = httpRoute(routeById('list_jobs'), async ({ principal, query }) => {
  const q = query as { workflow_id?: string; status?: string };
  return services().jobs.list(principal, { workflowId: q.workflow_id, status: q.status });
});

export const createJob = httpRoute(routeById('create_job'), async ({ principal, form }) => {
  const requestData = form!.fields.request_data?.[0];
  return services().jobs.create(
    principal,
    requestData,
    form!.files.map((f) => ({ filename: f.filename, contentType: f.contentType, data: f.data })),
  );
});

export const getJob = httpRoute(routeById('get_job'), async ({ principal, params }) =>
  services().jobs.get(principal, (params as JobParams).job_id),
);

export const cancelJob = httpRoute(routeById('cancel_job'), async ({ principal, params }) =>
  services().jobs.cancel(principal, (params as JobParams).job_id),
);

export const downloadJobOutput = httpRoute(routeById('download_job_output'), async ({ principal, params, query }) => {
  const q = query as { file_id: string; node_id?: string };
  const data = await services().jobs.download(principal, (params as JobParams).job_id, q.file_id, q.node_id);
  return reply({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(data).toString('utf8') });
});

export const getJobDetails = httpRoute(routeById('get_job_details'), async ({ principal, params }) =>
  services().jobs.details(principal, (params as JobParams).job_id),
);

export const getJobFailedFiles = httpRoute(routeById('get_job_failed_files'), async ({ principal, params }) =>
  services().jobs.failedFiles(principal, (params as JobParams).job_id),
);
