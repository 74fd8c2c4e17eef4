// The route table: the single source of truth for every HTTP endpoint. The CDK API construct
// creates one Lambda per entry from it, the local router dispatches with it, the OpenAPI document
// is generated from it, and each handler takes its validation schemas from its own entry.
import { z } from 'zod';
import {
  ConnectorInformation,
  CreateConnector,
  DagNodeConnectionCheck,
  DeleteResponse,
  DestinationIdParams,
  DestinationListQuery,
  SourceIdParams,
  SourceListQuery,
  UpdateConnector,
} from './schemas/connectors';
import { PartitionForm, PartitionResponse } from './schemas/partition';
import {
  CancelResponse,
  CreateJobForm,
  CreateUploadBody,
  UploadTicket,
  DownloadQuery,
  JobDetails,
  JobFailedFiles,
  JobIdParams,
  JobInformation,
  JobListQuery,
  TemplateDetail,
  TemplateIdParams,
  TemplateListItem,
} from './schemas/jobs';
import { CreateWorkflow, RunWorkflowForm, UpdateWorkflow, WorkflowIdParams, WorkflowInformation, WorkflowListQuery } from './schemas/workflows';
import type { MultipartLimits } from './http/multipart';
import { DocsQuery } from './schemas/docs';
import { McpAnswer, McpMessage } from './schemas/mcp';
import { ConsoleQuery } from './schemas/console';
import {
  ChannelIdParams,
  ChannelListQuery,
  ChannelListResponse,
  ChannelResponse,
  ChannelTestResponse,
  CreateChannelRequest,
  UpdateChannelRequest,
  VerifyChannelRequest,
  WorkflowChannelIdParams,
  WorkflowChannelListParams,
} from './schemas/channels';
import {
  MarkReadRequest,
  MarkReadResponse,
  NotificationIdParams,
  NotificationListQuery,
  NotificationListResponse,
  NotificationResponse,
  UnreadCountQuery,
  UnreadCountResponse,
} from './schemas/notifications';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  operationId: string;
  method: HttpMethod;
  /** API path with {param} placeholders; collection paths keep their trailing slash as documented. */
  path: string;
  /** Handler module under lambdas/handlers (without extension) and its export. */
  handler: { file: string; export: string };
  tag: string;
  summary: string;
  /** Longer OpenAPI description, where the summary cannot say how a client reads the answer. */
  description?: string;
  /** Headers of the success response a client may read (name → what it carries). */
  responseHeaders?: Record<string, string>;
  auth?: boolean;
  status?: number;
  /**
   * Error statuses the route's own domain code can answer (409, 400...). The OpenAPI document adds
   * those of the shared HTTP layer itself (401, 404, 413, 415, 422, 429: see lambdas/openapi.ts).
   */
  errors?: number[];
  /** Redirect statuses the route answers with a Location header (307 for outputs above 6 MB). */
  redirects?: number[];
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  multipart?: MultipartLimits & { schema: z.ZodType };
  response?: z.ZodType;
  /** Response media type when not JSON. */
  responseType?: string;
  /**
   * Export of the same handler module that answers with a streamed web Response (SSE), for a runtime
   * that can stream one (the local router); API Gateway and Lambda use `handler.export` (buffered).
   */
  streamExport?: string;
  /** Lambda sizing hints for CDK (heavy routes such as partition). */
  memoryMb?: number;
  timeoutSeconds?: number;
}

const MB = 1024 * 1024;

function connectorRoutes(kind: 'source' | 'destination'): RouteDefinition[] {
  const plural = kind === 'source' ? 'sources' : 'destinations';
  const Kind = kind === 'source' ? 'Source' : 'Destination';
  const idParams = kind === 'source' ? SourceIdParams : DestinationIdParams;
  const idName = `${kind}_id`;
  const file = 'connectors';
  const tag = plural;
  return [
    {
      operationId: `list_${plural}`, method: 'GET', path: `/api/v1/${plural}/`, tag,
      summary: `List ${plural}`, handler: { file, export: `list${Kind}s` },
      query: kind === 'source' ? SourceListQuery : DestinationListQuery, response: z.array(ConnectorInformation),
    },
    {
      operationId: `create_${kind}`, method: 'POST', path: `/api/v1/${plural}/`, tag,
      summary: `Create ${kind} connector`, handler: { file, export: `create${Kind}` },
      body: CreateConnector, response: ConnectorInformation,
    },
    {
      operationId: `get_${kind}`, method: 'GET', path: `/api/v1/${plural}/{${idName}}`, tag,
      summary: `Get ${kind} connector`, handler: { file, export: `get${Kind}` },
      params: idParams, response: ConnectorInformation,
    },
    {
      operationId: `update_${kind}`, method: 'PUT', path: `/api/v1/${plural}/{${idName}}`, tag,
      summary: `Update ${kind} connector`, handler: { file, export: `update${Kind}` },
      params: idParams, body: UpdateConnector, response: ConnectorInformation,
    },
    {
      operationId: `delete_${kind}`, method: 'DELETE', path: `/api/v1/${plural}/{${idName}}`, tag,
      summary: `Delete ${kind} connector`, handler: { file, export: `delete${Kind}` },
      params: idParams, response: DeleteResponse,
    },
    {
      operationId: `create_connection_check_${plural}`, method: 'POST', path: `/api/v1/${plural}/{${idName}}/connection-check`, tag,
      summary: `Start a connection check of a ${kind}`, handler: { file, export: `create${Kind}Check` },
      params: idParams, status: 202, response: DagNodeConnectionCheck,
    },
    {
      operationId: `get_connection_check_${plural}`, method: 'GET', path: `/api/v1/${plural}/{${idName}}/connection-check`, tag,
      summary: `Latest connection check of a ${kind}`, handler: { file, export: `get${Kind}Check` },
      params: idParams, response: DagNodeConnectionCheck,
    },
  ];
}

