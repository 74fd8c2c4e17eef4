// Composition root: builds the domain services with their adapters once per runtime (module-level
// singletons, reused across invocations).
import { config } from './config';
import { DynamoStore } from './adapters/dynamo-store';
import { secretBox } from './adapters/secret-box';
import { SqsWorkQueue } from './adapters/sqs-queue';
import { connectorCatalog } from './adapters/connector-catalog';
import { AuthService } from './domain/auth';
import { ConnectorService } from './domain/connectors';
import type { KeyValueStore, WorkQueue } from './domain/ports';

export interface Services {
  store: KeyValueStore;
  auth: AuthService;
  connectors: ConnectorService;
}

let built: Services | undefined;

const unconfiguredQueue = (name: string): WorkQueue => ({
  send: async () => {
    throw new Error(`${name} queue is not configured`);
  },
});

export function services(): Services {
  if (built) return built;
  const c = config();
  const store = new DynamoStore(c.TABLE_NAME);
  const checks = c.CONNECTION_CHECK_QUEUE_URL ? new SqsWorkQueue(c.CONNECTION_CHECK_QUEUE_URL) : unconfiguredQueue('connection check');
  built = {
    store,
    auth: new AuthService(store, c.AUTH_MODE, { accountId: c.DEFAULT_ACCOUNT_ID, userId: c.DEFAULT_USER_ID }),
    connectors: new ConnectorService(store, secretBox(), connectorCatalog(), checks),
  };
  return built;
}

export function resetServices(): void {
  built = undefined;
}
