// Composition root of the connector area.
import { config } from '../config';
import { lazySecretBox } from '../adapters/secret-box';
import { SqsWorkQueue } from '../adapters/sqs-queue';
import { connectorCatalog } from '../adapters/connector-catalog';
import { ConnectorService } from '../domain/connectors';
import type { WorkQueue } from '../domain/ports';
import { accountQuotas, coreStore } from './core';

let connectors: ConnectorService | undefined;

const unconfiguredQueue = (name: string): WorkQueue => ({
  send: async () => {
    throw new Error(`${name} queue is not configured`);
  },
});

export function connectorService(): ConnectorService {
  if (connectors) return connectors;
  const url = config().CONNECTION_CHECK_QUEUE_URL;
  connectors = new ConnectorService(coreStore(), lazySecretBox, connectorCatalog(), url ? new SqsWorkQueue(url) : unconfiguredQueue('connection check'), undefined, accountQuotas());
  return connectors;
}

export function resetConnectorServices(): void {
  connectors = undefined;
}
