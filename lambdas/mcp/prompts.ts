// Prompts for the common flows: the steps an agent takes with this server's tools, filled in with
// what the user named.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';

const user = (text: string): GetPromptResult => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });

export function registerPrompts(server: McpServer): void {
  server.registerPrompt('ingest_into_vector_store', {
    title: 'Ingest a bucket into a vector store',
    description: 'Set up and run a workflow that reads documents from a source (a bucket, a drive...) and writes embedded chunks to a vector store.',
    argsSchema: {
      source: z.string().describe('Where the documents are, e.g. s3://my-bucket/reports/ or an existing source id'),
      destination: z.string().describe('The vector store, e.g. "pinecone index docs" or an existing destination id'),
      schedule: z.string().optional().describe('Optional: run on a schedule (daily, weekly, or a crontab in UTC)'),
    },
  }, ({ source, destination, schedule }) => user([
    `Ingest the documents at ${source} into ${destination} with this document service's tools.`,
    '1. Reuse an existing connector if list_sources / list_destinations has one that matches; otherwise read the resource ' +
      'wps://connectors/source (and wps://connectors/destination) for the type and its config schema, ask me for any secret it needs, and create it.',
    '2. Run check_source_connection and check_destination_connection; if one fails, tell me the reason and stop.',
    '3. Create a workflow from the source to the destination with a partition, chunk and embed chain (list_templates has presets; ' +
      'the embedder must match the vector store\'s dimension)' + (schedule ? `, scheduled "${schedule}"` : '') + '.',
    '4. Run it with run_workflow, then wait_for_job (call it again until it has ended) and report the files done and failed, with get_job for the failures.',
  ].join('\n')));

  server.registerPrompt('diagnose_job', {
    title: 'Explain a job',
    description: 'Explain how a job went: its nodes, files done and failed, and what to do about failures.',
    argsSchema: { job_id: z.string().describe("The job's id") },
  }, ({ job_id }) => user(
    `Explain job ${job_id}: call get_job with details, summarise its status, node statistics and warnings, list the failed files with their errors, ` +
      'and suggest what to change (connector config, workflow nodes, file types) before running it again.',
  ));
}
