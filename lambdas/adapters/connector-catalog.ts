// The connector registry (lambdas/connectors) seen through the domain's ConnectorCatalog port.
import type { ConnectorCatalog } from '../domain/connectors';
import { checkConnection, listTypes, outputConfig, secretFields, validateConfig } from '../connectors/registry';

const catalog: ConnectorCatalog = {
  types: (kind) => listTypes(kind),
  validate: (kind, type, config, loc) => validateConfig(kind, type, config, loc),
  output: (kind, type, config) => outputConfig(kind, type, config),
  secretFields: (kind, type, config) => secretFields(kind, type, config),
  check: (kind, type, config) => checkConnection(kind, type, config),
};

export function connectorCatalog(): ConnectorCatalog {
  return catalog;
}
