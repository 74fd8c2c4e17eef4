// Source and destination tools: the ConnectorService the REST routes call, with the same type
// check and per-type config validation; secrets come back masked as the REST API returns them.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { connectorService } from '../services/connectors';
import { assertKnownType } from '../domain/connectors';
import { connectorCatalog } from '../adapters/connector-catalog';
import { CreateConnector, UpdateConnector } from '../schemas/connectors';
import { uuidParam } from '../schemas/common';
import type { ConnectorKind } from '../data/keys';
import { addTool, CREATE, DESTROY, READ, UPDATE, type McpContext } from './context';
import { ok } from './results';
import { sleep, waitBudgetMs } from './waiting';

const CHECK_POLL_MS = 1000;

function registerKind(server: McpServer, ctx: McpContext, kind: ConnectorKind): void {
  const plural = kind === 'source' ? 'sources' : 'destinations';
  const idName = `${kind}_id` as const;
  const idShape = { [idName]: uuidParam.describe(`The ${kind} connector's id`) };
  const svc = () => connectorService();
  const catalogue = `the resource wps://connectors/${kind} lists the types and their config schemas`;
  const what = kind === 'source' ? 'a place documents are read from (a bucket, a drive, a SaaS app)' : 'a place processed elements are written to (a vector store, a database, a bucket)';

  addTool(server, `list_${plural}`, {
    title: `List ${plural}`,
    description: `List the ${kind} connectors of this account (${what}). Optionally filter by type. Secrets in configs are masked.`,
    annotations: READ,
  }, z.object({ type: z.string().max(100).optional().describe(`Only connectors of this type (${catalogue})`) }), async ({ type }) => {
    if (type) assertKnownType(connectorCatalog(), kind, type, ['query', `${kind}_type`]);
    return ok({ items: await svc().list(ctx.principal, kind, type) });
  });

  addTool(server, `get_${kind}`, {
    title: `Get a ${kind}`,
    description: `Get one ${kind} connector by id: name, type and config (secrets masked).`,
    annotations: READ,
  }, z.object(idShape), async (args) => ok(await svc().get(ctx.principal, kind, args[idName] as string)));

  addTool(server, `create_${kind}`, {
    title: `Create a ${kind}`,
    description:
      `Create a ${kind} connector (${what}). \`type\` is a connector type and \`config\` its type-specific settings: ${catalogue}. ` +
      'The config is validated as the REST API validates it (a bad field is an error naming it); secrets are stored encrypted and never returned. ' +
      `Run check_${kind}_connection afterwards to test that the service can reach it.`,
    annotations: CREATE,
  }, CreateConnector, async (input) => {
    assertKnownType(connectorCatalog(), kind, input.type, ['body', 'type']);
    return ok(await svc().create(ctx.principal, kind, input));
  });

  addTool(server, `update_${kind}`, {
    title: `Update a ${kind}`,
    description: `Replace the config of a ${kind} connector (its type stays). Masked secret values sent back unchanged keep the stored secret.`,
    annotations: UPDATE,
  }, UpdateConnector.extend(idShape), async (args) => {
    const { [idName]: id, ...body } = args as Record<string, unknown>;
    return ok(await svc().update(ctx.principal, kind, id as string, body as { config: unknown }));
  });

  addTool(server, `delete_${kind}`, {
    title: `Delete a ${kind}`,
    description: `Delete a ${kind} connector. Workflows that use it can no longer run until they name another.`,
    annotations: DESTROY,
  }, z.object(idShape), async (args) => ok(await svc().delete(ctx.principal, kind, args[idName] as string)));

  addTool(server, `check_${kind}_connection`, {
    title: `Check a ${kind}'s connection`,
    description:
      `Start a connection check of a ${kind} connector (can the service reach it with its config?) and, with wait (default true), ` +
      'wait a bounded time for its outcome: status SUCCESS or FAILURE with a reason, or SCHEDULED if it did not finish in time (call again: a check still running is reused, not repeated).',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  }, z.object({ ...idShape, wait: z.boolean().default(true).describe('Wait for the outcome (at most timeout_seconds)'), timeout_seconds: z.number().int().min(1).max(120).default(30) }), async (args, extra) => {
    const id = (args as Record<string, unknown>)[idName] as string;
    let check = await svc().requestCheck(ctx.principal, kind, id);
    if (!args.wait) return ok(check);
    const until = Date.now() + waitBudgetMs(ctx, args.timeout_seconds);
    while (check.status === 'SCHEDULED' && Date.now() + CHECK_POLL_MS < until && !extra.signal.aborted) {
      await sleep(CHECK_POLL_MS, extra.signal);
      check = await svc().latestCheck(ctx.principal, kind, id);
    }
    return ok(check);
  });
}

export function registerConnectorTools(server: McpServer, ctx: McpContext): void {
  registerKind(server, ctx, 'source');
  registerKind(server, ctx, 'destination');
}
