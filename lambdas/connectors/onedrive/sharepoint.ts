// SharePoint source (type `sharepoint`, the platform's fields: site, tenant, client_id,
// client_cred, authority_url, path, recursive, user_pname). As the platform's sharepoint indexer:
// the site (GET /sites/<host>:/sites/<name>, or /sites/<host> for the root site), its default
// document library (/sites/<id>/drive), then the files under `path` in it exactly as the onedrive
// source lists and reads them (graph-source.ts); an empty path or the legacy default
// "Shared Documents" is the library's root. A tenant's admin site (all sites of the tenant) is not
// supported: refused at validation.
import { defineConnector, describeError, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { credentialIssues, GRAPH_SCOPE, graphCall, graphClient, type GraphCredentials } from './client';
import { withPermissions } from './permissions';
import { driveFiles, driveFolder, driveItemObject, folderPath, readDriveFile, type DriveScope } from './graph-source';
import type { Client } from '@microsoft/microsoft-graph-client';

type SharePointConfig = GraphCredentials & ConnectorConfig & { site: string; path?: string | null; recursive?: boolean; user_pname?: string | null };

const LEGACY_DEFAULT_PATH = 'Shared Documents';
const DEFAULT_AUTHORITY = 'https://login.microsoftonline.com';

const refine = refineWith<SharePointConfig>((c, ctx) => {
  if (typeof c.site === 'string' && /^https:\/\/[a-zA-Z0-9-]+-admin\.sharepoint\.com/.test(c.site)) {
    ctx.addIssue({ code: 'custom', path: ['site'], message: 'an admin site (all sites of the tenant) is not supported: give the site, https://<tenant>.sharepoint.com[/sites/<name>]' });
  }
  try {
    folderPath(c.path);
  } catch (err) {
    ctx.addIssue({ code: 'custom', path: ['path'], message: describeError(err) });
  }
  credentialIssues(c, ctx);
});

const withAuthority = (c: SharePointConfig): SharePointConfig => ({ ...c, authority_url: c.authority_url || DEFAULT_AUTHORITY });

/** The Graph address of the site: /sites/<host>:/sites/<name>, or /sites/<host> (the root site). */
export function siteAddress(site: string): string {
  const u = new URL(site);
  const path = u.pathname.replace(/\/+$/, '');
  return path ? `/sites/${u.hostname}:${path.split('/').map(encodeURIComponent).join('/')}` : `/sites/${u.hostname}`;
}

/** The folder under the library's root the source reads ('' = root, as the platform's legacy default). */
function libraryFolder(c: SharePointConfig): string {
  const p = folderPath(c.path);
  return p === LEGACY_DEFAULT_PATH ? '' : p;
}

/** Site id → default drive, kept a few minutes so a run's reads do not look the site up per document. */
const drives = new Map<string, { drive: string; until: number }>();
const DRIVE_TTL_MS = 5 * 60_000;

async function scopeOf(client: Client, c: SharePointConfig, signal?: AbortSignal, fresh = false): Promise<DriveScope> {
  const key = [c.authority_url, c.tenant, c.client_id, c.site].join('\n');
  const known = drives.get(key);
  if (!fresh && known && known.until > Date.now()) return { drive: known.drive, folder: libraryFolder(c) };
  const site = (await graphCall(`lookup of site ${c.site}`, c, () => client.api(siteAddress(c.site)).get(), { signal }, 3)) as { id?: string };
  if (!site?.id) throw new Error(`lookup of site ${c.site} failed: Graph returned no site id`);
  const siteId = encodeURIComponent(site.id).replaceAll('%2C', ',');
  const lib = (await graphCall(`lookup of the document library of ${c.site}`, c, () => client.api(`/sites/${siteId}/drive`).get(), { signal }, 3)) as { id?: string };
  if (!lib?.id) throw new Error(`lookup of the document library of ${c.site} failed: Graph returned no drive id`);
  const drive = `/drives/${encodeURIComponent(lib.id)}`;
  if (drives.size > 256) drives.clear();
  drives.set(key, { drive, until: Date.now() + DRIVE_TTL_MS });
  return { drive, folder: libraryFolder(c) };
}

export const sharepointSource = defineConnector<SharePointConfig>({
  ...derivedShape('source', 'sharepoint', refine),
  async check(config, ctx) {
    const c = withAuthority(config);
    const { client, credential } = graphClient(c, ctx.signal, { fresh: true });
    await graphCall('token request', c, () => credential.getToken(GRAPH_SCOPE, { abortSignal: ctx.signal }), { signal: ctx.signal }, 1);
    const scope = await scopeOf(client, c, ctx.signal, true);
    await driveFolder(client, c, scope, ctx.signal);
    return `token issued; site ${c.site} and its document library found; folder ${scope.folder || '(root)'} found`;
  },
  async *list(config, ctx) {
    const c = withAuthority(config);
    const { client } = graphClient(c, ctx?.signal);
    const scope = await scopeOf(client, c, ctx?.signal, true);
    const files = driveFiles(client, c, scope, c.recursive === true, ctx?.signal);
    for await (const { item, rel, permissions } of withPermissions(client, c, files, ctx?.signal)) yield driveItemObject(item, rel, c.user_pname, permissions);
  },
  async read(config, key, ctx) {
    const c = withAuthority(config);
    const { client } = graphClient(c, ctx?.signal);
    return readDriveFile(client, c, await scopeOf(client, c, ctx?.signal), key, ctx?.signal);
  },
});
