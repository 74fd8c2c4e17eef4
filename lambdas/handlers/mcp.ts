// POST /mcp: the Model Context Protocol endpoint (Streamable HTTP, stateless; lambdas/mcp/). Keys
// as on every route, plus `Authorization: Bearer <key>`; tools act for the key's account and user.
// `mcp` is the Lambda handler: API Gateway cannot stream it, so it answers in JSON mode within the
// integration's 29 s. `mcpStream` answers the same request with an SSE stream (npm start's router
// streams it), so progress notifications arrive while a tool waits.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { apiKeyOf, httpRoute } from '../http/handler';
import { errorResponse } from '../http/errors';
import { reply } from '../http/response';
import { authService } from '../services/core';
import { answerMcp, lambdaResult, webRequest } from '../mcp/http';
import { API_GATEWAY_BUDGET_MS, LOCAL_BUDGET_MS } from '../mcp/waiting';

export const mcp = httpRoute({ bearer: true }, async ({ principal, event }) => {
  const response = await answerMcp(webRequest(event), { principal, json: true, deadline: Date.now() + API_GATEWAY_BUDGET_MS });
  return reply(await lambdaResult(response));
});

export async function mcpStream(event: APIGatewayProxyEvent): Promise<Response> {
  try {
    const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v ?? '')]));
    const principal = await authService().authenticate(apiKeyOf(headers, true));
    return await answerMcp(webRequest(event), { principal, json: false, deadline: Date.now() + LOCAL_BUDGET_MS });
  } catch (err) {
    const res = errorResponse(err, { method: event.httpMethod, path: event.path });
    return new Response(res.body, { status: res.statusCode, headers: res.headers });
  }
}
