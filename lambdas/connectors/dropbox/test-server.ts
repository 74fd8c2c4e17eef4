// A local stand-in for the Dropbox API v2 as the official `dropbox` SDK calls it (tests only): RPC
// endpoints POST /2/users/get_current_account, /2/files/list_folder and /2/files/list_folder/continue
// (JSON bodies; entries paged `pageSize` at a time behind an opaque cursor), and the content
// endpoint POST /2/files/download (Dropbox-API-Arg header in, bytes out with the metadata in the
// Dropbox-API-Result header). Errors as Dropbox sends them: 401 {error_summary:
// "invalid_access_token/..."}, 409 {error_summary: "path/not_found/..."}. content_hash is Dropbox's
// (SHA-256 over the SHA-256 of each 4 MiB block). Paths are case-insensitive, as Dropbox's.
import { createHash, randomUUID } from 'node:crypto';
import { bearer, startRestStandIn, type RestStandIn, type StandInReply, type StandInRequest } from '../rest-test-server';

export interface DropboxStandIn extends RestStandIn {
  token: string;
  put(path: string, data: string | Buffer): void;
  remove(path: string): void;
  /** Files whose download answers with this status and Dropbox error. */
  denyDownload(path: string, status: number, summary: string): void;
}

interface StoredFile {
  path: string;
  data: Buffer;
  id: string;
  rev: number;
  clientModified: Date;
  serverModified: Date;
}

export function dropboxContentHash(data: Buffer): string {
  const block = 4 * 1024 * 1024;
  const outer = createHash('sha256');
  for (let i = 0; i < data.length || i === 0; i += block) {
    outer.update(createHash('sha256').update(data.subarray(i, i + block)).digest());
    if (data.length === 0) break;
  }
  return outer.digest('hex');
}

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const err = (status: number, summary: string): StandInReply => ({ status, body: { error_summary: summary, error: { '.tag': summary.split('/')[0] } } });

export async function startDropboxStandIn(opts: { pageSize?: number; token?: string } = {}): Promise<DropboxStandIn> {
  const token = opts.token ?? `sl.${randomUUID()}`;
  const pageSize = opts.pageSize ?? 2;
  const files = new Map<string, StoredFile>();
  const denied = new Map<string, { status: number; summary: string }>();
  const cursors = new Map<string, { entries: unknown[] }>();
  let rev = 0;

  const meta = (f: StoredFile) => ({
    '.tag': 'file',
    name: f.path.split('/').pop(),
    path_lower: f.path.toLowerCase(),
    path_display: f.path,
    id: f.id,
    client_modified: iso(f.clientModified),
    server_modified: iso(f.serverModified),
    rev: f.rev.toString(16).padStart(9, '0'),
    size: f.data.length,
    is_downloadable: true,
    content_hash: dropboxContentHash(f.data),
  });

  // A cursor names a listing and a position, so every page hands out a new one (as Dropbox's do).
  function page(cursor: string): StandInReply {
    const [key, at] = [cursor.split(':')[0]!, Number(cursor.split(':')[1] ?? 0)];
    const c = cursors.get(key)!;
    const entries = c.entries.slice(at, at + pageSize);
    return { status: 200, body: { entries, cursor: `${key}:${at + entries.length}`, has_more: at + entries.length < c.entries.length } };
  }

  function listFolder(args: { path: string; recursive?: boolean; limit?: number }): StandInReply {
    const folder = args.path.toLowerCase();
    if (folder && ![...files.keys()].some((p) => p.startsWith(`${folder}/`))) return err(409, 'path/not_found/..');
    const entries: unknown[] = [];
    const subfolders = new Set<string>();
    for (const f of [...files.values()].sort((a, b) => a.path.localeCompare(b.path))) {
      const lower = f.path.toLowerCase();
      if (!lower.startsWith(`${folder}/`)) continue;
      const rest = f.path.slice(folder.length + 1);
      if (rest.includes('/')) {
        subfolders.add(`${f.path.slice(0, folder.length)}/${rest.split('/')[0]}`);
        if (!args.recursive) continue;
      }
      entries.push(meta(f));
    }
    for (const s of subfolders) entries.unshift({ '.tag': 'folder', name: s.split('/').pop(), path_lower: s.toLowerCase(), path_display: s, id: `id:${s}` });
    const key = randomUUID();
    cursors.set(key, { entries: args.limit ? entries.slice(0, args.limit) : entries });
    return page(`${key}:0`);
  }

  const route = (req: StandInRequest): StandInReply => {
    if (req.method !== 'POST') return { status: 405, body: 'method not allowed' };
    if (bearer(req) !== token) return err(401, 'invalid_access_token/..');
    const json = () => (req.body.length ? JSON.parse(req.body.toString('utf8')) : null);
    switch (req.path) {
      case '/2/users/get_current_account':
        return { status: 200, body: { account_id: 'dbid:stand-in', name: { display_name: 'Stand In' }, email: 'stand-in@example.com' } };
      case '/2/files/list_folder':
        return listFolder(json());
      case '/2/files/list_folder/continue': {
        const { cursor } = json() as { cursor: string };
        return cursors.has(cursor.split(':')[0]!) ? page(cursor) : err(409, 'reset/..');
      }
      case '/2/files/download': {
        const { path } = JSON.parse(String(req.headers['dropbox-api-arg'] ?? '{}')) as { path: string };
        const deny = denied.get(path.toLowerCase());
        if (deny) return err(deny.status, deny.summary);
        const f = files.get(path.toLowerCase());
        if (!f) return err(409, 'path/not_found/..');
        // The SDK sends the header as ASCII-safe JSON (httpHeaderSafeJson); the answer does the same.
        const result = JSON.stringify(meta(f)).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        return { status: 200, body: f.data, headers: { 'dropbox-api-result': result } };
      }
      default:
        return { status: 400, body: `Error in call to API function "${req.path.replace(/^\/2\//, '')}": Unknown API function` };
    }
  };

  const base = await startRestStandIn(route);
  return {
    ...base,
    token,
    put(path, data) {
      const key = path.toLowerCase();
      const prev = files.get(key);
      const now = new Date();
      files.set(key, { path, data: Buffer.from(data), id: prev?.id ?? `id:${randomUUID()}`, rev: ++rev, clientModified: prev?.clientModified ?? new Date(now.getTime() - 60_000), serverModified: now });
    },
    remove: (path) => void files.delete(path.toLowerCase()),
    denyDownload: (path, status, summary) => void denied.set(path.toLowerCase(), { status, summary }),
  };
}
