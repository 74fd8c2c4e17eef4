// Composition root, shared part: the store and authentication, which every HTTP handler needs.
// Each area has its own root (connectors.ts, jobs.ts) so a Lambda bundles only the code it uses.
import { config } from '../config';
import { DynamoStore } from '../adapters/dynamo-store';
import { AuthService } from '../domain/auth';
import type { KeyValueStore } from '../domain/ports';

let store: KeyValueStore | undefined;
let auth: AuthService | undefined;

export function coreStore(): KeyValueStore {
  return (store ??= new DynamoStore(config().TABLE_NAME));
}

export function authService(): AuthService {
  const c = config();
  return (auth ??= new AuthService(coreStore(), c.AUTH_MODE, { accountId: c.DEFAULT_ACCOUNT_ID, userId: c.DEFAULT_USER_ID }));
}

export function resetCore(): void {
  store = undefined;
  auth = undefined;
}
