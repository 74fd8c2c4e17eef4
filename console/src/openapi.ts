// The service's own OpenAPI document, read once: the console builds its connector forms from the
// per-type config schemas there (SourceConfig_<type>, DestinationConfig_<type>).
import { call } from './api';
import type { JsonSchema } from './schema-form';

interface OpenApi {
  components: { schemas: Record<string, JsonSchema> };
}
let doc: Promise<OpenApi> | undefined;
export const openApi = () => (doc ??= call<OpenApi>('openapi.json'));

export type ConnectorKind = 'source' | 'destination';
const PREFIX: Record<ConnectorKind, string> = { source: 'SourceConfig_', destination: 'DestinationConfig_' };

/** The connector types of a kind with their config schemas, by type name. */
export async function connectorTypes(kind: ConnectorKind): Promise<Map<string, JsonSchema>> {
  const schemas = (await openApi()).components.schemas;
  const out = new Map<string, JsonSchema>();
  for (const [name, schema] of Object.entries(schemas)) if (name.startsWith(PREFIX[kind])) out.set(name.slice(PREFIX[kind].length), schema);
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}
