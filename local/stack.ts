// The whole service on one machine: local AWS emulators in this process, the environment pointing
// the AWS SDK at them (AWS_ENDPOINT_URL_*), the resources the CDK stack would create, the queue
// consumers and the HTTP router. Used by `npm start` and by the integration/e2e tests.
//
// Each start makes a fresh random AWS credential: the service's SDK clients sign with it (the env
// below) and every emulator refuses a request whose SigV4 signature does not verify against it
// (sigv4-guard.ts), so another user of the machine, who can reach the loopback ports, reads no
// tenant's data. The data directory is made 0700 for the same reason.
import { join, resolve } from 'node:path';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { startDynamo } from './emulators/dynamodb';
import { startS3 } from './emulators/s3';
import { newEmulatorCredentials, type EmulatorCredentials } from './emulators/sigv4-guard';
import { startSqs } from './emulators/sqs';
import { startSes } from './emulators/ses';
import { startAzurite } from './emulators/azurite';
import { startStepFunctions } from './emulators/stepfunctions';
import { startEventBridge } from './emulators/eventbridge';
import { resumeUnfinishedJobs } from './recover';
import { startSchedules } from './scheduler';
import { SCHEDULED_TASKS } from '../lambdas/schedules';
import { ensureBucket, ensureQueues, ensureTable } from './bootstrap';
import { startQueuePollers } from './queue-poller';
import { startRouter } from './router';
import { isLoopbackHost } from './emulators/http-server';
import { QUEUES } from '../lambdas/queues';
import { EVENT_RULES } from '../lambdas/events';
import { config, resetConfig } from '../lambdas/config';
import { resetClients } from '../lambdas/adapters/aws-clients';
import { resetSecretBox } from '../lambdas/adapters/secret-box';
import { resetServices } from '../lambdas/services';
import { resetOrchestratorClient } from '../lambdas/adapters/sfn-orchestrator';
import { resetPublisherClient } from '../lambdas/adapters/eventbridge-publisher';
import { shutdownPartitionSandbox } from '../lambdas/engine/partition/index';
import { allowLoopbackHttpWebhooks } from '../lambdas/net/webhook-target';
import { fileURLToPath } from 'node:url';

/**
 * The port an emulator listens on: LOCAL_PORT_<NAME> (DYNAMODB, S3, SQS, SES, EVENTBRIDGE,
 * STEPFUNCTIONS) fixes it, for a firewall; unset (or 0), a free port of this start.
 */
function emulatorPort(name: string): number {
  const raw = process.env[`LOCAL_PORT_${name}`];
  if (!raw) return 0;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`LOCAL_PORT_${name}=${raw}: a port number (1-65535), or 0 for a free one`);
  return port;
}
import { dirname } from 'node:path';

export interface LocalStackOptions {
  /** Where every emulator keeps its data (default .data/). */
  dataDir: string;
  /** HTTP port of the API (0: any free port). */
  port: number;
  host?: string;
  authMode?: 'none' | 'keyed';
  /**
   * Let webhook channels name http:// loopback receivers (default: LOCAL_WEBHOOKS_ALLOW_LOOPBACK=true).
   * Only this local runner can switch it on; no Lambda reads the variable.
   */
  allowLoopbackWebhooks?: boolean;
  /** Also start Azurite (Azure Blob emulator) and export its connection string. */
  azurite?: boolean;
  /** Lambda timeouts of job tasks other than the deployed ones, by placeholder (tests of a step that overruns). */
  taskTimeouts?: Record<string, number>;
  /** One line per component as it starts. */
  log?: (line: string) => void;
  onRequest?: (line: { method: string; path: string; status: number; ms: number }) => void;
}

export interface LocalStack {
  url: string;
  endpoints: Record<string, string>;
  /** This start's emulator credential: a client of the emulators must sign with it. */
  credentials: EmulatorCredentials;
  env: Record<string, string>;
  /** Resolves when every event delivery started so far has finished. */
  eventsIdle(): Promise<void>;
  /** Resolves when no state machine task (a Lambda invocation) is running, those of aborted executions included. */
  tasksIdle(): Promise<void>;
  stop(): Promise<void>;
}

