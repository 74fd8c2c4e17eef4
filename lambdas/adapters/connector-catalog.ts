// The connector registry (lambdas/connectors) seen through the domain's ConnectorCatalog port.
import type { ConnectorCatalog } from '../domain/connectors';
import {
  checkConnection,
  deliverToDestination,
  listSourceObjects,
  listTypes,
  outputConfig,
  readSourceObject,
  secretFields,
  supportsRuntime,
  validateConfig,
  writeDestinationObject,
} from '../connectors/registry';

const catalog: ConnectorCatalog = {
  types: (kind) => listTypes(kind),
  validate: (kind, type, config, loc) => validateConfig(kind, type, config, loc),
  output: (kind, type, config) => outputConfig(kind, type, config),
  secretFields: (kind, type, config) => secretFields(kind, type, config),
  check: (kind, type, config) => checkConnection(kind, type, config),
  supportsRuntime: (kind, type) => supportsRuntime(kind, type),
  list: (type, config) => listSourceObjects(type, config),
  read: (type, config, key) => readSourceObject(type, config, key),
  write: (type, config, key, data) => writeDestinationObject(type, config, key, data),
  deliver: (type, config, doc) => deliverToDestination(type, config, doc),
};

export function connectorCatalog(): ConnectorCatalog {
  return catalog;
}
