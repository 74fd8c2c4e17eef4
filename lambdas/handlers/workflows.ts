// Workflow endpoints (spec §4.5): thin wrappers over WorkflowService.
import { httpRoute } from '../http/handler';
import { routeById } from '../routes';
import { namedUploads, workflowService } from '../services/jobs';
import type { WorkflowInput, WorkflowListQuery } from '../domain/workflows';

type Params = { workflow_id: string };

export const createWorkflow = httpRoute(routeById('create_workflow'), async ({ principal, body }) =>
  workflowService().create(principal, body as WorkflowInput),
);

export const listWorkflows = httpRoute(routeById('list_workflows'), async ({ principal, query }) =>
  workflowService().list(principal, query as WorkflowListQuery),
);

export const getWorkflow = httpRoute(routeById('get_workflow'), async ({ principal, params }) =>
  workflowService().get(principal, (params as Params).workflow_id),
);

export const updateWorkflow = httpRoute(routeById('update_workflow'), async ({ principal, params, body }) =>
  workflowService().update(principal, (params as Params).workflow_id, body as WorkflowInput),
);

export const deleteWorkflow = httpRoute(routeById('delete_workflow'), async ({ principal, params }) =>
  workflowService().delete(principal, (params as Params).workflow_id),
);

export const runWorkflow = httpRoute(routeById('run_workflow'), async ({ principal, params, form }) =>
  workflowService().run(
    principal,
    (params as Params).workflow_id,
    (form?.files ?? []).map((f) => ({ filename: f.filename, contentType: f.contentType, data: f.data })),
    namedUploads(principal, form?.fields),
  ),
);
