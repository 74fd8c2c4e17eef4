// A local stand-in for Salesforce as the salesforce source calls it (tests only; no handler imports
// it), on the REST stand-in plumbing (rest-test-server.ts: call log, injected faults):
// - POST /services/oauth2/token, grant_type jwt-bearer: the assertion's RS256 signature is VERIFIED
//   with the connected app's public key (found by iss = consumer key), then sub (a pre-authorized
//   user), aud (the login URL) and exp (future, at most 5 minutes ahead) are checked; refusals as
//   Salesforce answers them ({"error":"invalid_grant","error_description":"..."}). The answer names
//   `instance_url`: this server, or what the test sets (a hostile token server).
// - GET /services/data/v57.0/query?q=<SOQL> for the shapes the source sends (the listing's select,
//   the read's FIELDS(STANDARD) by Id, the check's LIMIT 1), pages of `pageSize` records with
//   done/nextRecordsUrl, and GET /services/data/v57.0/query/<locator>-<offset> for the next pages.
//   A bearer token that was not issued or was expired answers 401 INVALID_SESSION_ID; an unknown or
//   hidden object 400 INVALID_TYPE; REST errors as `[{"message","errorCode"}]`.
// Records keep float fields as JSON lexemes (`float('3000000.0')`), as Salesforce writes them.
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import { LosslessNumber, stringify } from 'lossless-json';
import { startRestStandIn, bearer, type RestStandIn, type StandInReply, type StandInRequest } from '../rest-test-server';

const DATA = '/services/data/v57.0';
const ID_PREFIX: Record<string, string> = { Account: '001', Case: '500', Campaign: '701', EmailMessage: '02s', Lead: '00Q' };

export const float = (lexeme: string) => new LosslessNumber(lexeme);

export interface SalesforceStandIn extends RestStandIn {
  /** The login URL (SALESFORCE_LOGIN_URL) and, unless set otherwise, the instance URL. */
  loginUrl: string;
  /** What the token answer names as instance_url (default: this server). */
  instanceUrl: string;
  /** Decoded claims of every assertion the token endpoint verified. */
  assertions: Record<string, unknown>[];
  records: Map<string, Map<string, Record<string, unknown>>>;
  /** Objects the user may not see (queries answer INVALID_TYPE, as Salesforce does). */
  hidden: Set<string>;
  add(category: string, fields: Record<string, unknown>): string;
  update(category: string, id: string, fields: Record<string, unknown>): void;
  remove(category: string, id: string): void;
  /** Invalidates every issued access token (a session timeout). */
  expireSessions(): void;
  /** Answer with `connection: close` (no pooled connection outlives a change of the outbound policy). */
  closeConnections: boolean;
}

export interface StandInOptions {
  consumerKey: string;
  /** The connected app's certificate key (PEM of the public key, or of the private key it derives from). */
  publicKey: string | KeyObject;
  /** Pre-authorized users; another sub gets "user hasn't approved this consumer". */
  usernames: string[];
  pageSize?: number;
}

const restError = (status: number, errorCode: string, message: string): StandInReply => ({ status, body: [{ message, errorCode }] });
const oauthError = (error: string, description: string, status = 400): StandInReply => ({ status, body: { error, error_description: description } });

