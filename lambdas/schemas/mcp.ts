// The MCP endpoint's documentation shape: one JSON-RPC 2.0 message in, one JSON-RPC answer out
// (or an SSE stream of messages where the runtime streams). The transport itself validates messages.
import { z } from 'zod';

export const McpMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]).optional().meta({ description: 'Absent on notifications (answered 202 without a body)' }),
    method: z.string().meta({ examples: ['tools/list'] }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'McpMessage', description: 'A JSON-RPC 2.0 request or notification of the Model Context Protocol (initialize, tools/list, tools/call, resources/read, prompts/get...).' });

export const McpAnswer = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int(), z.null()]),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .meta({ id: 'McpAnswer', description: 'The JSON-RPC answer (JSON mode). A tool that fails answers a result with isError: true, the API error in its content.' });