/** Notification channels (spec §4.6): the same six operations per scope, paths without a trailing slash. */
function channelRoutes(scope: 'account' | 'workflow'): RouteDefinition[] {
  const base = scope === 'account' ? '/api/v1/notifications/channels' : '/api/v1/workflows/{workflow_id}/notifications/channels';
  const op = scope === 'account' ? '' : 'workflow_';
  const fn = scope === 'account' ? '' : 'Workflow';
  const where = scope === 'account' ? 'of the account (hears every workflow)' : 'of one workflow';
  const listParams = scope === 'account' ? undefined : WorkflowChannelListParams;
  const idParams = scope === 'account' ? ChannelIdParams : WorkflowChannelIdParams;
  const file = 'channels';
  const tag = 'notification-channels';
  return [
    {
      operationId: `create_${op}channel`, method: 'POST', path: base, tag, status: 201,
      summary: `Create a webhook or email channel ${where}`, handler: { file, export: `create${fn}Channel` },
      params: listParams, body: CreateChannelRequest, response: ChannelResponse, errors: [409],
    },
    {
      operationId: `list_${op}channels`, method: 'GET', path: base, tag,
      summary: `List channels ${where}`, handler: { file, export: `list${fn}Channels` },
      params: listParams, query: ChannelListQuery, response: ChannelListResponse,
    },
    {
      operationId: `get_${op}channel`, method: 'GET', path: `${base}/{channel_id}`, tag,
      summary: `Get a channel ${where}`, handler: { file, export: `get${fn}Channel` }, params: idParams, response: ChannelResponse,
    },
    {
      operationId: `update_${op}channel`, method: 'PATCH', path: `${base}/{channel_id}`, tag,
      summary: `Update a channel ${where} (only the fields sent)`, handler: { file, export: `update${fn}Channel` },
      params: idParams, body: UpdateChannelRequest, response: ChannelResponse, errors: [409],
    },
    {
      operationId: `delete_${op}channel`, method: 'DELETE', path: `${base}/{channel_id}`, tag, status: 204,
      summary: `Delete a channel ${where}`, handler: { file, export: `delete${fn}Channel` }, params: idParams,
    },
    {
      operationId: `verify_${op}channel`, method: 'POST', path: `${base}/{channel_id}/verify`, tag, status: 204,
      summary: `Verify an email channel ${where} with the emailed six-digit code`, handler: { file, export: `verify${fn}Channel` },
      params: idParams, body: VerifyChannelRequest, errors: [400],
    },
    {
      operationId: `test_${op}channel`, method: 'POST', path: `${base}/{channel_id}/test`, tag,
      summary: `Send a signed test event to a webhook channel ${where} and report the receiver's answer (extension)`,
      handler: { file, export: `test${fn}Channel` }, params: idParams, response: ChannelTestResponse, errors: [400],
    },
  ];
}

