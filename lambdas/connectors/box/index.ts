// Box source (type `box`, the spec's fields: remote_url box://<folder path>, recursive, and one of
// access_token or box_app_config (JWT app settings); all three credentials secret and optional, the
// spec overriding the platform's model that requires box_app_config). Through the official
// box-typescript-sdk-gen (client.ts). As the platform's boxfs indexer: the folder path is walked by
// name from All Files (folder 0); GET /2.0/folders/{id}/items with marker paging to the end,
// subfolders descended when recursive; one document per file, key = its path below the folder (the
// name the platform's output carries), version = sha1 (changes with the content; the platform's
// file id would never change), data_source url box://<path>, record_locator {protocol,
// remote_file_path, file_id}, created/modified dates. Read: the path walked to the file's id, then
// GET /2.0/files/{id}/content (the SDK follows Box's redirect to the download host). Check: the
// token (or JWT grant) by GET /2.0/users/me, then the folder resolved.
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { assertSafeKey, defineConnector, describeError, fileObject, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { inputSchema, outputSchema, secretFieldNames, type FieldSpec } from '../schema';
import { CursorGuard } from '../paging';
import { boxCall, boxClient, type BoxConfig, type BoxHandle } from './client';

const FIELDS: FieldSpec[] = [
  { name: 'box_app_config', type: 'string', required: false, requiredInResponse: false, secret: true },
  { name: 'access_token', type: 'string', required: false, requiredInResponse: false, secret: true },
  { name: 'refresh_token', type: 'string', required: false, requiredInResponse: false, secret: true },
  { name: 'remote_url', type: 'string', required: true, pattern: '^box:\\/\\/', requiredInResponse: false },
  { name: 'recursive', type: 'boolean', required: false, default: true, requiredInResponse: true },
];

/** Folder names below All Files: box://a/b → ['a', 'b']; box:// → [] (All Files itself). */
export function boxFolderPath(remoteUrl: string): string[] {
  const m = /^box:\/\/(.*)$/.exec(remoteUrl);
  if (!m) throw new Error(`remote_url ${JSON.stringify(remoteUrl)} is not of the form box://<folder path>`);
  const segs = m[1]!.split('/').filter(Boolean);
  if (segs.some((s) => s === '.' || s === '..')) throw new Error(`remote_url has an invalid folder path ${JSON.stringify(m[1])}`);
  return segs;
}

const input = (inputSchema(FIELDS) as z.ZodType<ConnectorConfig>).superRefine((c, ctx) => {
  if (typeof c.remote_url === 'string' && c.remote_url.startsWith('box://')) {
    try {
      boxFolderPath(c.remote_url);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['remote_url'], message: describeError(err).replace(/^Error: /, '') });
    }
  }
}) as unknown as z.ZodType<BoxConfig>;

/** Fields asked of every item (a listing otherwise returns mini items without sha1 or dates). */
const ITEM_FIELDS = ['type', 'id', 'name', 'size', 'sha1', 'etag', 'created_at', 'modified_at', 'content_modified_at'];
const PAGE_LIMIT = 1000;

/** What the source needs of an entry (the SDK's FileFull | FolderMini | WebLink, dates wrapped). */
type Item = { type?: string; id?: string; name?: string; size?: number; sha1?: string; etag?: string | null; createdAt?: { value: Date } | null; modifiedAt?: { value: Date } | null };

/** Every item of a folder, page by page (marker paging). */
async function* folderItems(c: BoxConfig, box: BoxHandle, folderId: string, where: string, signal?: AbortSignal): AsyncIterable<Item> {
  let marker: string | undefined;
  const guard = new CursorGuard(`box listing of ${where}`);
  do {
    const page = await boxCall(`listing of ${where}`, c, box, (client) => client.folders.getFolderItems(folderId, { queryParams: { fields: ITEM_FIELDS, usemarker: true, limit: PAGE_LIMIT, ...(marker ? { marker } : {}) } }), signal);
    for (const e of page.entries ?? []) yield e as Item;
    marker = page.nextMarker ? guard.next(page.nextMarker) : undefined;
  } while (marker);
}

/** The id of the item named `name` (a folder or a file) in a folder; Box names are case-insensitive. */
async function childId(c: BoxConfig, box: BoxHandle, folderId: string, name: string, type: 'file' | 'folder', where: string, signal?: AbortSignal): Promise<string | undefined> {
  const lower = name.toLowerCase();
  for await (const item of folderItems(c, box, folderId, where, signal)) {
    if (item.type === type && item.name?.toLowerCase() === lower && item.id) return item.id;
  }
  return undefined;
}

async function resolveFolder(c: BoxConfig, box: BoxHandle, segments: string[], signal?: AbortSignal): Promise<string> {
  let id = '0';
  for (let i = 0; i < segments.length; i++) {
    const where = `/${segments.slice(0, i).join('/')}`;
    const next = await childId(c, box, id, segments[i]!, 'folder', where, signal);
    if (!next) throw new Error(`box folder /${segments.slice(0, i + 1).join('/')} not found`);
    id = next;
  }
  return id;
}

async function* list(c: BoxConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const root = boxFolderPath(c.remote_url);
  const box = boxClient(c);
  const rootId = await resolveFolder(c, box, root, ctx?.signal);
  const pending: { id: string; rel: string }[] = [{ id: rootId, rel: '' }];
  while (pending.length) {
    const folder = pending.shift()!;
    for await (const item of folderItems(c, box, folder.id, `/${[...root, folder.rel].filter(Boolean).join('/')}`, ctx?.signal)) {
      if (!item.id || !item.name) continue;
      const rel = folder.rel ? `${folder.rel}/${item.name}` : item.name;
      if (item.type === 'folder') {
        if (c.recursive !== false) pending.push({ id: item.id, rel });
        continue;
      }
      if (item.type !== 'file') continue; // web links have no content
      const version = item.sha1 || item.etag;
      yield fileObject({
        key: rel,
        size: item.size,
        version,
        url: `box://${[...root, rel].join('/')}`,
        recordLocator: { protocol: 'box', remote_file_path: c.remote_url, file_id: item.id },
        created: item.createdAt?.value,
        modified: item.modifiedAt?.value,
      });
    }
  }
}

async function read(c: BoxConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const segs = assertSafeKey(key).split('/');
  const root = boxFolderPath(c.remote_url);
  const box = boxClient(c);
  const folderId = await resolveFolder(c, box, [...root, ...segs.slice(0, -1)], ctx?.signal);
  const path = `/${[...root, ...segs].join('/')}`;
  const fileId = await childId(c, box, folderId, segs[segs.length - 1]!, 'file', path.replace(/\/[^/]*$/, '') || '/', ctx?.signal);
  if (!fileId) throw new Error(`box file ${path} not found`);
  return boxCall(
    `download of ${path}`,
    c,
    box,
    async (client) => {
      const stream = (await client.downloads.downloadFile(fileId)) as Readable | undefined;
      if (!stream) throw new Error('the download has no content');
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
      return new Uint8Array(Buffer.concat(chunks));
    },
    ctx?.signal,
  );
}

export const boxSource = defineConnector<BoxConfig>({
  kind: 'source',
  type: 'box',
  input,
  output: outputSchema(FIELDS),
  secretFields: secretFieldNames(FIELDS),
  async check(c, ctx) {
    const box = boxClient(c);
    await boxCall('token check (users/me)', c, box, (client) => client.users.getUserMe(), ctx.signal, 2);
    const root = boxFolderPath(c.remote_url);
    await resolveFolder(c, box, root, ctx.signal);
    return `token accepted; folder /${root.join('/')} found`;
  },
  list,
  read,
});
