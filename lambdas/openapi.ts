// OpenAPI 3.1.0 document generated from the route table and its zod schemas (one source of truth).
// Every schema lives under components/schemas (openapi/components.ts hoists zod's $defs there), the
// connector shapes come from the registry (openapi/connectors.ts), and each operation lists every
// status it can answer: the route's declared ones plus those the shared HTTP layer adds (auth, input
// validation, body and response size, media type, throttling). 5xx are not listed.
import { ROUTES, type RouteDefinition } from './routes';
import { DetailMessage, HTTPValidationError } from './schemas/common';
import { ConnectorInformation, CreateConnector, UpdateConnector } from './schemas/connectors';
import { Components, ref, type JsonSchema } from './openapi/components';
import { connectorSchemas, type ConnectorSchemas } from './openapi/connectors';
import { REQUEST_EXAMPLES, sample } from './openapi/examples';

/** The header names an API key is accepted in (lambdas/http/handler.ts reads both). */
export const SECURITY_SCHEMES = {
  UnstructuredApiKey: { type: 'apiKey', in: 'header', name: 'unstructured-api-key', description: 'The platform clients\' header.' },
  ServiceApiKey: { type: 'apiKey', in: 'header', name: 'service-api-key', description: 'The same key under this service\'s own header name.' },
} as const;

const TAG_TEXT: Record<string, string> = {
  general: 'Health check, this description, and the one-shot partition endpoint',
  sources: 'Source connectors: where a workflow reads documents',
  destinations: 'Destination connectors: where a workflow writes elements',
  workflows: 'Workflows: a source, processing nodes and a destination, run on demand or on a schedule',
  jobs: 'Jobs: one run of a workflow (or of uploaded files), its progress and outputs',
  templates: 'Ready-made workflow node graphs',
  'notification-channels': 'Webhook and email channels that receive job events',
  notifications: 'The in-app inbox of job events',
  mcp: 'The Model Context Protocol endpoint: the same operations as tools for AI assistants and agents',
};

const ERROR_TEXT: Record<number, string> = {
  400: 'The request cannot be carried out as sent (see detail)',
  401: 'Missing or invalid API key',
  404: 'Not found',
  409: 'Conflict with the current state (see detail)',
  413: 'The request body, or the response it would produce, is above this service\'s limits',
  415: 'Unsupported request media type',
  422: 'Validation Error',
  429: 'Too many requests: retry after the Retry-After seconds when given (API Gateway throttling answers without it)',
};

/** Statuses the route can answer besides its success one. */
export function errorStatuses(route: RouteDefinition): number[] {
  const s = new Set<number>(route.errors ?? []);
  if (route.auth !== false) s.add(401);
  if (route.params) s.add(404);
  if (route.params || route.query || route.body || route.multipart) s.add(422);
  if (route.body || route.multipart) s.add(415);
  s.add(413); // every response passes the response-size limit (lambdas/http/handler.ts)
  s.add(429); // the API stage's throttling applies to every method
  return [...s].sort((a, b) => a - b);
}

function connectorKind(route: RouteDefinition): 'source' | 'destination' | undefined {
  return route.tag === 'sources' ? 'source' : route.tag === 'destinations' ? 'destination' : undefined;
}

function parameters(c: Components, route: RouteDefinition, conn?: ConnectorSchemas): JsonSchema[] {
  const params: JsonSchema[] = [];
  const add = (schema: RouteDefinition['params'], where: 'path' | 'query') => {
    if (!schema) return;
    const js = c.convert(schema, 'input');
    const required = new Set((js.required ?? []) as string[]);
    for (const [name, s] of Object.entries((js.properties ?? {}) as Record<string, JsonSchema>)) {
      const typed = conn && name.endsWith('_type') ? conn.typeEnum : s;
      params.push({ name, in: where, required: where === 'path' || required.has(name), schema: typed });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  return params;
}

function responses(c: Components, route: RouteDefinition, conn?: ConnectorSchemas): JsonSchema {
  const status = route.status ?? 200;
  let schema: JsonSchema | undefined;
  if (conn && route.response === ConnectorInformation) schema = conn.info;
  else if (conn && route.operationId.startsWith('list_')) schema = { type: 'array', items: conn.info };
  else if (route.response) schema = c.convert(route.response, 'output');
  const type = route.responseType ?? 'application/json';
  const out: JsonSchema = {};
  if (status === 204) out['204'] = { description: 'Successful Response (no body)' };
  else {
    const body = schema ?? (type.startsWith('text/') ? { type: 'string' } : {});
    out[String(status)] = {
      description: 'Successful Response',
      ...(route.responseHeaders
        ? { headers: Object.fromEntries(Object.entries(route.responseHeaders).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
        : {}),
      content: { [type]: { schema: body, example: type.startsWith('text/') ? '<!doctype html>…' : sample(body, c.schemas) } },
    };
  }
  for (const code of route.redirects ?? []) {
    out[String(code)] = {
      description: 'Redirect: the content is fetched from the Location URL (short-lived; clients follow it)',
      headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } },
    };
  }
  for (const code of errorStatuses(route)) {
    const body = code === 422 ? ref('HTTPValidationError') : ref('DetailMessage');
    const example = code === 422 ? { detail: [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }] } : { detail: ERROR_TEXT[code] };
    out[String(code)] = {
      description: ERROR_TEXT[code] ?? `Error ${code}`,
      ...(code === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } } } } : {}),
      content: { 'application/json': { schema: body, example } },
    };
  }
  return out;
}

function requestBody(c: Components, route: RouteDefinition, conn?: ConnectorSchemas): JsonSchema | undefined {
  const example = (schema: JsonSchema) => REQUEST_EXAMPLES[route.operationId] ?? sample(schema, c.schemas);
  if (route.body) {
    const schema = conn && route.body === CreateConnector ? conn.create : conn && route.body === UpdateConnector ? conn.update : c.convert(route.body, 'input');
    return { required: true, content: { 'application/json': { schema, example: example(schema) } } };
  }
  if (route.multipart) {
    const schema = c.convert(route.multipart.schema, 'input');
    return { required: !route.multipart.optional, content: { 'multipart/form-data': { schema, example: example(schema) } } };
  }
  return undefined;
}

export function buildOpenApi(serverUrl?: string): JsonSchema {
  const c = new Components();
  c.convert(HTTPValidationError, 'output'); // both named: converting registers them
  c.convert(DetailMessage, 'output');
  const connectors = connectorSchemas(c);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of ROUTES) {
    const kind = connectorKind(route);
    const conn = kind ? connectors[kind] : undefined;
    const body = requestBody(c, route, conn);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      ...(route.auth === false ? { security: [] } : {}),
      parameters: parameters(c, route, conn),
      ...(body ? { requestBody: body } : {}),
      responses: responses(c, route, conn),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workflow Processing Service',
      version: '3.1.1',
      description: 'Self-hosted, Unstructured-compatible document workflow API.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl ?? '/', description: serverUrl ? 'This deployment' : 'The host serving this document' }],
    security: Object.keys(SECURITY_SCHEMES).map((name) => ({ [name]: [] })),
    tags: [...new Set(ROUTES.map((r) => r.tag))].map((name) => ({ name, description: TAG_TEXT[name] ?? name })),
    paths,
    components: { schemas: c.schemas, securitySchemes: SECURITY_SCHEMES },
  };
}