const REGION = 'us-east-1';
/** Largest response the local service builds (AWS: a Lambda answer carries at most 6 MB). */
export const LOCAL_RESPONSE_MAX_BYTES = 100 * 1000 * 1000;

/** One aligned startup line per component. */
const row = (name: string, impl: string, url: string, note?: string) =>
  `${name.padEnd(14)}${impl.padEnd(25)}${url}${note ? `  (${note})` : ''}`;

export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const log = opts.log ?? (() => undefined);
  // objects, tables, the secrets key and this start's credential (endpoints.json) live here: owner only
  if ((statSync(dataDir).mode & 0o077) !== 0) {
    try {
      chmodSync(dataDir, 0o700);
    } catch (err) {
      log(`WARNING       ${dataDir} is readable by other users and could not be made 0700: ${(err as Error).message}`);
    }
  }
  const credentials = newEmulatorCredentials();
  const stops: (() => Promise<void>)[] = [];
  const endpoints: Record<string, string> = {};

  // the partition sandbox's workers (started on first use) stop with the stack
  stops.push(shutdownPartitionSandbox);
  try {
    const dynamo = await startDynamo({ dataDir: join(dataDir, 'dynamodb'), credentials, port: emulatorPort('DYNAMODB') });
    stops.push(dynamo.stop);
    endpoints.dynamodb = dynamo.endpoint;
    log(row('dynamodb', 'dynalite', dynamo.endpoint));

    const s3 = await startS3({ dataDir: join(dataDir, 's3'), credentials, port: emulatorPort('S3') });
    stops.push(s3.stop);
    endpoints.s3 = s3.endpoint;
    log(row('s3', 's3rver', s3.endpoint));

    const sqs = await startSqs({ dataDir: join(dataDir, 'sqs'), credentials, port: emulatorPort('SQS') });
    stops.push(sqs.stop);
    endpoints.sqs = sqs.endpoint;
    log(row('sqs', 'fauxqs', sqs.endpoint));

    const ses = await startSes({ credentials, port: emulatorPort('SES') });
    stops.push(ses.stop);
    endpoints.sesv2 = ses.endpoint;
    log(row('sesv2', 'aws-ses-v2-local', ses.endpoint));

    const eventBridge = await startEventBridge({ region: REGION, credentials, port: emulatorPort('EVENTBRIDGE') });
    stops.push(eventBridge.stop);
    endpoints.eventbridge = eventBridge.endpoint;
    log(row('eventbridge', 'PutEvents stand-in', eventBridge.endpoint, `${EVENT_RULES.length} rules from lambdas/events.ts`));

    const bucketName = process.env.BUCKET_NAME ?? 'wps-data';
    const sfn = await startStepFunctions({
      repoRoot: dirname(dirname(fileURLToPath(import.meta.url))),
      region: REGION,
      resources: { BucketName: bucketName },
      taskTimeouts: opts.taskTimeouts,
      credentials,
      port: emulatorPort('STEPFUNCTIONS'),
      onStatusChange: (detail) => eventBridge.emit('aws.states', 'Step Functions Execution Status Change', detail),
    });
    stops.push(sfn.stop);
    endpoints.stepfunctions = sfn.endpoint;
    log(row('stepfunctions', 'aws-local-stepfunctions', sfn.endpoint, `${Object.keys(sfn.arns).length} state machine(s), statemachines/*.asl.json`));

    if (opts.azurite) {
      const az = await startAzurite({ dataDir: join(dataDir, 'azurite') });
      stops.push(az.stop);
      endpoints.azureBlob = az.endpoint;
      process.env.AZURITE_CONNECTION_STRING = az.connectionString;
      // Account-name/key configs reach Azurite instead of <account>.blob.core.windows.net.
      process.env.AZURE_STORAGE_BLOB_ENDPOINT = az.endpoint.replace(az.accountName, '{account}');
      log(row('azure blob', 'azurite', az.endpoint));
    }

    const env: Record<string, string> = {
      AWS_REGION: REGION,
      // This start's emulator credential (every emulator verifies the signature). Real AWS
      // credentials in the caller's environment are never sent to the emulators.
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
      AWS_ENDPOINT_URL_S3: endpoints.s3,
      AWS_ENDPOINT_URL_SQS: endpoints.sqs,
      AWS_ENDPOINT_URL_SESV2: endpoints.sesv2,
      AWS_ENDPOINT_URL_EVENTBRIDGE: endpoints.eventbridge,
      AWS_ENDPOINT_URL_SFN: endpoints.stepfunctions,
      EVENT_BUS_NAME: 'wps-events',
      ...sfn.arns,
      TABLE_NAME: process.env.TABLE_NAME ?? 'wps',
      BUCKET_NAME: bucketName,
      AUTH_MODE: opts.authMode ?? (process.env.AUTH_MODE as 'none' | 'keyed' | undefined) ?? 'none',
      SECRETS_KEY_FILE: join(dataDir, 'secrets.key'),
      // The local connector keeps out of this directory (except its connector-files folder).
      DATA_DIR: dataDir,
      // -- no Lambda payload limit here: a synchronous answer may be larger than on AWS --
      RESPONSE_MAX_BYTES: process.env.RESPONSE_MAX_BYTES ?? String(LOCAL_RESPONSE_MAX_BYTES),
    };
    Object.assign(process.env, env);
    resetConfig();
    resetClients();
    resetSecretBox();
    resetServices();
    resetOrchestratorClient();
    resetPublisherClient();

    await ensureTable(env.TABLE_NAME!, REGION);
    await ensureBucket(env.BUCKET_NAME!, REGION);
    const queueUrls = await ensureQueues('wps', REGION);
    for (const q of QUEUES) {
      if (queueUrls[q.name]) env[q.urlEnv] = queueUrls[q.name]!;
    }
    const restored = await sqs.restorePending(queueUrls, REGION);
    if (restored) log(`${'queues'.padEnd(14)}${restored} message(s) kept from the last run queued again`);
    Object.assign(process.env, env);
    resetConfig();
    log(`${'resources'.padEnd(14)}table ${env.TABLE_NAME}, bucket ${env.BUCKET_NAME}, ${QUEUES.length} queue(s) with DLQs`);

    const resumed = await resumeUnfinishedJobs(env.TABLE_NAME!);
    if (resumed) log(`${'jobs'.padEnd(14)}resumed ${resumed} unfinished job(s) from the last run`);

    const loopbackWebhooks = opts.allowLoopbackWebhooks ?? /^(1|true|yes)$/i.test(process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK ?? '');
    allowLoopbackHttpWebhooks(loopbackWebhooks);
    stops.push(async () => allowLoopbackHttpWebhooks(false));
    if (loopbackWebhooks) log(`${'webhooks'.padEnd(14)}http:// loopback receivers allowed (LOCAL_WEBHOOKS_ALLOW_LOOPBACK)`);

    const schedules = startSchedules();
    stops.push(schedules.stop);
    log(row('schedules', 'timers', SCHEDULED_TASKS.map((t) => `${t.name} ${t.rate}`).join(', ')));

    const pollers = startQueuePollers(queueUrls, REGION);
    stops.push(pollers.stop);
    log(`${'consumers'.padEnd(14)}${QUEUES.map((q) => q.name).join(', ')}`);

    const host = opts.host ?? '127.0.0.1';
    const router = await startRouter({
      port: opts.port,
      host,
      maxBodyBytes: config().MAX_BODY_BYTES,
      onRequest: opts.onRequest,
    });
    stops.push(router.stop);
    if (!isLoopbackHost(host)) {
      const auth = env.AUTH_MODE === 'none' ? 'AUTH_MODE=none: no key needed' : `AUTH_MODE=${env.AUTH_MODE}`;
      log(`WARNING       HOST=${host}: the API is exposed beyond this machine (plain HTTP, ${auth}); the emulators stay on 127.0.0.1`);
    }

    return {
      url: router.url,
      endpoints,
      credentials,
      env,
      eventsIdle: eventBridge.idle,
      tasksIdle: sfn.tasksIdle,
      stop: async () => {
        for (const stop of stops.reverse()) await stop().catch(() => undefined);
      },
    };
  } catch (err) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    throw err;
  }
}
