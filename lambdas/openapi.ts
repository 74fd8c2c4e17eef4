// OpenAPI 3.1.0 document generated from the route table and its zod schemas (one source of truth).
import { z } from 'zod';
import { ROUTES, type RouteDefinition } from './routes';
import { DetailMessage, HTTPValidationError } from './schemas/common';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return out;
};

function parameters(route: RouteDefinition): JsonSchema[] {
  const params: JsonSchema[] = [];
  const add = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const js = toSchema(schema, 'input');
    const props = (js.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((js.required ?? []) as string[]);
    for (const [name, s] of Object.entries(props)) {
      params.push({ name, in: where, required: where === 'path' || required.has(name), schema: s });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  if (route.auth !== false) {
    params.push({ name: 'service-api-key', in: 'header', required: false, schema: { type: 'string' }, description: 'API key (unstructured-api-key is accepted too)' });
  }
  return params;
}

export function buildOpenApi(serverUrl?: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of ROUTES) {
    const status = String(route.status ?? 200);
    const op: JsonSchema = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      parameters: parameters(route),
      responses: {
        [status]: route.response
          ? { description: 'Successful Response', content: { [route.responseType ?? 'application/json']: { schema: toSchema(route.response, 'output') } } }
          : String(status) === '204'
            ? { description: 'Successful Response (no body)' }
            : { description: 'Successful Response', content: { [route.responseType ?? 'application/json']: { schema: {} } } },
        '422': { description: 'Validation Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } },
        ...(route.auth !== false
          ? { '401': { description: 'Missing or invalid API key', content: { 'application/json': { schema: { $ref: '#/components/schemas/DetailMessage' } } } } }
          : {}),
        ...(route.params
          ? { '404': { description: 'Not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/DetailMessage' } } } } }
          : {}),
      },
    };
    if (route.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: toSchema(route.body, 'input') } } };
    }
    if (route.multipart) {
      op.requestBody = { required: true, content: { 'multipart/form-data': { schema: toSchema(route.multipart.schema, 'input') } } };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workflow Processing Service',
      version: '3.1.1',
      description: 'Self-hosted, Unstructured-compatible document workflow API.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas: {
        HTTPValidationError: toSchema(HTTPValidationError, 'output'),
        DetailMessage: toSchema(DetailMessage, 'output'),
      },
      securitySchemes: {
        ServiceApiKey: { type: 'apiKey', in: 'header', name: 'service-api-key' },
        UnstructuredApiKey: { type: 'apiKey', in: 'header', name: 'unstructured-api-key' },
      },
    },
  };
}
