// What every MCP tool, resource and prompt receives: the caller (as the REST API authenticates it),
// whether the response streams, and how long the request may still run.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Principal } from '../domain/auth';
import { guarded } from './results';

export interface McpContext {
  principal: Principal;
  /** True when the response is an SSE stream: progress notifications reach the client while a tool waits. */
  streaming: boolean;
  /** Milliseconds this request may still run (the Lambda's remaining time less a margin). */
  remainingMs(): number;
}

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolDef {
  title: string;
  description: string;
  annotations: ToolAnnotations;
}

/** Read-only, idempotent, touching only this service (the annotations of every get and list). */
export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Creates a record (a second call creates another). */
export const CREATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Replaces fields of a record (the same call twice leaves the same record). */
export const UPDATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
/** Deletes or stops something. */
export const DESTROY: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/**
 * Registers a tool whose input is a zod object; errors become tool errors (results.ts). A schema
 * with a meta id (CreateWorkflow) must be passed as z.object(X.shape): a named root converts to a
 * bare $ref, and a tool's input schema must be an object schema at its root. The SDK's
 * generic signature is bypassed on purpose: its deep zod inference costs the type checker dearly.
 */
export function addTool<S extends z.ZodObject>(
  server: McpServer,
  name: string,
  def: ToolDef,
  schema: S,
  fn: (args: z.output<S>, extra: ToolExtra) => Promise<CallToolResult>,
): void {
  const register = server.registerTool.bind(server) as unknown as (n: string, c: ToolDef & { inputSchema: z.ZodObject }, cb: typeof fn) => void;
  register(name, { ...def, inputSchema: schema }, guarded(name, fn));
}

/** Query-string values as the REST route receives them (its own zod schema then parses them). */
export function asQuery(args: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null) continue;
    out[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  return out;
}
