// Workflow tools: the WorkflowService the REST routes call; list filters parsed by the REST route's
// own query schema, bodies by its body schemas.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { namedUploads, workflowService } from '../services/jobs';
import { routeById } from '../routes';
import { parseOr422 } from '../validation';
import { CreateWorkflow, UpdateWorkflow } from '../schemas/workflows';
import { uuidParam } from '../schemas/common';
import { WORKFLOW_SORT_FIELDS } from '../domain/workflow-constants';
import type { WorkflowInput, WorkflowListQuery } from '../domain/workflows';
import { addTool, asQuery, CREATE, DESTROY, READ, UPDATE, type McpContext } from './context';
import { ok } from './results';

const workflowId = z.object({ workflow_id: uuidParam.describe("The workflow's id") });

export function registerWorkflowTools(server: McpServer, ctx: McpContext): void {
  const svc = () => workflowService();

  addTool(server, 'list_workflows', {
    title: 'List workflows',
    description: 'List the workflows of this account (a source, processing nodes and a destination, run on demand or on a schedule), paged and filterable.',
    annotations: READ,
  }, z.object({
    source_id: z.string().max(100).optional().describe('Only workflows reading this source'),
    destination_id: z.string().max(100).optional().describe('Only workflows writing this destination'),
    status: z.enum(['active', 'inactive']).optional(),
    name: z.string().max(255).optional().describe('Only workflows whose name contains this'),
    page: z.number().int().min(1).optional(),
    page_size: z.number().int().min(1).max(100).optional().describe('Default 20'),
    sort_by: z.enum(WORKFLOW_SORT_FIELDS).optional(),
    sort_direction: z.enum(['asc', 'desc']).optional(),
    show_only_soft_deleted: z.boolean().optional(),
  }), async (args) => {
    const query = parseOr422(routeById('list_workflows').query!, asQuery(args), ['query']) as WorkflowListQuery;
    return ok({ items: await svc().list(ctx.principal, query) });
  });

  addTool(server, 'get_workflow', {
    title: 'Get a workflow',
    description: 'Get one workflow: its source and destination ids, nodes (partition, prompter, chunk, embed with their settings), schedule and status.',
    annotations: READ,
  }, workflowId, async ({ workflow_id }) => ok(await svc().get(ctx.principal, workflow_id)));

  addTool(server, 'create_workflow', {
    title: 'Create a workflow',
    description:
      'Create a workflow from a source to a destination. Give either template_id (list_templates) or workflow_nodes ' +
      '(Partitioner→[Prompter…→]Chunker[→Embedder]); workflow_type "custom" with nodes, or "basic"/"advanced"/"platinum" for preset nodes. ' +
      'schedule is optional (a name such as "daily" or a crontab in UTC). Run it with run_workflow.',
    annotations: CREATE,
  }, z.object(CreateWorkflow.shape), async (body) => ok(await svc().create(ctx.principal, body as WorkflowInput)));

  addTool(server, 'update_workflow', {
    title: 'Update a workflow',
    description: 'Change a workflow: only the fields given change (name, source, destination, nodes, schedule, reprocess_all).',
    annotations: UPDATE,
  }, UpdateWorkflow.extend(workflowId.shape), async ({ workflow_id, ...body }) =>
    ok(await svc().update(ctx.principal, workflow_id, body as WorkflowInput)));

  addTool(server, 'delete_workflow', {
    title: 'Delete a workflow',
    description: 'Delete a workflow (soft: its jobs stay readable; it no longer runs or appears in lists).',
    annotations: DESTROY,
  }, workflowId, async ({ workflow_id }) => ok(await svc().delete(ctx.principal, workflow_id)));

  addTool(server, 'run_workflow', {
    title: 'Run a workflow',
    description:
      'Start a job of the workflow now (over its source; or over uploaded files named by input_upload_ids, see create_upload). ' +
      'Refused (409) while another job of it is active. Follow the job with wait_for_job or get_job.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  }, workflowId.extend({
    input_upload_ids: z.array(uuidParam).max(10).optional().describe('Ids of presigned uploads (create_upload) to process instead of the source'),
  }), async ({ workflow_id, input_upload_ids }) =>
    ok(await svc().run(ctx.principal, workflow_id, [], namedUploads(ctx.principal, input_upload_ids?.length ? { input_upload_ids } : undefined))));
}
