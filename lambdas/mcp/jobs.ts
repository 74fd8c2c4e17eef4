// Job tools: list, read (with details and failed files), cancel, download an output, wait for a job
// with progress notifications, presigned uploads, and the template catalogue. The JobService the
// REST routes call; list filters parsed by the REST route's own query schema.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { jobService, uploadService } from '../services/jobs';
import { routeById } from '../routes';
import { parseOr422 } from '../validation';
import { NotFound } from '../errors';
import { TEMPLATES, findTemplate } from '../domain/templates';
import { CreateUploadBody, JobStatus } from '../schemas/jobs';
import { templateIdString, uuidParam } from '../schemas/common';
import { config } from '../config';
import { addTool, asQuery, CREATE, DESTROY, READ, type McpContext, type ToolExtra } from './context';
import { ok } from './results';
import { waitForJob } from './job-wait';

/** A job output up to this size comes back inline as text; above it, as a resource link (a short-lived URL). */
export const OUTPUT_INLINE_MAX_BYTES = 256 * 1024;

const jobId = z.object({ job_id: uuidParam.describe("The job's id") });

/** A node's output for one file: inline JSON text, or a link to fetch it from storage. */
export async function jobOutput(ctx: McpContext, job: string, file: string, node?: string): Promise<CallToolResult> {
  const inlineMax = Math.min(OUTPUT_INLINE_MAX_BYTES, config().DOWNLOAD_INLINE_MAX_BYTES);
  const out = await jobService().download(ctx.principal, job, file, node, inlineMax);
  const name = `${job}-${file}${node ? `-${node}` : ''}.json`;
  if ('url' in out) {
    return {
      content: [
        { type: 'text', text: `The output is larger than ${inlineMax} bytes: fetch it from the link (valid for a few minutes).` },
        { type: 'resource_link', uri: out.url, name, mimeType: 'application/json', description: `Output of file ${file} in job ${job}` },
      ],
    };
  }
  const text = Buffer.from(out.data).toString('utf8');
  let count: number | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) count = parsed.length;
  } catch {
    // -- not JSON: returned as it is --
  }
  return {
    content: [
      { type: 'text', text: `Output of file ${file} in job ${job}${count !== undefined ? `: ${count} elements` : ''} (${out.data.byteLength} bytes).` },
      { type: 'resource', resource: { uri: `wps://jobs/${job}/outputs/${encodeURIComponent(file)}`, mimeType: 'application/json', text } },
    ],
  };
}

export function registerJobTools(server: McpServer, ctx: McpContext): void {
  const svc = () => jobService();

  addTool(server, 'list_jobs', {
    title: 'List jobs',
    description: 'List the jobs of this account, newest first, optionally of one workflow or in one status.',
    annotations: READ,
  }, z.object({
    workflow_id: uuidParam.optional().describe('Only jobs of this workflow'),
    status: JobStatus.optional(),
  }), async (args) => {
    const q = parseOr422(routeById('list_jobs').query!, asQuery(args), ['query']) as { workflow_id?: string; status?: string };
    return ok({ items: await svc().list(ctx.principal, { workflowId: q.workflow_id, status: q.status }) });
  });

  addTool(server, 'get_job', {
    title: 'Get a job',
    description:
      'Get a job: its status, input and output file ids (for download_job_output), and with details (default true) the per-node progress, ' +
      'files by state and warnings, and the files that failed with their errors.',
    annotations: READ,
  }, jobId.extend({ details: z.boolean().default(true).describe('Include per-node details and failed files') }), async ({ job_id, details }) => {
    const job = await svc().get(ctx.principal, job_id);
    if (!details) return ok({ job });
    const [d, failed] = await Promise.all([svc().details(ctx.principal, job_id), svc().failedFiles(ctx.principal, job_id)]);
    return ok({ job, details: d, failed_files: failed.failed_files });
  });

  addTool(server, 'wait_for_job', {
    title: 'Wait for a job',
    description:
      'Wait (bounded by timeout_seconds and by what the server allows one request: about 25 s on AWS) until a job ends. ' +
      'While waiting, sends progress notifications (files done of total) when the client asked for progress and the response streams. ' +
      'Returns the final (or latest) job, its details, whether it ended, and the states seen on the way. Call again if it has not ended.',
    annotations: READ,
  }, jobId.extend({ timeout_seconds: z.number().int().min(1).max(900).default(120).describe('Longest wait in seconds') }), async ({ job_id, timeout_seconds }, extra: ToolExtra) =>
    ok(await waitForJob(ctx, job_id, timeout_seconds, extra)));

  addTool(server, 'cancel_job', {
    title: 'Cancel a job',
    description: 'Cancel a scheduled or running job: files in progress stop, outputs already written stay.',
    annotations: DESTROY,
  }, jobId, async ({ job_id }) => ok(await svc().cancel(ctx.principal, job_id)));

  addTool(server, 'download_job_output', {
    title: 'Download a job output',
    description:
      "Download a node's output (the elements JSON) for one file of a job: file_id from the job's output_node_files or input_file_ids; " +
      `node_id defaults to the last node. Up to ${OUTPUT_INLINE_MAX_BYTES / 1024} KiB it comes inline, above as a link to fetch.`,
    annotations: READ,
  }, jobId.extend({
    file_id: z.string().min(1).max(200).describe('A file id of the job'),
    node_id: z.string().max(100).optional().describe('A node id of the job (default: its last node)'),
  }), async ({ job_id, file_id, node_id }) => jobOutput(ctx, job_id, file_id, node_id));

  addTool(server, 'create_upload', {
    title: 'Create an upload',
    description:
      'Get a presigned URL to upload one file (PUT the exact bytes, with the headers given) for partition_document (upload_id) or run_workflow (input_upload_ids). ' +
      'For files too large to send as base64 in a tool call.',
    annotations: CREATE,
  }, z.object(CreateUploadBody.shape), async (body) => ok(await uploadService().create(ctx.principal, body)));

  addTool(server, 'list_templates', {
    title: 'List workflow templates',
    description: 'List the workflow templates (preset node chains) a workflow can start from (create_workflow template_id).',
    annotations: READ,
  }, z.object({}), async () => ok({ items: TEMPLATES.map(({ nodes: _nodes, ...item }) => item) }));

  addTool(server, 'get_template', {
    title: 'Get a workflow template',
    description: 'Get a workflow template with its nodes (type, subtype) and their settings, to use or adapt in create_workflow.',
    annotations: READ,
  }, z.object({ template_id: templateIdString }), async ({ template_id }) => {
    const t = findTemplate(template_id);
    if (!t) throw new NotFound(`Template ${template_id} not found`);
    return ok(t);
  });
}
