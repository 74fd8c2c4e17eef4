// The Streamable HTTP transport in stateless mode: per request, a new McpServer and a transport
// without session ids, answering one POST. JSON mode (one JSON answer) where the runtime cannot
// stream a response (Lambda behind API Gateway); SSE where it can (npm start), so that progress
// notifications reach the client while a tool runs. GET (a standalone server stream) and DELETE
// (ending a session) have no meaning without sessions: 405, as the transport's spec says.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Principal } from '../domain/auth';
import { buildMcpServer } from './server';
import type { HttpResponse } from '../http/response';

/** The largest JSON-RPC message read: a 50 MB document as base64 (a tool call's content_base64) and its envelope. */
export const MCP_MAX_MESSAGE_BYTES = 70 * 1024 * 1024;

export interface McpAnswerOptions {
  principal: Principal;
  /** One JSON answer instead of an SSE stream. */
  json: boolean;
  /** When this request must have answered (epoch ms). */
  deadline: number;
}

/** The API Gateway event as the web Request the SDK's transport reads. */
export function webRequest(event: APIGatewayProxyEvent): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (v !== undefined && v !== null) headers.set(k, String(v));
  const body = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8')) : undefined;
  const method = event.httpMethod.toUpperCase();
  return new Request(`http://${headers.get('host') ?? 'localhost'}${event.path}`, {
    method,
    headers,
    ...(body && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
  });
}

export function methodNotAllowed(): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless (POST only)' }, id: null }), {
    status: 405,
    headers: { allow: 'POST', 'content-type': 'application/json' },
  });
}

/** Answers one MCP request for an authenticated caller. */
export async function answerMcp(request: Request, opts: McpAnswerOptions): Promise<Response> {
  if (request.method !== 'POST') return methodNotAllowed();
  const server = buildMcpServer({
    principal: opts.principal,
    streaming: !opts.json,
    remainingMs: () => Math.max(0, opts.deadline - Date.now()),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: opts.json,
    maxRequestBodySize: MCP_MAX_MESSAGE_BYTES,
  });
  await server.connect(transport);
  const response = await transport.handleRequest(request);
  if (!response.body || opts.json) {
    // -- a JSON answer is complete once handleRequest returns: the server can go --
    await server.close();
    return response;
  }
  // -- SSE: the server lives until its stream ends (or the client leaves) --
  const closing = new TransformStream<Uint8Array, Uint8Array>({ flush: () => void server.close() });
  return new Response(response.body.pipeThrough(closing), { status: response.status, headers: response.headers });
}

/** A web Response as a Lambda proxy result (JSON mode: the body is complete). */
export async function lambdaResult(response: Response): Promise<HttpResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  return { statusCode: response.status, headers, body: await response.text() };
}
