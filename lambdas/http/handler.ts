// The one middleware stack every HTTP handler uses (middy): header normalisation, authentication,
// request parsing and zod validation, then the handler, then error mapping last. Handlers stay thin:
// they receive typed, validated input and return a value (JSON with the route's success status) or
// a full response via reply().
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { z } from 'zod';
import { errorResponse } from './errors';
import { json, Reply, type HttpResponse } from './response';
import { jsonBodyProblem, parseOr422 } from '../validation';
import { parseMultipart, type MultipartForm, type MultipartLimits } from './multipart';
import { PayloadTooLarge, UnsupportedMediaType, ValidationError } from '../errors';
import type { Principal } from '../domain/auth';
import { authService } from '../services/core';
import { config } from '../config';

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<B extends Schema, Q extends Schema, P extends Schema> {
  /** JSON body schema (content-type application/json). */
  body?: B;
  /** Query-string schema; values arrive as strings (repeated keys as arrays). */
  query?: Q;
  /** Path-parameter schema. */
  params?: P;
  /** Parse a multipart/form-data body instead of JSON. */
  multipart?: MultipartLimits;
  /** Authenticate the caller (default true). */
  auth?: boolean;
  /** Status of a successful plain-value result (default 200). */
  status?: number;
  /** Also take the key from `Authorization: Bearer <key>` (what MCP clients send). */
  bearer?: boolean;
}

export interface HttpRequest<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  form?: MultipartForm;
  principal: Principal;
  headers: Record<string, string>;
  event: APIGatewayProxyEvent;
}

function rawBody(event: APIGatewayProxyEvent): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

/** Query values (repeated keys as arrays), as own properties whatever the names (`__proto__` too). */
function queryObject(event: APIGatewayProxyEvent): Record<string, string | string[]> {
  const out = new Map<string, string | string[]>();
  for (const [k, v] of Object.entries(event.queryStringParameters ?? {})) if (v !== undefined) out.set(k, v);
  for (const [k, vs] of Object.entries(event.multiValueQueryStringParameters ?? {})) if (vs && vs.length > 1) out.set(k, vs);
  return Object.fromEntries(out);
}

/**
 * The largest JSON body any route takes: a workflow of ten nodes with 64 KiB of settings each stays
 * below it, and parsing a 256 MiB JSON text (the request cap) would cost a gigabyte of objects.
 */
const JSON_BODY_MAX_BYTES = 1024 * 1024;

function parseJsonBody(buf: Buffer, contentType: string | undefined): unknown {
  if (buf.length === 0) return undefined;
  if (buf.length > JSON_BODY_MAX_BYTES) throw new PayloadTooLarge('A JSON request body is at most 1 MiB');
  if (contentType && !/^application\/(.+\+)?json/i.test(contentType)) {
    throw new UnsupportedMediaType(`Expected an application/json request body, got ${contentType.split(';')[0]}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(buf.toString('utf8'));
  } catch (err) {
    throw new ValidationError([{ loc: ['body'], msg: `JSON decode error: ${(err as Error).message}`, type: 'json_invalid' }]);
  }
  const problem = jsonBodyProblem(value);
  if (problem) throw ValidationError.single(['body', ...problem.path], problem.msg, 'value_error');
  return value;
}

/**
 * The response, unless its body is above RESPONSE_MAX_BYTES (a Lambda answer carries at most 6 MB;
 * API Gateway would turn a larger one into a 502) or too large to be one string at all: then a 413.
 */
function withinResponseLimit(build: () => HttpResponse): HttpResponse {
  const max = config().RESPONSE_MAX_BYTES;
  let res: HttpResponse;
  try {
    res = build();
  } catch (err) {
    if (err instanceof RangeError) throw new PayloadTooLarge(`The response is larger than this service's ${max} byte limit: narrow the request (filters, paging)`);
    throw err;
  }
  const size = res.isBase64Encoded ? Math.floor((res.body.length * 3) / 4) : Buffer.byteLength(res.body, 'utf8');
  if (size > max) throw new PayloadTooLarge(`The response (${size} bytes) is larger than this service's ${max} byte limit: narrow the request (filters, paging)`);
  return res;
}

/** The API key a request carries: either key header, or (where allowed) an `Authorization: Bearer` token. */
export function apiKeyOf(headers: Record<string, string>, bearer = false): string | undefined {
  const key = headers['service-api-key'] || headers['unstructured-api-key'];
  if (key || !bearer) return key;
  return /^bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
}

export function httpRoute<B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(
  spec: RouteSpec<B, Q, P>,
  fn: (req: HttpRequest<Out<B>, Out<Q>, Out<P>>) => Promise<unknown>,
) {
  return middy<APIGatewayProxyEvent, HttpResponse, Error, Context>()
    .use(httpHeaderNormalizer())
    .use({
      onError: async (request) => {
        request.response = errorResponse(request.error, {
          method: request.event?.httpMethod,
          path: request.event?.path,
          requestId: request.context?.awsRequestId,
        });
      },
    })
    .handler(async (event) => {
      const headers = Object.fromEntries(
        Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v ?? '')]),
      );
      const principal =
        spec.auth === false
          ? { accountId: '', userId: '' }
          : await authService().authenticate(apiKeyOf(headers, spec.bearer));
      const params = (spec.params ? parseOr422(spec.params, event.pathParameters ?? {}, ['path']) : undefined) as Out<P>;
      const query = (spec.query ? parseOr422(spec.query, queryObject(event), ['query']) : undefined) as Out<Q>;
      const buf = rawBody(event);
      if (buf.length > config().MAX_BODY_BYTES) throw new PayloadTooLarge('Request body is too large');
      let body = undefined as Out<B>;
      let form: MultipartForm | undefined;
      if (spec.multipart && !(spec.multipart.optional && buf.length === 0)) {
        form = await parseMultipart(buf, headers['content-type'], spec.multipart);
      } else if (spec.body) {
        body = parseOr422(spec.body, parseJsonBody(buf, headers['content-type']), ['body']) as Out<B>;
      }
      const result = await fn({ body, query, params, form, principal, headers, event });
      return withinResponseLimit(() => (result instanceof Reply ? result.response : json(spec.status ?? 200, result ?? null)));
    });
}
