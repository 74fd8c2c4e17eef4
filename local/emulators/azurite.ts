// Azure Blob emulator: Azurite's blob service in this process (its BlobServer class), metadata and
// extents on disk under dataDir, telemetry disabled, loose mode and no API version check (the SDK
// may speak a newer service version than Azurite 3.35 knows). Account: the well-known
// devstoreaccount1 emulator account.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface BlobServerInstance {
  start(): Promise<void>;
  close(): Promise<void>;
  getHttpServerAddress(): string;
}
type BlobServerCtor = new (config: unknown) => BlobServerInstance;
type BlobConfigurationCtor = new (...args: unknown[]) => unknown;

const require = createRequire(import.meta.url);

export const AZURITE_ACCOUNT_NAME = 'devstoreaccount1';
export const AZURITE_ACCOUNT_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface AzuriteHandle {
  /** Blob endpoint of the account, path-style: http://127.0.0.1:<port>/devstoreaccount1 */
  endpoint: string;
  connectionString: string;
  accountName: string;
  accountKey: string;
  stop(): Promise<void>;
}

let telemetryDisabled = false;

function disableTelemetry(): void {
  if (telemetryDisabled) return;
  // Same effect as --disableTelemetry: the client is initialised with telemetry off, so neither the
  // start event nor request tracing is ever sent.
  const { AzuriteTelemetryClient } = require('azurite/dist/src/common/Telemetry') as {
    AzuriteTelemetryClient: { init(location: string, enable: boolean, env: unknown): void };
  };
  AzuriteTelemetryClient.init('', false, undefined);
  telemetryDisabled = true;
}

export async function startAzurite(opts: { port?: number; dataDir: string }): Promise<AzuriteHandle> {
  mkdirSync(opts.dataDir, { recursive: true });
  disableTelemetry();
  const BlobServer = (require('azurite/dist/src/blob/BlobServer') as { default: BlobServerCtor }).default;
  const BlobConfiguration = (require('azurite/dist/src/blob/BlobConfiguration') as { default: BlobConfigurationCtor }).default;
  const config = new BlobConfiguration(
    '127.0.0.1',
    opts.port ?? 0,
    undefined, // keepAliveTimeout: default
    join(opts.dataDir, '__azurite_db_blob__.json'),
    join(opts.dataDir, '__azurite_db_blob_extent__.json'),
    [{ locationId: 'Default', locationPath: join(opts.dataDir, '__blobstorage__'), maxConcurrency: 10 }],
    false, // enableAccessLog
    undefined,
    false, // enableDebugLog
    undefined,
    true, // loose
    true, // skipApiVersionCheck
  );
  const server = new BlobServer(config);
  await server.start();
  const address = server.getHttpServerAddress(); // http://127.0.0.1:<port>
  const endpoint = `${address}/${AZURITE_ACCOUNT_NAME}`;
  let stopped = false;
  return {
    endpoint,
    connectionString: `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT_NAME};AccountKey=${AZURITE_ACCOUNT_KEY};BlobEndpoint=${endpoint};`,
    accountName: AZURITE_ACCOUNT_NAME,
    accountKey: AZURITE_ACCOUNT_KEY,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
    },
  };
}
