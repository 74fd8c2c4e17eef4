// Workflow shapes (api-shapes.md §2, §3 Workflows).
import { z } from 'zod';
import { lenientTimestamp, queryBool, shortString, templateIdString, uuidParam } from './common';
import { WORKFLOW_SORT_FIELDS, WORKFLOW_TYPES, SCHEDULES, SCHEDULE_HINT, cronOf } from '../domain/workflow-constants';
import { boundedObject, nameString, nodeIdString } from '../validation';
import { PROMPTER_SUBTYPES } from '../engine/enrichment/catalog';
import { ALLOWED_NEXT, NODE_SUBTYPES } from '../domain/job-nodes';
import { PrompterSettings } from '../engine/enrichment/settings';

/** The node settings the API documents beside the engines' own parsers (names from their schemas, so they cannot drift). */
const SETTINGS_TEXT =
  `Settings of the node's type (each engine validates its own; a bad value is a 422 at its field). ` +
  `prompter (${Object.keys(PROMPTER_SUBTYPES).join(', ')}): ${Object.keys(PrompterSettings.shape).join(', ')}; credentials default to the deployment's (OPENAI_API_KEY, ANTHROPIC_API_KEY, BEDROCK_ENDPOINT_URL, VERTEX_API_KEY, ...) for the provider's own endpoint or the deployment's *_BASE_URL only; a prompter or embed node naming another base_url / endpoint_url / azure_endpoint must give its own api_key (Bedrock: aws_access_key_id and aws_secret_access_key). ` +
  `chunk: contextual_chunking_strategy "v1" (with contextual_chunking_provider, contextual_chunking_model, contextual_chunking_api_key, contextual_chunking_concurrency) prefixes each chunk with a model-written context.`;

/** A node as sent: bounded strings, settings at most 64 KiB (the engines' parsers check the values). */
const WorkflowNodeInput = z.object({
  id: nodeIdString.nullish(),
  name: nameString,
  type: shortString.meta({
    description: 'partition, prompter, chunk or embed, in the order Partitioner→[Prompter…→]Chunker[→Embedder] (or Partitioner→Embedder)',
    'x-allowed-next': ALLOWED_NEXT,
  }),
  subtype: shortString.meta({ description: "The node type's subtype (x-subtypes lists them by type)", 'x-subtypes': NODE_SUBTYPES }),
  settings: boundedObject('settings').nullish().meta({ description: SETTINGS_TEXT }),
});

/** At most this many nodes in a graph (a valid chain has three: partition, chunk, embed). */
const MAX_NODES = 10;

const WorkflowNode = z.object({
  id: z.string().nullish(),
  name: z.string(),
  type: z.string(),
  subtype: z.string(),
  settings: z.record(z.string(), z.unknown()).nullish(),
});

/** The platform types `schedule` as a free string: a named schedule or a crontab expression (UTC). */
const Schedule = z
  .string()
  .max(200)
  .refine((s) => cronOf(s) !== undefined, SCHEDULE_HINT)
  .meta({
    description: `One of ${Object.keys(SCHEDULES).map((s) => `'${s}'`).join(', ')}, or a 5-field crontab expression evaluated in UTC (echoed back as given in schedule.crontab_entries)`,
    examples: ['daily', '*/30 9-17 * * MON-FRI'],
  });

export const CreateWorkflow = z
  .object({
    name: nameString,
    workflow_type: z.enum(WORKFLOW_TYPES),
    source_id: uuidParam.nullish(),
    destination_id: uuidParam.nullish(),
    workflow_nodes: z.array(WorkflowNodeInput).max(MAX_NODES).nullish(),
    schedule: Schedule.nullish(),
    reprocess_all: z.boolean().nullish(),
    template_id: templateIdString.nullish(),
  })
  .meta({ id: 'CreateWorkflow' });

/** Every CreateWorkflow field, optional and nullable (only given fields change). */
export const UpdateWorkflow = CreateWorkflow.extend({
  name: nameString.nullish(),
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
  dag_node_configuration_id: shortString.optional(),
  source_id: shortString.optional(),
  destination_id: shortString.optional(),
  status: z.enum(['active', 'inactive']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  created_since: lenientTimestamp.optional(),
  created_before: lenientTimestamp.optional(),
  name: z.string().max(255).optional(),
  sort_by: z.enum(WORKFLOW_SORT_FIELDS).default('id'),
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
