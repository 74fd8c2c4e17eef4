// API key administration: `npm run keys -- create --account A --user U [--label L]`,
// `npm run keys -- list --account A`, `npm run keys -- revoke --account A KEY_ID`.
// The clear key is printed once, at creation, and never stored.
// Target: the table of the running local service (.data/endpoints.json), or the local data directory
// directly when the service is stopped, or a deployed table when TABLE_NAME and AWS credentials are
// set with KEYS_TARGET=aws.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AuthService } from '../lambdas/domain/auth';
import { DynamoStore } from '../lambdas/adapters/dynamo-store';
import { startDynamo } from '../local/emulators/dynamodb';
import { ensureTable } from '../local/bootstrap';
import { processAlive } from '../local/start-guards';

// The pinned AWS SDK warns on Node 20 that its 2027 releases need Node 22: noise on every call here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    account: { type: 'string', default: process.env.DEFAULT_ACCOUNT_ID ?? 'default' },
    user: { type: 'string', default: process.env.DEFAULT_USER_ID ?? 'default' },
    label: { type: 'string', default: '' },
  },
});
const [command, keyId] = positionals;
if (!command || !['create', 'list', 'revoke'].includes(command) || (command === 'revoke' && !keyId)) {
  console.error('usage: npm run keys -- create --account A --user U [--label L] | list --account A | revoke --account A KEY_ID');
  process.exit(2);
}

let stop: (() => Promise<void>) | undefined;
// -- where the key goes is said on every call (stderr): a key never lands in another instance silently --
const where = (line: string) => console.error(`keys: ${line}`);
if (process.env.KEYS_TARGET !== 'aws') {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const endpointsFile = join(dataDir, 'endpoints.json');
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  const running = existsSync(endpointsFile)
    ? (JSON.parse(readFileSync(endpointsFile, 'utf8')) as { url?: string; pid?: number; dynamodb: string; credentials?: { accessKeyId: string; secretAccessKey: string } })
    : undefined;
  if (running && (!running.pid || processAlive(running.pid))) {
    where(`the service running on ${running.url ?? '?'} (pid ${running.pid ?? '?'}, DATA_DIR ${dataDir})`);
    // the running service's emulators answer only requests signed with its per-start credential
    process.env.AWS_ENDPOINT_URL_DYNAMODB = running.dynamodb;
    if (running.credentials) {
      process.env.AWS_ACCESS_KEY_ID = running.credentials.accessKeyId;
      process.env.AWS_SECRET_ACCESS_KEY = running.credentials.secretAccessKey;
      delete process.env.AWS_SESSION_TOKEN;
    }
  } else {
    where(existsSync(join(dataDir, 'dynamodb'))
      ? `no service is running on DATA_DIR ${dataDir}: its table is written directly (the next npm start there reads it)`
      : `no service data at DATA_DIR ${dataDir} yet: the key is for a service started there (set DATA_DIR for another)`);
    const dynamo = await startDynamo({ dataDir: join(dataDir, 'dynamodb') });
    process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
    stop = dynamo.stop;
  }
  await ensureTable(process.env.TABLE_NAME ?? 'wps', process.env.AWS_REGION);
} else {
  where(`the deployed table ${process.env.TABLE_NAME ?? 'wps'} (KEYS_TARGET=aws, region ${process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? '?'})`);
}

const auth = new AuthService(new DynamoStore(process.env.TABLE_NAME ?? 'wps'), 'keyed', { accountId: values.account!, userId: values.user! });
try {
  if (command === 'create') {
    const { keyId: id, key } = await auth.createKey(values.account!, values.user!, values.label);
    console.log(`created key ${id} for account ${values.account} user ${values.user}`);
    console.log(`API key (shown once, store it now): ${key}`);
  } else if (command === 'list') {
    for (const k of await auth.listKeys(values.account!)) console.log(`${k.keyId}\tuser=${k.userId}\tcreated=${k.createdAt}\t${k.label}`);
  } else {
    await auth.revokeKey(values.account!, keyId!);
    console.log(`revoked key ${keyId}`);
  }
} finally {
  await stop?.();
}
