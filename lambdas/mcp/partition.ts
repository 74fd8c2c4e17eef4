// partition_document: one document (base64 content or a presigned upload) through the same request
// code as POST /general/v0/general (runPartitionRequest: its form fields, limits and engine). Small
// results come back inline; above PARTITION_INLINE_MAX_BYTES a summary plus a link to the full
// result, stored under the job data prefix (it expires with job data).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runPartitionRequest, type PartitionUpload } from '../domain/partition-request';
import { ValidationError } from '../errors';
import { MAX_UPLOAD_BYTES } from '../domain/uploads';
import { keys } from '../data/keys';
import { PartitionForm } from '../schemas/partition';
import { uuidParam } from '../schemas/common';
import { jobBlobs, uploadService } from '../services/jobs';
import { config } from '../config';
import { addTool, type McpContext } from './context';

/** Elements JSON up to this size comes back inline (about 50k tokens at most). */
export const PARTITION_INLINE_MAX_BYTES = 200 * 1024;
const LINK_SECONDS = 15 * 60;

const OPTION_NAMES = Object.keys(PartitionForm.shape).filter((k) => k !== 'files');

const Input = z.object({
  filename: z.string().min(1).max(255).describe('The document\'s file name; its extension tells the type (report.pdf, notes.docx)'),
  content_base64: z.string().optional().describe('The document itself, base64-encoded (small files; use upload_id for large ones)'),
  upload_id: uuidParam.optional().describe('Instead of content_base64: a presigned upload (create_upload) already PUT; it is used up'),
  strategy: z.enum(['auto', 'fast', 'hi_res', 'ocr_only', 'vlm']).optional().describe('auto (default), fast (text layer only), hi_res (layout model, tables), ocr_only, vlm'),
  chunking_strategy: z.enum(['basic', 'by_title', 'by_page', 'by_similarity']).optional().describe('Chunk the elements (default: no chunking)'),
  options: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
    .optional()
    .describe(`Other form fields of POST /general/v0/general: ${OPTION_NAMES.join(', ')}`),
});

function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) throw ValidationError.single(['body', 'content_base64'], 'Input should be base64', 'value_error');
  const data = Buffer.from(clean, 'base64');
  if (data.length === 0) throw ValidationError.single(['body', 'content_base64'], 'The document is empty', 'value_error');
  if (data.length > MAX_UPLOAD_BYTES) throw ValidationError.single(['body', 'content_base64'], `A document is at most ${MAX_UPLOAD_BYTES} bytes`, 'value_error');
  return data;
}

async function documentOf(ctx: McpContext, args: z.output<typeof Input>): Promise<PartitionUpload> {
  if ((args.content_base64 === undefined) === (args.upload_id === undefined)) {
    throw ValidationError.single(['body'], 'Give exactly one of content_base64 and upload_id', 'value_error');
  }
  if (args.content_base64 !== undefined) return { filename: args.filename, data: decodeBase64(args.content_base64) };
  const [file] = await uploadService().claim(ctx.principal, [args.upload_id!]);
  const data = await jobBlobs().get(file!.blobKey);
  if (!data) throw ValidationError.single(['body', 'upload_id'], `Upload ${args.upload_id} has no file`, 'value_error');
  return { filename: args.filename || file!.filename, contentType: file!.contentType, data };
}

/** The form fields the REST route would receive (repeated values as arrays). */
function formFields(args: z.output<typeof Input>): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(args.options ?? {})) fields[k] = Array.isArray(v) ? v : [String(v)];
  if (args.strategy) fields.strategy = [args.strategy];
  if (args.chunking_strategy) fields.chunking_strategy = [args.chunking_strategy];
  if (fields.output_format && fields.output_format[0] !== 'application/json') {
    throw ValidationError.single(['body', 'options', 'output_format'], 'partition_document returns JSON elements (application/json)', 'value_error');
  }
  return fields;
}

function summary(elements: { type?: string; text?: string }[]): Record<string, unknown> {
  const types: Record<string, number> = {};
  for (const e of elements) types[e.type ?? '?'] = (types[e.type ?? '?'] ?? 0) + 1;
  return {
    element_count: elements.length,
    element_types: types,
    first_elements: elements.slice(0, 5).map((e) => ({ type: e.type, text: (e.text ?? '').slice(0, 300) })),
  };
}

async function partitionDocument(ctx: McpContext, args: z.output<typeof Input>): Promise<CallToolResult> {
  const fields = formFields(args);
  const doc = await documentOf(ctx, args);
  // -- the JSON text travels escaped inside a JSON-RPC answer: half the REST cap leaves room for it --
  const out = await runPartitionRequest([doc], fields, Math.floor(config().RESPONSE_MAX_BYTES / 2), ctx.principal.accountId);
  const warnings = out.warnings.length ? [{ type: 'text' as const, text: `Partial result: ${out.warnings.join(' | ')}` }] : [];
  const bytes = Buffer.byteLength(out.body, 'utf8');
  if (bytes <= PARTITION_INLINE_MAX_BYTES) {
    return { content: [...warnings, { type: 'text', text: out.body }] };
  }
  const elements = JSON.parse(out.body) as { type?: string; text?: string }[];
  const key = keys.partitionResultObject(ctx.principal.accountId, randomUUID());
  await jobBlobs().put(key, out.body, 'application/json');
  const url = await jobBlobs().presignGet(key, LINK_SECONDS);
  return {
    content: [
      ...warnings,
      { type: 'text', text: `The elements JSON is ${bytes} bytes, above the ${PARTITION_INLINE_MAX_BYTES} returned inline: a summary, and the full result at the link (valid ${LINK_SECONDS / 60} minutes).` },
      { type: 'text', text: JSON.stringify(summary(elements), null, 2) },
      { type: 'resource_link', uri: url, name: `${args.filename}.json`, mimeType: 'application/json', description: `Elements of ${args.filename}` },
    ],
  };
}

export function registerPartitionTool(server: McpServer, ctx: McpContext): void {
  addTool(server, 'partition_document', {
    title: 'Partition a document',
    description:
      'Split one document (PDF, Word, PowerPoint, Excel, HTML, e-mail, images, text...) into elements: titles, narrative text, list items, tables, ' +
      'each with its text and metadata (page, coordinates when asked). Give the file as content_base64 or as upload_id. ' +
      `Returns the elements JSON, or above ${PARTITION_INLINE_MAX_BYTES / 1024} KiB a summary and a link to the full result. ` +
      'For many or very large documents, create a workflow instead.',
    // not read-only: an upload_id is used up, and a large result is stored behind its link
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, Input, async (args) => partitionDocument(ctx, args));
}
