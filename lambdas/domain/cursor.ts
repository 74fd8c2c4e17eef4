// Opaque, signed paging cursors. A cursor is base64url(JSON) + "." + base64url(HMAC-SHA256), bound to
// the account and user it was issued to, so a tampered or foreign cursor is refused (422), never
// trusted as a key position. The signing key is one random 32-byte key per deployment, created on
// first use and kept in the table sealed by the secret box (KMS on AWS, the local key file
// otherwise): no extra configuration, and every Lambda of the deployment shares it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyValueStore, SecretBox } from './ports';
import { Conflict, ValidationError } from '../errors';
import { ENTITY, keys } from '../data/keys';

export type CursorKeyProvider = () => Promise<Buffer>;

/** The deployment's cursor key: read (or created once, race-safe) and opened once per process. */
export function storedCursorKey(store: KeyValueStore, box: SecretBox): CursorKeyProvider {
  let key: Promise<Buffer> | undefined;
  const load = async (): Promise<Buffer> => {
    let item = await store.get(keys.notificationCursorKey);
    if (!item) {
      const sealed = await box.seal(randomBytes(32).toString('base64'));
      try {
        await store.put({ ...keys.notificationCursorKey, entity: ENTITY.cursorKey, createdAt: new Date().toISOString(), sealed }, { ifNotExists: true });
      } catch (err) {
        if (!(err instanceof Conflict)) throw err;
      }
      item = await store.get(keys.notificationCursorKey);
    }
    // Domain-separated: the stored secret could sign other kinds of cursors later.
    return createHmac('sha256', Buffer.from(await box.open(String(item!.sealed)), 'base64')).update('notification-cursor/v1').digest();
  };
  return () => {
    key ??= load().catch((err) => {
      key = undefined;
      throw err;
    });
    return key;
  };
}

export interface CursorScope {
  accountId: string;
  userId: string;
}

const invalid = () => ValidationError.single(['query', 'cursor'], 'Invalid cursor: pass next_cursor from a previous response unchanged', 'value_error');

export class CursorSigner {
  constructor(private readonly key: CursorKeyProvider) {}

  async sign(scope: CursorScope, position: string): Promise<string> {
    const body = Buffer.from(JSON.stringify({ a: scope.accountId, u: scope.userId, p: position }), 'utf8').toString('base64url');
    return `${body}.${await this.mac(body)}`;
  }

  /** The position of a cursor issued to `scope`; a ValidationError at ['query','cursor'] otherwise. */
  async verify(scope: CursorScope, cursor: string): Promise<string> {
    const [body, mac, extra] = cursor.split('.');
    if (!body || !mac || extra !== undefined) throw invalid();
    const expected = Buffer.from(await this.mac(body), 'utf8');
    const given = Buffer.from(mac, 'utf8');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    let parsed: { a?: unknown; u?: unknown; p?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (parsed.a !== scope.accountId || parsed.u !== scope.userId || typeof parsed.p !== 'string') throw invalid();
    return parsed.p;
  }

  private async mac(body: string): Promise<string> {
    return createHmac('sha256', await this.key()).update(body).digest('base64url');
  }
}
