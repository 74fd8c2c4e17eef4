// OneDrive source (type `onedrive`, the platform's fields: authority_url, tenant, client_id,
// client_cred, user_pname, path, recursive). As the platform's onedrive indexer: the files under
// `path` in user_pname's drive (children, page by page, subfolders when recursive), each a document
// keyed by its path under `path`, version the item's eTag, data_source as the platform's
// (graph-source.ts driveItemObject) with permissions_data (permissions.ts, 20 files per Graph $batch);
// read downloads /content. Check, as the platform's precheck: a
// token (client credentials), then the user's drive and the folder (real authenticated calls).
import { defineConnector, describeError, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { credentialIssues, GRAPH_SCOPE, graphCall, graphClient, type GraphCredentials } from './client';
import { withPermissions } from './permissions';
import { driveFiles, driveFolder, driveItemObject, folderPath, readDriveFile, type DriveScope } from './graph-source';

type OneDriveSourceConfig = GraphCredentials & ConnectorConfig & { user_pname: string; path: string; recursive?: boolean };

const refine = refineWith<OneDriveSourceConfig>((c, ctx) => {
  try {
    folderPath(c.path);
  } catch (err) {
    ctx.addIssue({ code: 'custom', path: ['path'], message: describeError(err) });
  }
  credentialIssues(c, ctx);
});

const scopeOf = (c: OneDriveSourceConfig): DriveScope => ({ drive: `/users/${encodeURIComponent(c.user_pname)}/drive`, folder: folderPath(c.path) });

export const onedriveSource = defineConnector<OneDriveSourceConfig>({
  ...derivedShape('source', 'onedrive', refine),
  async check(c, ctx) {
    const { client, credential } = graphClient(c, ctx.signal, { fresh: true });
    await graphCall('token request', c, () => credential.getToken(GRAPH_SCOPE, { abortSignal: ctx.signal }), { signal: ctx.signal }, 1);
    const scope = scopeOf(c);
    await graphCall(`drive lookup of ${c.user_pname}`, c, () => client.api(scope.drive).get(), { signal: ctx.signal }, 2);
    await driveFolder(client, c, scope, ctx.signal);
    return `token issued; drive of ${c.user_pname} found; folder ${scope.folder || '(root)'} found`;
  },
  async *list(c, ctx) {
    const { client } = graphClient(c, ctx?.signal);
    const files = driveFiles(client, c, scopeOf(c), c.recursive === true, ctx?.signal);
    for await (const { item, rel, permissions } of withPermissions(client, c, files, ctx?.signal)) yield driveItemObject(item, rel, c.user_pname, permissions);
  },
  read(c, key, ctx) {
    const { client } = graphClient(c, ctx?.signal);
    return readDriveFile(client, c, scopeOf(c), key, ctx?.signal);
  },
});
