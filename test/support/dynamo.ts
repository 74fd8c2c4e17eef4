// A dynalite table on a temporary directory, with the SDK pointed at it, for store-level tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamo } from '../../local/emulators/dynamodb';
import { ensureTable } from '../../local/bootstrap';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store';
import { resetClients } from '../../lambdas/adapters/aws-clients';
import { resetConfig } from '../../lambdas/config';

export async function startTestTable(name: string): Promise<{ store: DynamoStore; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), `wps-${name}-`));
  const ddb = await startDynamo({ dataDir: dir });
  Object.assign(process.env, { AWS_ENDPOINT_URL_DYNAMODB: ddb.endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'x' });
  resetConfig();
  resetClients();
  await ensureTable(name, 'us-east-1');
  return {
    store: new DynamoStore(name),
    stop: async () => {
      resetClients();
      await ddb.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
