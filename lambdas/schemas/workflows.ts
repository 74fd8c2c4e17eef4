// Workflow shapes (api-shapes.md §2, §3 Workflows).
import { z } from 'zod';
import { queryBool, uuidParam } from './common';
import { WORKFLOW_TYPES, SCHEDULES } from '../domain/workflow-constants';

const WorkflowNode = z.object({
  id: z.string().nullish(),
  name: z.string(),
  type: z.string(),
  subtype: z.string(),
  settings: z.record(z.string(), z.unknown()).nullish(),
});

const Schedule = z.enum(Object.keys(SCHEDULES) as [string, ...string[]]);

export const CreateWorkflow = z
  .object({
    name: z.string().min(1),
    workflow_type: z.enum(WORKFLOW_TYPES),
    source_id: uuidParam.nullish(),
    destination_id: uuidParam.nullish(),
    workflow_nodes: z.array(WorkflowNode).nullish(),
    schedule: Schedule.nullish(),
    reprocess_all: z.boolean().nullish(),
    template_id: z.string().nullish(),
  })
  .meta({ id: 'CreateWorkflow' });

/** Every CreateWorkflow field, optional and nullable (only given fields change). */
export const UpdateWorkflow = CreateWorkflow.extend({
  name: z.string().min(1).nullish(),
  workflow_type: z.enum(WORKFLOW_TYPES).nullish(),
}).meta({ id: 'UpdateWorkflow' });

export const WorkflowInformation = z
  .object({
    id: z.uuid(),
    name: z.string(),
    sources: z.array(z.string()),
    destinations: z.array(z.string()),
    workflow_type: z.enum(WORKFLOW_TYPES).nullable(),
    workflow_nodes: z.array(WorkflowNode.extend({ id: z.string() })),
    schedule: z.object({ crontab_entries: z.array(z.object({ cron_expression: z.string() })) }).nullable(),
    status: z.enum(['active', 'inactive']),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime().nullable(),
    reprocess_all: z.boolean().nullable(),
  })
  .meta({ id: 'WorkflowInformation' });

export const WorkflowIdParams = z.object({ workflow_id: uuidParam });

export const WorkflowListQuery = z.object({
  dag_node_configuration_id: z.string().optional(),
  source_id: z.string().optional(),
  destination_id: z.string().optional(),
  status: z.enum(['active', 'inactive']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  created_since: z.iso.datetime({ offset: true }).optional(),
  created_before: z.iso.datetime({ offset: true }).optional(),
  name: z.string().optional(),
  sort_by: z.string().default('id'),
  sort_direction: z.enum(['asc', 'desc']).default('asc'),
  show_only_soft_deleted: queryBool.default(false),
  show_recommender_workflows: queryBool.default(false),
});

export const RunWorkflowForm = z
  .object({
    input_files: z.array(z.string().meta({ format: 'binary' })).optional(),
    input_upload_ids: z.array(z.string()).optional().meta({ description: 'Extension: ids of presigned uploads (POST /api/v1/uploads/)' }),
  })
  .meta({ id: 'Body_run_workflow' });
