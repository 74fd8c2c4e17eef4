// Composition root: builds the domain services with their adapters once per runtime (module-level
// singletons, reused across invocations).
import { config } from './config';
import { DynamoStore } from './adapters/dynamo-store';
import { secretBox } from './adapters/secret-box';
import { SqsWorkQueue } from './adapters/sqs-queue';
import { connectorCatalog } from './adapters/connector-catalog';
import { AuthService } from './domain/auth';
import { ConnectorService } from './domain/connectors';
import { S3BlobStore } from './adapters/s3-blob-store';
import { SfnOrchestrator } from './adapters/sfn-orchestrator';
import { EventBridgePublisher } from './adapters/eventbridge-publisher';
import { JobService } from './domain/jobs';
import { NotificationRecorder } from './domain/notifications';
import type { KeyValueStore, Orchestrator, WorkQueue } from './domain/ports';

export interface Services {
  store: KeyValueStore;
  auth: AuthService;
  connectors: ConnectorService;
  jobs: JobService;
  notifications: NotificationRecorder;
}

let built: Services | undefined;

const unconfiguredQueue = (name: string): WorkQueue => ({
  send: async () => {
    throw new Error(`${name} queue is not configured`);
  },
});

const unconfiguredOrchestrator: Orchestrator = {
  startJob: async () => {
    throw new Error('JOB_STATE_MACHINE_ARN is not configured');
  },
  stopJob: async () => undefined,
};

export function services(): Services {
  if (built) return built;
  const c = config();
  const store = new DynamoStore(c.TABLE_NAME);
  const checks = c.CONNECTION_CHECK_QUEUE_URL ? new SqsWorkQueue(c.CONNECTION_CHECK_QUEUE_URL) : unconfiguredQueue('connection check');
  built = {
    store,
    auth: new AuthService(store, c.AUTH_MODE, { accountId: c.DEFAULT_ACCOUNT_ID, userId: c.DEFAULT_USER_ID }),
    connectors: new ConnectorService(store, secretBox(), connectorCatalog(), checks),
    jobs: new JobService(
      store,
      new S3BlobStore(c.BUCKET_NAME),
      c.JOB_STATE_MACHINE_ARN ? new SfnOrchestrator(c.JOB_STATE_MACHINE_ARN) : unconfiguredOrchestrator,
      new EventBridgePublisher(c.EVENT_BUS_NAME),
    ),
    notifications: new NotificationRecorder(store),
  };
  return built;
}

export function resetServices(): void {
  built = undefined;
}
