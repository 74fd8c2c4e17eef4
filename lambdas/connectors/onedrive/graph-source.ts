// What the Microsoft Graph SOURCES (onedrive, sharepoint, outlook) share: paging a collection to the
// end by `@odata.nextLink`, downloading bytes (a drive item's /content answers 302 to a
// pre-authenticated URL, which client.ts's fetch follows under the outbound policy), and a drive's
// files under a folder (children, breadth first, recursive when asked) as the platform's onedrive
// indexer lists them, shaped into SourceObjects with its data_source. Every page and download goes
// through graphCall: 429/5xx retried with Retry-After honoured, failures with Graph's own text.
import { GraphError, ResponseType, type Client } from '@microsoft/microsoft-graph-client';
import { assertSafeKey, epochSeconds, type SourceObject } from '../definition';
import { graphBase, graphCall, type GraphCredentials } from './client';

/** Items asked per page (Graph's own cap applies: 200 for drive children, 1000 for messages). */
export const GRAPH_PAGE_SIZE = 200;

/** A path inside a drive, each segment encoded, for `root:/<path>:` addressing. */
export const encodePath = (path: string) => path.split('/').filter(Boolean).map(encodeURIComponent).join('/');

/** Every item of a Graph collection, page after page until a page has no @odata.nextLink. */
export async function* graphPages<T>(client: Client, c: GraphCredentials, op: string, first: string, signal?: AbortSignal): AsyncIterable<T> {
  const base = graphBase();
  let url: string | undefined = first;
  while (url) {
    const at: string = url;
    const page = (await graphCall(op, c, () => client.api(at).get(), { signal })) as { value?: unknown; '@odata.nextLink'?: unknown } | undefined;
    if (!page || !Array.isArray(page.value)) throw new Error(`${op} failed: Graph returned a page without a value array`);
    for (const v of page.value) yield v as T;
    const next = page['@odata.nextLink'];
    if (next === undefined || next === null) return;
    // The next page is fetched with the bearer token: only from the Graph endpoint itself, and a
    // link that points back at the page just read would page forever.
    if (typeof next !== 'string' || !next.startsWith(`${base}/`)) throw new Error(`${op} failed: Graph returned a nextLink outside ${base}`);
    if (next === at) throw new Error(`${op} failed: Graph returned the same nextLink twice`);
    url = next;
  }
}

/** A GraphError from a raw non-2xx response: Graph's error code and message, its headers (Retry-After). */
async function graphErrorOf(res: Response): Promise<GraphError> {
  const text = await res.text().catch(() => '');
  let code: string | undefined;
  let message = text.slice(0, 500) || res.statusText || `HTTP ${res.status}`;
  try {
    const j = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (j.error?.message) message = j.error.message;
    code = j.error?.code;
  } catch {
    // not JSON: the raw text
  }
  const err = new GraphError(res.status, message);
  if (code) err.code = code;
  err.headers = res.headers;
  return err;
}

/** The bytes at a Graph path (drive item /content, message /$value). */
export function graphDownload(client: Client, c: GraphCredentials, op: string, path: string, signal?: AbortSignal): Promise<Uint8Array> {
  return graphCall(
    op,
    c,
    async () => {
      const res = (await client.api(path).responseType(ResponseType.RAW).get()) as Response;
      if (!res.ok) throw await graphErrorOf(res);
      return new Uint8Array(await res.arrayBuffer());
    },
    { signal },
  );
}

export interface DriveItem {
  id: string;
  name: string;
  size?: number;
  eTag?: string;
  cTag?: string;
  createdDateTime?: string;
  lastModifiedDateTime?: string;
  webUrl?: string;
  parentReference?: { path?: string; driveId?: string };
  folder?: unknown;
  file?: unknown;
}

/** Where a drive source reads: the drive (`/users/<upn>/drive`, `/drives/<id>`) and a folder in it ('' = root). */
export interface DriveScope {
  drive: string;
  folder: string;
}

/** The configured folder, checked: no '.'/'..' segments, no leading/trailing slashes. */
export function folderPath(path: unknown): string {
  const p = typeof path === 'string' ? path.trim().replace(/^\/+|\/+$/g, '') : '';
  if (p.split('/').some((s) => s === '.' || s === '..')) throw new Error(`path ${JSON.stringify(path)} may not contain '.' or '..' segments`);
  return p;
}

/** The folder item the scope names (the drive root when ''), which must be a folder. */
export async function driveFolder(client: Client, c: GraphCredentials, scope: DriveScope, signal?: AbortSignal): Promise<DriveItem> {
  const at = scope.folder ? `${scope.drive}/root:/${encodePath(scope.folder)}:` : `${scope.drive}/root`;
  const item = (await graphCall(`lookup of folder ${scope.folder || '(root)'}`, c, () => client.api(at).get(), { signal }, 3)) as DriveItem;
  if (!item?.folder) throw new Error(`${scope.folder} is not a folder`);
  return item;
}

/** Files under the scope's folder with their paths relative to it: children page by page, folders breadth first. */
export async function* driveFiles(client: Client, c: GraphCredentials, scope: DriveScope, recursive: boolean, signal?: AbortSignal): AsyncIterable<{ item: DriveItem; rel: string }> {
  const root = await driveFolder(client, c, scope, signal);
  const queue: { id: string; rel: string }[] = [{ id: root.id, rel: '' }];
  for (let folder = queue.shift(); folder; folder = queue.shift()) {
    const op = `listing of ${[scope.folder, folder.rel].filter(Boolean).join('/') || '(root)'}`;
    for await (const item of graphPages<DriveItem>(client, c, op, `${scope.drive}/items/${encodeURIComponent(folder.id)}/children?$top=${GRAPH_PAGE_SIZE}`, signal)) {
      const rel = `${folder.rel}${item.name}`;
      if (item.folder) {
        if (recursive) queue.push({ id: item.id, rel: `${rel}/` });
      } else if (item.file) yield { item, rel };
    }
  }
}

/**
 * A drive file as the platform's onedrive indexer shapes it: version the item's eTag, url the
 * parent's path and name (`/drives/<id>/root:/<folder>/<name>`), record_locator user_pname and
 * server_relative_path (the path after `root:`, without its leading '/', then '/' and the name),
 * permissions_data when they were read (permissions.ts).
 */
export function driveItemObject(item: DriveItem, rel: string, userPname: string | null | undefined, permissions?: Record<string, unknown>[]): SourceObject {
  const parentPath = item.parentReference?.path ?? '';
  const filePath = (parentPath.split(':').pop() ?? '').replace(/^\//, '');
  const serverPath = `${filePath}/${item.name}`;
  return {
    key: assertSafeKey(rel),
    size: Number(item.size ?? 0),
    ...(item.eTag ? { version: item.eTag } : {}),
    dataSource: {
      url: `${parentPath}/${item.name}`,
      ...(item.eTag ? { version: item.eTag } : {}),
      record_locator: { user_pname: userPname ?? null, server_relative_path: serverPath },
      date_created: epochSeconds(item.createdDateTime),
      date_modified: epochSeconds(item.lastModifiedDateTime),
      ...(permissions ? { permissions_data: permissions } : {}),
    },
  };
}

/** A listed file's bytes, by its path under the scope's folder. */
export function readDriveFile(client: Client, c: GraphCredentials, scope: DriveScope, key: string, signal?: AbortSignal): Promise<Uint8Array> {
  const path = [scope.folder, assertSafeKey(key)].filter(Boolean).join('/');
  return graphDownload(client, c, `download of ${path}`, `${scope.drive}/root:/${encodePath(path)}:/content`, signal);
}
