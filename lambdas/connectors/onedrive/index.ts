// OneDrive destination (type `onedrive`, fields from the platform's table: authority_url, tenant,
// client_id, client_cred, user_pname, remote_url onedrive://<folder path>). A file destination: each
// processed file's elements (with embeddings) as one JSON file `<folder>/<source key>.json` in
// user_pname's drive, as the platform's uploader names it. Up to 4 MB one PUT .../content, above it an
// upload session in 3.2 MB slices (LargeFileUploadTask); both with conflictBehavior=replace, so a
// rewrite of the file replaces it (N runs leave one file). Check, as the platform's precheck: a token
// (client credentials), the user's drive, and the remote_url's root folder (created when absent).
import { FileUpload, LargeFileUploadTask } from '@microsoft/microsoft-graph-client';
import { assertSafeKey, defineConnector, describeError, type ConnectorConfig } from '../definition';
import type { UploadContext } from '../records/types';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { credentialIssues, folderOf, GRAPH_SCOPE, graphCall, graphClient, itemPath, SESSION_SLICE_BYTES, SIMPLE_UPLOAD_MAX_BYTES, type OneDriveTarget } from './client';

type OneDriveConfig = OneDriveTarget & ConnectorConfig;

const refine = refineWith<OneDriveConfig>((c, ctx) => {
  if (typeof c.remote_url === 'string' && c.remote_url.startsWith('onedrive://')) {
    try {
      folderOf(c.remote_url);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['remote_url'], message: describeError(err) });
    }
  }
  credentialIssues(c, ctx);
});

async function writeFile(c: OneDriveConfig, key: string, data: Uint8Array, ctx: UploadContext = {}): Promise<void> {
  const path = `${folderOf(c.remote_url)}/${assertSafeKey(key)}`;
  const { client } = graphClient(c, ctx.signal);
  const at = itemPath(c.user_pname, path);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (body.byteLength <= SIMPLE_UPLOAD_MAX_BYTES) {
    await graphCall(`upload of ${path}`, c, () => client.api(`${at}/content`).query({ '@microsoft.graph.conflictBehavior': 'replace' }).header('Content-Type', 'application/json').put(body), ctx);
    return;
  }
  const session = await graphCall(`upload session for ${path}`, c, () => LargeFileUploadTask.createUploadSession(client, `${at}/createUploadSession`, { item: { '@microsoft.graph.conflictBehavior': 'replace' } }), ctx);
  const name = path.split('/').pop()!;
  const task = new LargeFileUploadTask(client, new FileUpload(body, name, body.byteLength), session, { rangeSize: SESSION_SLICE_BYTES });
  // A failed slice leaves the task's next range where it was: a retry resumes the session.
  await graphCall(`upload of ${path}`, c, () => task.upload(), ctx);
}

export const onedriveDestination = defineConnector<OneDriveConfig>({
  ...derivedShape('destination', 'onedrive', refine),
  async check(c, ctx) {
    const opts = { signal: ctx.signal };
    const { client, credential } = graphClient(c, ctx.signal, { fresh: true });
    await graphCall('token request', c, () => credential.getToken(GRAPH_SCOPE, { abortSignal: ctx.signal }), opts, 1);
    const drive = (await graphCall(`drive lookup of ${c.user_pname}`, c, () => client.api(`/users/${encodeURIComponent(c.user_pname)}/drive`).get(), opts, 2)) as { driveType?: string };
    const root = folderOf(c.remote_url).split('/')[0]!;
    try {
      await client.api(itemPath(c.user_pname, root)).get();
      return `token issued; ${drive.driveType ? `${drive.driveType} ` : ''}drive of ${c.user_pname} found; folder ${root} exists`;
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode !== 404) await graphCall(`folder lookup of ${root}`, c, () => Promise.reject(err), opts, 1);
    }
    // The platform's precheck creates the root folder when it is absent.
    await graphCall(`creating folder ${root}`, c, () => client.api(`/users/${encodeURIComponent(c.user_pname)}/drive/root/children`).post({ name: root, folder: {}, '@microsoft.graph.conflictBehavior': 'fail' }), opts, 2);
    return `token issued; drive of ${c.user_pname} found; folder ${root} created`;
  },
  write: (c, key, data, ctx) => writeFile(c, key, data, ctx),
});
