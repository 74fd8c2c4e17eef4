// Composition root, shared part: the store and authentication, which every HTTP handler needs.
// Each area has its own root (connectors.ts, jobs.ts) so a Lambda bundles only the code it uses.
import { config } from '../config';
import { DynamoStore } from '../adapters/dynamo-store';
import { AuthService } from '../domain/auth';
import { AccountQuotas } from '../domain/quotas';
import type { KeyValueStore } from '../domain/ports';

let store: KeyValueStore | undefined;
let auth: AuthService | undefined;
let quotas: AccountQuotas | undefined;

export function coreStore(): KeyValueStore {
  return (store ??= new DynamoStore(config().TABLE_NAME));
}

export function authService(): AuthService {
  const c = config();
  return (auth ??= new AuthService(coreStore(), c.AUTH_MODE, { accountId: c.DEFAULT_ACCOUNT_ID, userId: c.DEFAULT_USER_ID }));
}

/** Per-account limits, from the operator's settings (ACCOUNT_MAX_*, ACCOUNT_CHECKS_PER_MINUTE). */
export function accountQuotas(): AccountQuotas {
  const c = config();
  return (quotas ??= new AccountQuotas(coreStore(), {
    connectors: c.ACCOUNT_MAX_CONNECTORS,
    workflows: c.ACCOUNT_MAX_WORKFLOWS,
    uploads: c.ACCOUNT_MAX_UPLOADS,
    checksPerMinute: c.ACCOUNT_CHECKS_PER_MINUTE,
    activeJobs: c.ACCOUNT_MAX_ACTIVE_JOBS,
  }));
}

export function resetCore(): void {
  store = undefined;
  auth = undefined;
  quotas = undefined;
}
