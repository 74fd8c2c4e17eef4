// Salesforce source (type `salesforce`, the platform's salesforce.py): categories (Account, Case,
// Campaign, EmailMessage, Lead), consumer_key, private_key (PEM, secret), username; JWT bearer login
// and SOQL through client.ts.
//
// List, as the platform's indexer: per category `select Id, SystemModstamp, CreatedDate,
// LastModifiedDate from <category>`, paged through nextRecordsUrl to the end. A record is the
// document `<category>/<Id>.xml` (`.eml` for EmailMessage), partitioned as `<Id>.xml|.eml`;
// version = SystemModstamp (what the platform uses: it moves on every change, system ones included)
// in epoch seconds; data_source url = the record's REST url (attributes.url, as the platform),
// record_locator {id}, date_created = CreatedDate, date_modified = LastModifiedDate.
// Read, as the platform's downloader: `select FIELDS(STANDARD) from <category> where Id='<Id>'`,
// rendered by documents.ts; a record gone since the listing fails that file with the answer.
// Check: a login, then `SELECT Id FROM <category> LIMIT 1` per category (the listing's own call
// path and permissions, a small answer), Salesforce's text on failure.
import { createPrivateKey } from 'node:crypto';
import { defineConnector, epochSeconds, type RuntimeContext, type SourceObject } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { apiGet, failure, queryAll, session, DATA_PATH, type SalesforceConfig } from './client';
import { emlForRecord, salesforceTime, xmlForRecord, type SfRecord } from './documents';

/** The platform's ACCEPTED_CATEGORIES. */
export const ACCEPTED_CATEGORIES = ['Account', 'Case', 'Campaign', 'EmailMessage', 'Lead'] as const;
const ID = /^[A-Za-z0-9]{15,18}$/;
const KEY = new RegExp(`^(${ACCEPTED_CATEGORIES.join('|')})/([A-Za-z0-9]{15,18})\\.(xml|eml)$`);

const refine = refineWith<SalesforceConfig>((c, ctx) => {
  if (Array.isArray(c.categories)) {
    if (c.categories.length === 0) ctx.addIssue({ code: 'custom', path: ['categories'], message: `categories must name at least one of ${ACCEPTED_CATEGORIES.join(', ')}` });
    c.categories.forEach((cat, i) => {
      if (!(ACCEPTED_CATEGORIES as readonly unknown[]).includes(cat)) {
        ctx.addIssue({ code: 'custom', path: ['categories', i], message: `${JSON.stringify(cat)} is not an accepted Salesforce category (accepted: ${ACCEPTED_CATEGORIES.join(', ')})` });
      }
    });
  }
  if (typeof c.private_key === 'string' && c.private_key !== '**********') {
    try {
      if (createPrivateKey(c.private_key).asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    } catch {
      // Never the key nor the parser's text (it may quote the key).
      ctx.addIssue({ code: 'custom', path: ['private_key'], message: 'private_key must be an RSA private key in PEM (the connected app certificate\'s key, e.g. server.key)' });
    }
  }
  for (const f of ['consumer_key', 'username'] as const) {
    if (typeof c[f] === 'string' && !(c[f] as string).trim()) ctx.addIssue({ code: 'custom', path: [f], message: `${f} must not be empty` });
  }
});

const extension = (category: string) => (category === 'EmailMessage' ? 'eml' : 'xml');
const categoriesOf = (c: SalesforceConfig) => [...new Set(c.categories)];

function toSourceObject(category: string, r: Record<string, unknown>): SourceObject {
  const id = r.Id;
  if (typeof id !== 'string' || !ID.test(id)) throw new Error(`Salesforce listing of ${category} failed: a record has no valid Id (${JSON.stringify(id)})`);
  const attributes = (r.attributes ?? {}) as { type?: unknown; url?: unknown };
  const version = epochSeconds(salesforceTime(r.SystemModstamp));
  const filename = `${id}.${extension(category)}`;
  return {
    key: `${category}/${filename}`,
    size: 0,
    ...(version ? { version } : {}),
    filename,
    dataSource: {
      ...(typeof attributes.url === 'string' ? { url: attributes.url } : {}),
      ...(version ? { version } : {}),
      record_locator: { id },
      date_created: epochSeconds(salesforceTime(r.CreatedDate)),
      date_modified: epochSeconds(salesforceTime(r.LastModifiedDate)),
    },
  };
}

async function* list(c: SalesforceConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  for (const category of categoriesOf(c)) {
    if (!(ACCEPTED_CATEGORIES as readonly string[]).includes(category)) throw new Error(`${JSON.stringify(category)} is not an accepted Salesforce category`);
    const soql = `select Id, SystemModstamp, CreatedDate, LastModifiedDate from ${category}`;
    for await (const r of queryAll(c, soql, `listing of ${category}`, ctx?.signal)) yield toSourceObject(category, r);
  }
}

async function read(c: SalesforceConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const m = KEY.exec(key);
  if (!m) throw new Error(`invalid Salesforce document key ${JSON.stringify(key)}`);
  const [, category, id] = m as unknown as [string, string, string];
  const op = `read of ${category} ${id}`;
  let answer: { records?: SfRecord[] };
  try {
    answer = (await apiGet(c, `${DATA_PATH}/query?q=${encodeURIComponent(`select FIELDS(STANDARD) from ${category} where Id='${id}'`)}`, ctx?.signal)) as typeof answer;
  } catch (err) {
    throw failure(op, err, [c.private_key]);
  }
  const record = answer?.records?.[0];
  if (!record) throw new Error(`Salesforce ${op} failed: no record found with record id ${id} (deleted since the listing, or not visible to ${c.username})`);
  const doc = category === 'EmailMessage' ? emlForRecord(record) : xmlForRecord(record);
  return new TextEncoder().encode(doc);
}

export const salesforceSource = defineConnector<SalesforceConfig>({
  ...derivedShape('source', 'salesforce', refine),
  async check(c, ctx) {
    let s;
    try {
      s = await session(c, ctx.signal, true);
    } catch (err) {
      throw failure('login', err, [c.private_key]);
    }
    for (const category of categoriesOf(c)) {
      const op = `query of ${category}`;
      try {
        await apiGet(c, `${DATA_PATH}/query?q=${encodeURIComponent(`SELECT Id FROM ${category} LIMIT 1`)}`, ctx.signal);
      } catch (err) {
        throw failure(op, err, [c.private_key]);
      }
    }
    return `authenticated to ${new URL(s.instanceUrl).host} as ${c.username}; readable: ${categoriesOf(c).join(', ')}`;
  },
  list,
  read,
});
