// Resources: what an agent reads rather than acts on. The workflow templates, the connector type
// catalogue with each type's config JSON schema (from the registry, as the OpenAPI document has
// them), and a job's output files. A read the API refuses is a JSON-RPC error carrying the status
// and detail the REST route would answer.
import { z } from 'zod';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { TEMPLATES, findTemplate } from '../domain/templates';
import { NotFound } from '../errors';
import { CONNECTOR_KINDS, getConnector, listTypes, type ConnectorKind } from '../connectors/registry';
import { jobService } from '../services/jobs';
import { errorPayload } from '../http/errors';
import type { McpContext } from './context';
import { jobOutput } from './jobs';

const JSON_TYPE = 'application/json';

function json(uri: URL, value: unknown): ReadResourceResult {
  return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(value, null, 2) }] };
}

/** Errors of a read as protocol errors (a resource read has no tool-error form). */
async function reading(fn: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await fn();
  } catch (err) {
    const p = errorPayload(err, { mcp: 'resources/read' });
    const code = p.status === 404 ? -32002 : p.status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
    throw new McpError(code, typeof p.detail === 'string' ? p.detail : 'Invalid request', { status: p.status, detail: p.detail });
  }
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

function isKind(kind: string): kind is ConnectorKind {
  return (CONNECTOR_KINDS as readonly string[]).includes(kind);
}

/** One connector type: its config schema (input side) and which fields are secrets. */
export function connectorTypeInfo(kind: ConnectorKind, type: string) {
  const def = getConnector(kind, type);
  if (!def) throw new NotFound(`No ${kind} connector type ${type}`);
  const schema = z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return {
    kind,
    type,
    secret_fields: [...def.secretFields],
    ...(def.unavailable?.() ? { unavailable: def.unavailable() } : {}),
    config_schema: schema,
  };
}

export function registerResources(server: McpServer, ctx: McpContext): void {
  server.registerResource('templates', 'wps://templates', {
    title: 'Workflow templates',
    description: 'The workflow templates (preset node chains) with their nodes: a template_id for create_workflow.',
    mimeType: JSON_TYPE,
  }, async (uri) => json(uri, TEMPLATES));

  server.registerResource('template', new ResourceTemplate('wps://templates/{template_id}', {
    list: async () => ({ resources: TEMPLATES.map((t) => ({ uri: `wps://templates/${t.id}`, name: t.id, title: t.name, mimeType: JSON_TYPE })) }),
  }), { title: 'A workflow template', mimeType: JSON_TYPE }, async (uri, vars) => reading(async () => {
    const t = findTemplate(one(vars.template_id));
    if (!t) throw new NotFound(`Template ${one(vars.template_id)} not found`);
    return json(uri, t);
  }));

  for (const kind of CONNECTOR_KINDS) {
    server.registerResource(`${kind}-connector-types`, `wps://connectors/${kind}`, {
      title: `${kind} connector types`,
      description: `Every ${kind} connector type of this deployment with its config JSON schema and secret fields (for create_${kind}).`,
      mimeType: JSON_TYPE,
    }, async (uri) => json(uri, listTypes(kind).map((type) => connectorTypeInfo(kind, type))));
  }

  server.registerResource('connector-type', new ResourceTemplate('wps://connectors/{kind}/{type}', {
    list: async () => ({
      resources: CONNECTOR_KINDS.flatMap((kind) => listTypes(kind).map((type) => ({ uri: `wps://connectors/${kind}/${type}`, name: `${kind}/${type}`, mimeType: JSON_TYPE }))),
    }),
  }), { title: 'A connector type', description: 'One connector type: its config JSON schema and secret fields.', mimeType: JSON_TYPE }, async (uri, vars) => reading(async () => {
    const kind = one(vars.kind);
    if (!isKind(kind)) throw new NotFound(`No connector kind ${kind} (source or destination)`);
    return json(uri, connectorTypeInfo(kind, one(vars.type)));
  }));

  server.registerResource('job-outputs', new ResourceTemplate('wps://jobs/{job_id}/outputs', { list: undefined }), {
    title: "A job's output files",
    description: 'The output files of a job (node and file ids), each readable as wps://jobs/{job_id}/outputs/{file_id}.',
    mimeType: JSON_TYPE,
  }, async (uri, vars) => reading(async () => {
    const job = await jobService().get(ctx.principal, one(vars.job_id));
    const files = (job.output_node_files ?? []).map((f) => ({ ...f, uri: `wps://jobs/${job.id}/outputs/${encodeURIComponent(f.file_id)}` }));
    return json(uri, { job_id: job.id, status: job.status, output_files: files });
  }));

  server.registerResource('job-output', new ResourceTemplate('wps://jobs/{job_id}/outputs/{file_id}', { list: undefined }), {
    title: "A job's output for one file",
    description: "The last node's output (elements JSON) for one file of a job; above the inline size, a link to it.",
    mimeType: JSON_TYPE,
  }, async (uri, vars) => reading(async () => {
    const res = await jobOutput(ctx, one(vars.job_id), decodeURIComponent(one(vars.file_id)));
    const contents: ReadResourceResult['contents'] = [];
    for (const c of res.content) {
      if (c.type === 'resource' && 'text' in c.resource) contents.push({ uri: uri.href, mimeType: JSON_TYPE, text: c.resource.text });
      else if (c.type === 'resource_link') contents.push({ uri: uri.href, mimeType: 'text/uri-list', text: c.uri });
    }
    return { contents };
  }));
}
