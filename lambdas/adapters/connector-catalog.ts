// The connector registry (lambdas/connectors) seen through the domain's ConnectorCatalog port.
import type { ConnectorCatalog } from '../domain/connectors';
import {
  acknowledgeSource,
  checkConnection,
  deliverToDestination,
  isStreamSource,
  listSourceObjects,
  listTypes,
  outputConfig,
  readSourceObject,
  removeDocumentRecords,
  secretFields,
  supportsRuntime,
  validateConfig,
  writeDestinationObject,
} from '../connectors/registry';
import { tenantIterable, withTenant } from '../connectors/tenant';

// Calls made for an account run inside withTenant, so a type that confines what one account reaches
// (the local type's per-account folder) knows whose call it is.
const catalog: ConnectorCatalog = {
  types: (kind) => listTypes(kind),
  validate: (accountId, kind, type, config, loc) => withTenant(accountId, () => validateConfig(kind, type, config, loc)),
  output: (kind, type, config) => outputConfig(kind, type, config),
  secretFields: (kind, type, config) => secretFields(kind, type, config),
  check: (accountId, kind, type, config) => withTenant(accountId, () => checkConnection(kind, type, config)),
  supportsRuntime: (kind, type) => supportsRuntime(kind, type),
  isStream: (type) => isStreamSource(type),
  list: (accountId, type, config, opts) => tenantIterable(accountId, () => listSourceObjects(type, config, opts?.onCheckpoint ? { checkpoint: opts.onCheckpoint } : undefined)),
  acknowledge: (accountId, type, config, checkpoint) => withTenant(accountId, () => acknowledgeSource(type, config, checkpoint)),
  read: (accountId, type, config, key) => withTenant(accountId, () => readSourceObject(type, config, key)),
  write: (accountId, type, config, key, data) => withTenant(accountId, () => writeDestinationObject(type, config, key, data)),
  deliver: (accountId, type, config, doc) => withTenant(accountId, () => deliverToDestination(type, config, doc)),
  remove: (accountId, type, config, doc) => withTenant(accountId, () => removeDocumentRecords(type, config, doc)),
};

export function connectorCatalog(): ConnectorCatalog {
  return catalog;
}
