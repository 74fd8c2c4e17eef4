// Data-driven definitions for every connector type of api-shapes.md §1 that has no hand-written
// file: schemas from DERIVED_FIELDS (api-shapes.md §6), and a network check that opens a TCP
// connection to the host the config names. A SUCCESS then says the host is reachable; credentials
// are not verified (the reason says so). Types without a model (slack, motherduck) take a
// free-form object; their secrets are found by name and value (lambdas/credentials.ts).
import { z } from 'zod';
import { DERIVED_FIELDS } from '../derived-fields';
import { defineConnector, type CheckContext, type ConnectorConfig, type ConnectorDefinition, type ConnectorKind } from '../definition';
import { parseTarget, tcpProbe, type Target } from '../net-check';
import { inputSchema, outputSchema, secretFieldNames, type FieldSpec } from '../schema';

/** Fixed API hosts of SaaS types whose config names no host. */
const FIXED_HOSTS: Record<string, string> = {
  gcs: 'storage.googleapis.com',
  google_drive: 'www.googleapis.com',
  dropbox: 'api.dropboxapi.com',
  onedrive: 'graph.microsoft.com',
  outlook: 'graph.microsoft.com',
  salesforce: 'login.salesforce.com',
  pinecone: 'api.pinecone.io',
  slack: 'slack.com',
  motherduck: 'api.motherduck.com',
};

/** Default ports per type when the config has a host but no port. */
const DEFAULT_PORT: Record<string, number> = {
  postgres: 5432,
  redis: 6379,
  teradata: 1025,
  'kafka-cloud': 9092,
};

const URL_FIELDS = ['uri', 'url', 'endpoint', 'api_endpoint', 'cluster_url', 'site', 'connection_string', 'iceberg_endpoint', 'server_hostname', 'host'];

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** The host:port a config points at, by the field names the upstream models use. */
export function targetOf(type: string, c: ConnectorConfig): Target | undefined {
  const port = typeof c.port === 'number' ? c.port : typeof c.dbs_port === 'number' ? c.dbs_port : undefined;
  const fallback = port ?? DEFAULT_PORT[type] ?? 443;
  if (type === 'kafka-cloud' && str(c.bootstrap_servers)) {
    return parseTarget(str(c.bootstrap_servers)!.split(',')[0]!, 'bootstrap_servers', fallback);
  }
  if (type === 'zendesk' && str(c.subdomain)) return { host: `${str(c.subdomain)}.zendesk.com`, port: 443, field: 'subdomain' };
  if (type === 'delta_table' && str(c.aws_region)) return { host: `s3.${str(c.aws_region)}.amazonaws.com`, port: 443, field: 'aws_region' };
  if (type === 'ibm_watsonx_s3' && str(c.object_storage_endpoint)) return parseTarget(str(c.object_storage_endpoint)!, 'object_storage_endpoint', 443);
  if (Array.isArray(c.hosts) && typeof c.hosts[0] === 'string') return parseTarget(c.hosts[0], 'hosts', type === 'elasticsearch' || type === 'opensearch' ? 9200 : 443);
  for (const f of URL_FIELDS) {
    const v = str(c[f]);
    if (v) {
      const t = parseTarget(v, f, fallback);
      if (t && f === 'host' && port !== undefined) t.port = port;
      if (t) return t;
    }
  }
  const fixed = FIXED_HOSTS[type];
  return fixed ? { host: fixed, port: 443, field: 'type' } : undefined;
}

async function networkCheck(type: string, c: ConnectorConfig, ctx: CheckContext): Promise<string> {
  const t = targetOf(type, c);
  if (!t) throw new Error(`the ${type} config names no host to check`);
  await tcpProbe(t, ctx.signal, Math.min(5000, ctx.timeoutMs));
  return `reached ${t.host}:${t.port} over TCP; credentials were not verified`;
}

/**
 * The config schemas of a derived type (input, output, secret fields), for a connector family that
 * implements the type's runtime but keeps the platform's field table as its schema.
 */
export function derivedShape(kind: ConnectorKind, type: string): Pick<ConnectorDefinition, 'input' | 'output' | 'secretFields'> {
  const model = DERIVED_FIELDS[kind][type];
  if (!model) throw new Error(`no derived field table for ${kind} type ${type}`);
  return { input: inputSchema(model.fields), output: outputSchema(model.fields), secretFields: secretFieldNames(model.fields) };
}

function derivedDefinition(kind: ConnectorKind, type: string, fields: FieldSpec[]): ConnectorDefinition {
  return defineConnector({
    kind,
    type,
    input: inputSchema(fields),
    output: outputSchema(fields),
    secretFields: secretFieldNames(fields),
    check: (c, ctx) => networkCheck(type, c, ctx),
  });
}

function freeFormDefinition(kind: ConnectorKind, type: string): ConnectorDefinition {
  return defineConnector({
    kind,
    type,
    input: z.looseObject({}),
    output: z.looseObject({}),
    secretFields: [],
    freeForm: true,
    check: (c, ctx) => networkCheck(type, c, ctx),
  });
}

/** Definitions for every derived type except those in `exclude` (types with a hand-written file). */
export function derivedDefinitions(exclude: ReadonlySet<string>): ConnectorDefinition[] {
  const out: ConnectorDefinition[] = [];
  for (const kind of ['source', 'destination'] as const) {
    for (const [type, model] of Object.entries(DERIVED_FIELDS[kind])) {
      if (exclude.has(`${kind}:${type}`)) continue;
      out.push(model ? derivedDefinition(kind, type, model.fields) : freeFormDefinition(kind, type));
    }
  }
  return out;
}