export async function startSalesforceStandIn(opts: StandInOptions): Promise<SalesforceStandIn> {
  const publicKey = createPublicKey(opts.publicKey);
  const tokens = new Set<string>();
  const cursors = new Map<string, { category: string; ids: string[]; fields: string[] }>();
  const records = new Map<string, Map<string, Record<string, unknown>>>();
  const hidden = new Set<string>();
  const assertions: Record<string, unknown>[] = [];
  let clock = Date.parse('2026-03-02T09:00:00Z');
  let seq = 0;
  const now = () => new Date((clock += 61_000)).toISOString().replace('Z', '+0000');
  const pageSize = opts.pageSize ?? 2000;

  function token(req: StandInRequest): StandInReply {
    const form = new URLSearchParams(req.body.toString('utf8'));
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return oauthError('unsupported_grant_type', 'grant type not supported');
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3) return oauthError('invalid_grant', 'invalid assertion');
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    } catch {
      return oauthError('invalid_grant', 'invalid assertion');
    }
    if (claims.iss !== opts.consumerKey) return oauthError('invalid_client_id', 'client identifier invalid');
    const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
    if (header.alg !== 'RS256' || !verify('sha256', signed, publicKey, Buffer.from(parts[2]!, 'base64url'))) return oauthError('invalid_grant', 'invalid assertion');
    if (claims.aud !== stand.loginUrl) return oauthError('invalid_grant', 'audience is invalid');
    const exp = Number(claims.exp);
    const nowS = Date.now() / 1000;
    if (!Number.isFinite(exp) || exp < nowS || exp > nowS + 300) return oauthError('invalid_grant', 'expired authorization code');
    if (!opts.usernames.includes(String(claims.sub))) return oauthError('invalid_grant', "user hasn't approved this consumer");
    assertions.push(claims);
    const access = `00DSTANDIN!${randomBytes(24).toString('base64url')}`;
    tokens.add(access);
    return { status: 200, body: { access_token: access, scope: 'api', instance_url: stand.instanceUrl, id: `${stand.loginUrl}/id/00DSTANDIN/005STANDIN`, token_type: 'Bearer' } };
  }

  const attributes = (category: string, id: string) => ({ type: category, url: `${DATA}/sobjects/${category}/${id}` });
  const json = (status: number, value: unknown): StandInReply => ({ status, body: stringify(value) ?? '', headers: { 'content-type': 'application/json;charset=UTF-8' } });

  function page(category: string, ids: string[], fields: string[], offset: number): StandInReply {
    const table = records.get(category) ?? new Map();
    const slice = ids.slice(offset, offset + pageSize).filter((id) => table.has(id));
    const rows = slice.map((id) => {
      const r = table.get(id)!;
      const picked = fields.length ? Object.fromEntries(fields.map((f) => [f, r[f] ?? null])) : r;
      return { attributes: attributes(category, id), ...picked };
    });
    const done = offset + pageSize >= ids.length;
    let next: string | undefined;
    if (!done) {
      const locator = `01gSTANDIN${String(++seq).padStart(8, '0')}`;
      cursors.set(locator, { category, ids, fields });
      next = `${DATA}/query/${locator}-${offset + pageSize}`;
    }
    return json(200, { totalSize: ids.length, done, records: rows, ...(next ? { nextRecordsUrl: next } : {}) });
  }

  function query(soql: string): StandInReply {
    const listing = /^select Id, SystemModstamp, CreatedDate, LastModifiedDate from (\w+)$/i.exec(soql);
    const byId = /^select FIELDS\(STANDARD\) from (\w+) where Id='([A-Za-z0-9]+)'$/i.exec(soql);
    const one = /^select Id from (\w+) limit 1$/i.exec(soql);
    const category = (listing ?? byId ?? one)?.[1];
    if (!category) return restError(400, 'MALFORMED_QUERY', `unexpected token: ${soql.slice(0, 40)}`);
    if (!(category in ID_PREFIX) || hidden.has(category)) {
      return restError(400, 'INVALID_TYPE', `\n${soql}\n^\nERROR at Row:1:Column:1\nsObject type '${category}' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names.`);
    }
    const ids = [...(records.get(category)?.keys() ?? [])].sort();
    if (listing) return page(category, ids, ['Id', 'SystemModstamp', 'CreatedDate', 'LastModifiedDate'], 0);
    if (one) return page(category, ids.slice(0, 1), ['Id'], 0);
    return page(category, ids.filter((id) => id === byId![2]), [], 0);
  }

  function route(req: StandInRequest): StandInReply {
    if (req.method === 'POST' && req.path === '/services/oauth2/token') return token(req);
    const t = bearer(req);
    if (!t || !tokens.has(t)) return restError(401, 'INVALID_SESSION_ID', 'Session expired or invalid');
    if (req.method !== 'GET') return restError(405, 'METHOD_NOT_ALLOWED', `HTTP Method '${req.method}' not allowed. Allowed are GET`);
    if (req.path === `${DATA}/query`) return query(req.query.get('q') ?? '');
    const m = new RegExp(`^${DATA}/query/(01g\\w+)-(\\d+)$`).exec(req.path);
    if (m) {
      const c = cursors.get(m[1]!);
      if (!c) return restError(400, 'INVALID_QUERY_LOCATOR', 'invalid query locator');
      return page(c.category, c.ids, c.fields, Number(m[2]));
    }
    return restError(404, 'NOT_FOUND', 'The requested resource does not exist');
  }

  const server = await startRestStandIn((req) => {
    const reply = route(req);
    return stand.closeConnections ? { ...reply, headers: { ...reply.headers, connection: 'close' } } : reply;
  });
  const stand: SalesforceStandIn = {
    ...server,
    loginUrl: server.url,
    instanceUrl: server.url,
    assertions,
    records,
    hidden,
    closeConnections: false,
    add(category, fields) {
      const id = `${ID_PREFIX[category] ?? 'a00'}STANDIN${String(++seq).padStart(5, '0')}AAA`.slice(0, 18);
      const at = now();
      const table = records.get(category) ?? new Map();
      records.set(category, table);
      table.set(id, { Id: id, ...fields, CreatedDate: at, LastModifiedDate: at, SystemModstamp: at });
      return id;
    },
    update(category, id, fields) {
      const r = records.get(category)?.get(id);
      if (!r) throw new Error(`no ${category} ${id}`);
      const at = now();
      Object.assign(r, fields, { LastModifiedDate: at, SystemModstamp: at });
    },
    remove(category, id) {
      records.get(category)?.delete(id);
    },
    expireSessions() {
      tokens.clear();
    },
  };
  return stand;
}
