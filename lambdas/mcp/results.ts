// Tool results: a value as JSON text (objects also as structured content), and the API's errors as
// MCP tool errors carrying the status, message and `detail` the REST route would answer (the same
// mapping, http/errors.ts), never a protocol error.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorPayload } from '../http/errors';

export function ok(value: unknown, note?: string): CallToolResult {
  const text = JSON.stringify(value ?? null, null, 2);
  const structured = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  return {
    content: [...(note ? [{ type: 'text' as const, text: note }] : []), { type: 'text', text }],
    ...(structured ? { structuredContent: structured } : {}),
  };
}

/** A readable line first (an LLM acts on it), then the REST error body as JSON. */
export function toolError(err: unknown, tool: string): CallToolResult {
  const p = errorPayload(err, { mcpTool: tool });
  const message = Array.isArray(p.detail)
    ? `Validation failed: ${(p.detail as { loc: unknown[]; msg: string }[]).map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ')}`
    : String(p.detail);
  const body = { status: p.status, detail: p.detail, ...(p.retryAfterSeconds !== undefined ? { retry_after_seconds: p.retryAfterSeconds } : {}) };
  return {
    isError: true,
    content: [
      { type: 'text', text: `${message} (HTTP ${p.status})` },
      { type: 'text', text: JSON.stringify(body) },
    ],
  };
}

/** A tool body whose errors become tool errors. */
export function guarded<A, X>(tool: string, fn: (args: A, extra: X) => Promise<CallToolResult>) {
  return async (args: A, extra: X): Promise<CallToolResult> => {
    try {
      return await fn(args, extra);
    } catch (err) {
      return toolError(err, tool);
    }
  };
}
