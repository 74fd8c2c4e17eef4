// The MCP server of one request (stateless: a new server per HTTP request, nothing kept between
// them). Every tool acts for the authenticated caller through the services the REST routes call.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './context';
import { registerConnectorTools } from './connectors';
import { registerWorkflowTools } from './workflows';
import { registerJobTools } from './jobs';
import { registerPartitionTool } from './partition';
import { registerNotificationTools } from './notifications';
import { registerResources } from './resources';
import { registerPrompts } from './prompts';

export const MCP_SERVER_INFO = { name: 'workflow-processing-service', version: '0.1.0' };

const INSTRUCTIONS =
  'A document processing service: partition documents into elements, connect sources (where documents are) and destinations ' +
  '(vector stores, databases, buckets), and run workflows that carry documents from one to the other through partition, chunk and embed nodes. ' +
  'Connector config schemas are resources (wps://connectors/source, wps://connectors/destination). A run is a job: follow it with wait_for_job.';

export function buildMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS });
  registerPartitionTool(server, ctx);
  registerConnectorTools(server, ctx);
  registerWorkflowTools(server, ctx);
  registerJobTools(server, ctx);
  registerNotificationTools(server, ctx);
  registerResources(server, ctx);
  registerPrompts(server);
  return server;
}
