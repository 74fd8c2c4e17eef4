// API keys and tenancy. Private mode (AUTH_MODE=none): every request acts for one default account
// and user. Keyed mode: keys are random tokens stored only as SHA-256 hashes, each mapping to an
// account and a user; an unknown or missing key is a 401.
import { createHash, randomBytes } from 'node:crypto';
import { systemClock, type Clock, type KeyValueStore } from './ports';
import { Unauthorized, NotFound } from '../errors';
import { ENTITY, keys } from '../data/keys';

export interface Principal {
  accountId: string;
  userId: string;
  keyId?: string;
}

export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/**
 * How long a warm process trusts a key it has seen: a revocation reaches every other warm Lambda
 * within this window (each process has its own cache; only the revoking one clears its own at once).
 */
export const AUTH_CACHE_MS = 30_000;

export class AuthService {
  private cache = new Map<string, { principal: Principal; until: number }>();

  constructor(
    private readonly store: KeyValueStore,
    private readonly mode: 'none' | 'keyed',
    private readonly defaults: { accountId: string; userId: string },
    private readonly clock: Clock = systemClock,
  ) {}

  async authenticate(apiKey: string | undefined): Promise<Principal> {
    if (this.mode === 'none') return { ...this.defaults };
    const key = apiKey?.trim();
    if (!key) throw new Unauthorized('API key is missing, please provide an API key in the header.');
    const hash = hashKey(key);
    const hit = this.cache.get(hash);
    if (hit && hit.until > this.clock.now().getTime()) return hit.principal;
    const item = await this.store.get(keys.apiKey(hash));
    if (!item) throw new Unauthorized('API key is invalid.');
    const principal = { accountId: String(item.accountId), userId: String(item.userId), keyId: String(item.keyId) };
    this.cache.set(hash, { principal, until: this.clock.now().getTime() + AUTH_CACHE_MS });
    return principal;
  }

  /** Creates a key; the clear key is returned once and never stored. */
  async createKey(accountId: string, userId: string, label = ''): Promise<{ keyId: string; key: string }> {
    const keyId = randomBytes(6).toString('hex');
    const key = `wps_${keyId}_${randomBytes(24).toString('base64url')}`;
    const hash = hashKey(key);
    const now = new Date().toISOString();
    await this.store.put({ ...keys.apiKey(hash), entity: ENTITY.apiKey, createdAt: now, accountId, userId, keyId, label }, { ifNotExists: true });
    await this.store.put({ ...keys.apiKeyIndex(accountId, keyId), entity: ENTITY.apiKeyRef, createdAt: now, keyHash: hash, userId, label });
    return { keyId, key };
  }

  async revokeKey(accountId: string, keyId: string): Promise<void> {
    const ref = await this.store.get(keys.apiKeyIndex(accountId, keyId));
    if (!ref) throw new NotFound(`API key ${keyId} not found`);
    await this.store.delete(keys.apiKey(String(ref.keyHash)));
    await this.store.delete(keys.apiKeyIndex(accountId, keyId));
    this.cache.clear();
  }

  async listKeys(accountId: string): Promise<{ keyId: string; userId: string; label: string; createdAt: string }[]> {
    const items = await this.store.queryPrefix(keys.account(accountId), 'APIKEYREF#');
    return items.map((i) => ({ keyId: String(i.SK).slice('APIKEYREF#'.length), userId: String(i.userId), label: String(i.label ?? ''), createdAt: i.createdAt }));
  }
}