export const ROUTES: RouteDefinition[] = [
  {
    operationId: 'healthcheck', method: 'GET', path: '/healthcheck', tag: 'general', auth: false,
    summary: 'Health check', handler: { file: 'meta', export: 'healthcheck' },
    response: z.object({ healthcheck: z.string() }),
  },
  {
    operationId: 'openapi', method: 'GET', path: '/openapi.json', tag: 'general', auth: false,
    summary: 'OpenAPI description of this API', handler: { file: 'meta', export: 'openapi' },
  },
  {
    operationId: 'docs', method: 'GET', path: '/docs', tag: 'general', auth: false,
    summary: 'Interactive API reference (Swagger UI, served by the service)', handler: { file: 'meta', export: 'docs' }, responseType: 'text/html',
    query: DocsQuery,
  },
  {
    operationId: 'console', method: 'GET', path: '/console', tag: 'general', auth: false,
    summary: 'The web console (a single page over this API; `/` redirects here)', handler: { file: 'meta', export: 'console' }, responseType: 'text/html',
    query: ConsoleQuery,
  },
  ...connectorRoutes('destination'),
  ...connectorRoutes('source'),
  {
    operationId: 'create_workflow', method: 'POST', path: '/api/v1/workflows/', tag: 'workflows',
    summary: 'Create a workflow', handler: { file: 'workflows', export: 'createWorkflow' }, body: CreateWorkflow, response: WorkflowInformation,
  },
  {
    operationId: 'list_workflows', method: 'GET', path: '/api/v1/workflows/', tag: 'workflows',
    summary: 'List workflows', handler: { file: 'workflows', export: 'listWorkflows' }, query: WorkflowListQuery, response: z.array(WorkflowInformation),
  },
  {
    operationId: 'get_workflow', method: 'GET', path: '/api/v1/workflows/{workflow_id}', tag: 'workflows',
    summary: 'Get a workflow', handler: { file: 'workflows', export: 'getWorkflow' }, params: WorkflowIdParams, response: WorkflowInformation,
  },
  {
    operationId: 'update_workflow', method: 'PUT', path: '/api/v1/workflows/{workflow_id}', tag: 'workflows',
    summary: 'Update a workflow', handler: { file: 'workflows', export: 'updateWorkflow' }, params: WorkflowIdParams, body: UpdateWorkflow, response: WorkflowInformation,
  },
  {
    operationId: 'delete_workflow', method: 'DELETE', path: '/api/v1/workflows/{workflow_id}', tag: 'workflows',
    summary: 'Delete (soft) a workflow', handler: { file: 'workflows', export: 'deleteWorkflow' }, params: WorkflowIdParams, response: DeleteResponse,
  },
  {
    operationId: 'run_workflow', method: 'POST', path: '/api/v1/workflows/{workflow_id}/run', tag: 'workflows',
    summary: 'Run a workflow now (a new job, unless one is active)', handler: { file: 'workflows', export: 'runWorkflow' },
    params: WorkflowIdParams, status: 202, response: JobInformation, errors: [409],
    multipart: { maxFiles: 10, maxFileBytes: 50 * 1000 * 1000, fileFields: ['input_files'], schema: RunWorkflowForm, optional: true },
  },
  {
    operationId: 'list_jobs', method: 'GET', path: '/api/v1/jobs/', tag: 'jobs',
    summary: 'List jobs', handler: { file: 'jobs', export: 'listJobs' }, query: JobListQuery, response: z.array(JobInformation),
  },
  {
    operationId: 'create_job', method: 'POST', path: '/api/v1/jobs/', tag: 'jobs',
    summary: 'Create an on-demand job from uploaded files', handler: { file: 'jobs', export: 'createJob' },
    multipart: { maxFiles: 10, maxFileBytes: 50 * 1000 * 1000, fileFields: ['input_files'], schema: CreateJobForm },
    response: JobInformation,
  },
  {
    // -- extension (not in the platform API): files above API Gateway's 10 MB request cap --
    operationId: 'create_upload', method: 'POST', path: '/api/v1/uploads/', tag: 'jobs', status: 201,
    summary: 'Get a presigned URL to upload one large job input file (then name it in input_upload_ids)',
    handler: { file: 'jobs', export: 'createUpload' }, body: CreateUploadBody, response: UploadTicket,
  },
  {
    operationId: 'get_job', method: 'GET', path: '/api/v1/jobs/{job_id}', tag: 'jobs',
    summary: 'Get a job', handler: { file: 'jobs', export: 'getJob' }, params: JobIdParams, response: JobInformation,
  },
  {
    operationId: 'cancel_job', method: 'POST', path: '/api/v1/jobs/{job_id}/cancel', tag: 'jobs',
    summary: 'Cancel a job', handler: { file: 'jobs', export: 'cancelJob' }, params: JobIdParams, response: CancelResponse,
  },
  {
    operationId: 'download_job_output', method: 'GET', path: '/api/v1/jobs/{job_id}/download', tag: 'jobs',
    summary: 'Download the output of a node for one input file', handler: { file: 'jobs', export: 'downloadJobOutput' },
    params: JobIdParams, query: DownloadQuery, redirects: [307],
  },
  {
    operationId: 'get_job_details', method: 'GET', path: '/api/v1/jobs/{job_id}/details', tag: 'jobs',
    summary: 'Per-node progress of a job', handler: { file: 'jobs', export: 'getJobDetails' }, params: JobIdParams, response: JobDetails,
  },
  {
    operationId: 'get_job_failed_files', method: 'GET', path: '/api/v1/jobs/{job_id}/failed-files', tag: 'jobs',
    summary: 'Files that failed in a job', handler: { file: 'jobs', export: 'getJobFailedFiles' }, params: JobIdParams, response: JobFailedFiles,
  },
  {
    operationId: 'list_templates', method: 'GET', path: '/api/v1/templates/', tag: 'templates',
    summary: 'List templates', handler: { file: 'templates', export: 'listTemplates' }, response: z.array(TemplateListItem),
  },
  {
    operationId: 'get_template', method: 'GET', path: '/api/v1/templates/{template_id}', tag: 'templates',
    summary: 'Get a template with its nodes', handler: { file: 'templates', export: 'getTemplate' }, params: TemplateIdParams, response: TemplateDetail,
  },
  // ---- Notification channels (spec §4.6): before the notifications block, whose
  // /api/v1/notifications/{notification_id} would otherwise match /api/v1/notifications/channels.
  ...channelRoutes('account'),
  ...channelRoutes('workflow'),
  // ---- end notification channels
  // ---- Notifications (spec §4.7): no trailing slash (api-shapes); the fixed paths precede
  // {notification_id} so the local router matches them first (API Gateway prefers them anyway).
  {
    operationId: 'list_notifications', method: 'GET', path: '/api/v1/notifications', tag: 'notifications',
    summary: 'List notifications, newest first (cursor paging)', handler: { file: 'notifications', export: 'listNotifications' },
    query: NotificationListQuery, response: NotificationListResponse,
  },
  {
    operationId: 'get_unread_count', method: 'GET', path: '/api/v1/notifications/unread-count', tag: 'notifications',
    summary: 'Unread notifications of the current user', handler: { file: 'notifications', export: 'getUnreadCount' },
    query: UnreadCountQuery, response: UnreadCountResponse,
  },
  {
    operationId: 'mark_notifications_read', method: 'POST', path: '/api/v1/notifications/mark-read', tag: 'notifications',
    summary: 'Mark notifications read (by ids, before a time, or all)', handler: { file: 'notifications', export: 'markNotificationsRead' },
    body: MarkReadRequest, response: MarkReadResponse,
  },
  {
    operationId: 'get_notification', method: 'GET', path: '/api/v1/notifications/{notification_id}', tag: 'notifications',
    summary: 'Get a notification', handler: { file: 'notifications', export: 'getNotification' },
    params: NotificationIdParams, response: NotificationResponse,
  },
  // ---- end notifications
  {
    operationId: 'partition', method: 'POST', path: '/general/v0/general', tag: 'general',
    summary: 'Partition a document into elements', handler: { file: 'partition', export: 'partition' },
    description:
      'Partitions each uploaded file into elements (JSON array, or CSV with output_format=text/csv). ' +
      'A degraded result is still a 200: when part of a document could not be read (a page the engine gave up on, ' +
      'a cap reached, OCR standing in for what was asked), the elements that were read are returned and the ' +
      'response carries an `x-partition-warnings` header: the warnings joined by " | ", percent-encoded ' +
      '(decodeURIComponent), at most 2,000 characters. No header means a complete result. A document that ' +
      'cannot be read at all is a 4xx with its reason in `detail`.',
    responseHeaders: {
      'x-partition-warnings':
        'Present only on a partial result: what was skipped or substituted, warnings joined by " | ", percent-encoded, at most 2,000 characters.',
    },
    multipart: { maxFiles: 10, maxFileBytes: 50 * 1000 * 1000, fileFields: ['files'], schema: PartitionForm },
    response: PartitionResponse, memoryMb: 3008, timeoutSeconds: 900,
  },
  {
    // -- the Model Context Protocol (Streamable HTTP, stateless): tools over the services above --
    operationId: 'mcp', method: 'POST', path: '/mcp', tag: 'mcp',
    summary: 'Model Context Protocol endpoint for AI assistants and agents (JSON-RPC over Streamable HTTP, stateless)',
    description:
      'One JSON-RPC message per request (send Accept: application/json, text/event-stream). Tools partition documents and manage ' +
      'sources, destinations, workflows, jobs and notifications for the key\'s account and user; the key may also be sent as ' +
      '`Authorization: Bearer <key>`. Stateless: no session id, GET and DELETE answer 405. On AWS the answer is one JSON ' +
      'message; under `npm start` it is an SSE stream carrying progress notifications. A malformed message is a JSON-RPC error (400), ' +
      'a client that does not accept both media types a 406. See docs/mcp.md.',
    handler: { file: 'mcp', export: 'mcp' }, streamExport: 'mcpStream',
    body: McpMessage, response: McpAnswer,
    // -- partition_document runs the engine in this function, as the partition route does --
    memoryMb: 3008,
  },
];

export function routeById(operationId: string): RouteDefinition {
  const r = ROUTES.find((x) => x.operationId === operationId);
  if (!r) throw new Error(`unknown route ${operationId}`);
  return r;
}
