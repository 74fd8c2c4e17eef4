// Connector shapes from the registry: the `type` enum of each kind and, per type, its `config`
// schema, joined by a `oneOf` discriminated on `type` (create bodies and responses). The update body
// carries no `type`, so its config is an `anyOf` (several lax configs can match the same object).
import { CONNECTOR_KINDS, getConnector, listTypes, type ConnectorKind } from '../connectors/registry';
import { ConnectorInformation, CreateConnector } from '../schemas/connectors';
import { ref, type Components, type JsonSchema } from './components';

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const safe = (type: string) => type.replace(/[^A-Za-z0-9_.-]/g, '_');

export interface ConnectorSchemas {
  create: JsonSchema;
  update: JsonSchema;
  info: JsonSchema;
  typeEnum: JsonSchema;
}

export function connectorSchemas(c: Components): Record<ConnectorKind, ConnectorSchemas> {
  const createBase = c.convert(CreateConnector, 'input') as { properties: Record<string, JsonSchema> };
  const infoBase = c.convert(ConnectorInformation, 'output') as { properties: Record<string, JsonSchema>; required: string[] };
  const out = {} as Record<ConnectorKind, ConnectorSchemas>;
  for (const kind of CONNECTOR_KINDS) {
    const Kind = cap(kind);
    const types = listTypes(kind);
    const typeEnum = c.add(`${Kind}ConnectorType`, { type: 'string', enum: types, description: `The ${kind} connector types of this deployment.` });
    const createBranches: Record<string, string> = {};
    const infoBranches: Record<string, string> = {};
    const configs: JsonSchema[] = [];
    for (const type of types) {
      const def = getConnector(kind, type)!;
      const config = c.add(`${Kind}Config_${safe(type)}`, { ...c.convert(def.input, 'input'), title: `${type} ${kind} config` });
      configs.push(config);
      const configOut = c.add(`${Kind}ConfigResponse_${safe(type)}`, c.convert(def.output, 'output'));
      const create = `Create${Kind}_${safe(type)}`;
      c.add(create, {
        type: 'object',
        properties: { name: createBase.properties.name, type: { type: 'string', const: type }, config },
        required: ['name', 'type', 'config'],
      });
      createBranches[type] = create;
      const info = `${Kind}Information_${safe(type)}`;
      c.add(info, {
        type: 'object',
        properties: { ...infoBase.properties, type: { type: 'string', const: type }, config: configOut },
        required: infoBase.required,
      });
      infoBranches[type] = info;
    }
    const oneOf = (branches: Record<string, string>) => ({
      oneOf: Object.values(branches).map(ref),
      discriminator: { propertyName: 'type', mapping: Object.fromEntries(Object.entries(branches).map(([t, n]) => [t, ref(n).$ref])) },
    });
    out[kind] = {
      typeEnum,
      create: c.add(`Create${Kind}ConnectorRequest`, oneOf(createBranches)),
      update: c.add(`Update${Kind}ConnectorRequest`, {
        type: 'object',
        properties: { config: { anyOf: configs } },
        required: ['config'],
      }),
      info: c.add(`${Kind}ConnectorInformation`, oneOf(infoBranches)),
    };
  }
  return out;
}
