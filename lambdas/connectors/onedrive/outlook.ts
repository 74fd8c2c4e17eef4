// Outlook source (type `outlook`, the platform's fields: client_id, client_cred, tenant (default
// "common"), authority_url (default https://login.microsoftonline.com), user_email,
// outlook_folders, recursive). As the platform's outlook indexer: the mailbox's top-level folders
// whose display names are in outlook_folders (case-insensitive; none found fails the run), their
// messages page by page, their child folders too when recursive. One document per message: key its
// id, filename the first 16 hex digits of its id's SHA-256 + ".eml", version its changeKey,
// data_source url its Graph resource URL, record_locator {message_id, user_email}; read downloads
// the message's MIME content (/messages/<id>/$value), the .eml the platform partitions.
import { createHash } from 'node:crypto';
import type { Client } from '@microsoft/microsoft-graph-client';
import { defineConnector, epochSeconds, type ConnectorConfig, type SourceObject } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { credentialIssues, GRAPH_SCOPE, graphBase, graphCall, graphClient, type GraphCredentials } from './client';
import { GRAPH_PAGE_SIZE, graphDownload, graphPages } from './graph-source';

type OutlookConfig = GraphCredentials & ConnectorConfig & { user_email: string; outlook_folders?: string[] | null; recursive?: boolean };

const DEFAULT_AUTHORITY = 'https://login.microsoftonline.com';
const DEFAULT_TENANT = 'common';
const MESSAGE_FIELDS = 'id,changeKey,createdDateTime,lastModifiedDateTime,subject';

const refine = refineWith<OutlookConfig>((c, ctx) => credentialIssues(c, ctx));

const withDefaults = (c: OutlookConfig): OutlookConfig => ({ ...c, authority_url: c.authority_url || DEFAULT_AUTHORITY, tenant: c.tenant || DEFAULT_TENANT });

interface MailFolder {
  id: string;
  displayName?: string;
}
interface Message {
  id: string;
  changeKey?: string;
  createdDateTime?: string;
  lastModifiedDateTime?: string;
}

const mailbox = (c: OutlookConfig) => `/users/${encodeURIComponent(c.user_email)}`;

/** The top-level folders outlook_folders names, as the platform selects them. */
async function selectedFolders(client: Client, c: OutlookConfig, signal?: AbortSignal): Promise<MailFolder[]> {
  const wanted = new Set((c.outlook_folders ?? []).map((f) => f.toLowerCase()));
  if (!wanted.size) throw new Error('outlook_folders names no folder to read');
  const found: MailFolder[] = [];
  for await (const f of graphPages<MailFolder>(client, c, `listing of ${c.user_email}'s mail folders`, `${mailbox(c)}/mailFolders?$top=${GRAPH_PAGE_SIZE}`, signal)) {
    if (f.displayName && wanted.has(f.displayName.toLowerCase())) found.push(f);
  }
  if (!found.length) throw new Error(`mail folders ${JSON.stringify(c.outlook_folders)} not found in the mailbox of ${c.user_email}`);
  return found;
}

/** The id's digest as the platform names a message's file: <16 hex digits>.eml. */
export const messageFilename = (id: string) => `${createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 16)}.eml`;

function messageObject(c: OutlookConfig, folderId: string, m: Message): SourceObject {
  return {
    key: m.id,
    size: 0,
    filename: messageFilename(m.id),
    ...(m.changeKey ? { version: m.changeKey } : {}),
    dataSource: {
      url: `${graphBase()}/v1.0/users/${c.user_email}/mailFolders/${folderId}/messages/${m.id}`,
      ...(m.changeKey ? { version: m.changeKey } : {}),
      record_locator: { message_id: m.id, user_email: c.user_email },
      date_created: epochSeconds(m.createdDateTime),
      date_modified: epochSeconds(m.lastModifiedDateTime),
    },
  };
}

export const outlookSource = defineConnector<OutlookConfig>({
  ...derivedShape('source', 'outlook', refine),
  async check(config, ctx) {
    const c = withDefaults(config);
    const { client, credential } = graphClient(c, ctx.signal, { fresh: true });
    await graphCall('token request', c, () => credential.getToken(GRAPH_SCOPE, { abortSignal: ctx.signal }), { signal: ctx.signal }, 1);
    // The platform's precheck: the user. Then the folders, so a typo shows before a run.
    await graphCall(`lookup of user ${c.user_email}`, c, () => client.api(mailbox(c)).get(), { signal: ctx.signal }, 2);
    const folders = await selectedFolders(client, c, ctx.signal);
    return `token issued; user ${c.user_email} found; ${folders.length} of ${c.outlook_folders!.length} mail folders found`;
  },
  async *list(config, ctx) {
    const c = withDefaults(config);
    const { client } = graphClient(c, ctx?.signal);
    const queue = await selectedFolders(client, c, ctx?.signal);
    for (let folder = queue.shift(); folder; folder = queue.shift()) {
      const at = `${mailbox(c)}/mailFolders/${encodeURIComponent(folder.id)}`;
      const name = folder.displayName ?? folder.id;
      for await (const m of graphPages<Message>(client, c, `listing of messages in ${name}`, `${at}/messages?$select=${MESSAGE_FIELDS}&$top=${GRAPH_PAGE_SIZE}`, ctx?.signal)) yield messageObject(c, folder.id, m);
      if (c.recursive === true) {
        for await (const child of graphPages<MailFolder>(client, c, `listing of folders in ${name}`, `${at}/childFolders?$top=${GRAPH_PAGE_SIZE}`, ctx?.signal)) queue.push(child);
      }
    }
  },
  read(config, key, ctx) {
    const c = withDefaults(config);
    const { client } = graphClient(c, ctx?.signal);
    return graphDownload(client, c, `download of message ${key}`, `${mailbox(c)}/messages/${encodeURIComponent(key)}/$value`, ctx?.signal);
  },
});
