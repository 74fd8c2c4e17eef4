// Dropbox source (type `dropbox`, fields from the platform's table: remote_url dropbox://<folder>,
// token, recursive). Through the official `dropbox` SDK, whose every request rides on our fetch
// (connectorFetch: the outbound policy, CONNECTOR_CA_FILE). As the platform's fsspec indexer:
// files/list_folder + list_folder/continue (cursor paging to the end; recursive as configured),
// one document per file, key = its path below the folder, version = content_hash (rev when the
// API gives none), data_source url dropbox://<path>, record_locator {protocol, remote_file_path,
// file_id}, dates from client/server modified. Read: files/download. Every call is retried on
// 429/5xx with Retry-After honoured. Check: users/get_current_account, then the folder listed.
// DROPBOX_API_URL (operator/test setting, never a tenant's) sends the SDK's api and content hosts
// to a stand-in.
import { Dropbox, DropboxResponseError, type files } from 'dropbox';
import { redact } from '../agents';
import { assertSafeKey, defineConnector, describeError, epochSeconds, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { withRetry } from '../records/retry';
import { CursorGuard } from '../paging';
import { connectorFetch } from '../rest-client';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { policyReason } from '../../net/outbound';

export interface DropboxConfig extends ConnectorConfig {
  remote_url: string;
  token: string;
  recursive?: boolean;
}

/** The folder path the API takes: dropbox://a/b → /a/b; dropbox:// or dropbox:/// → '' (the root). */
export function dropboxFolder(remoteUrl: string): string {
  const m = /^dropbox:\/\/(.*)$/.exec(remoteUrl);
  if (!m) throw new Error(`remote_url ${JSON.stringify(remoteUrl)} is not of the form dropbox://<folder path>`);
  const path = m[1]!.replace(/^\/+|\/+$/g, '');
  if (path.split('/').some((s) => s === '.' || s === '..')) throw new Error(`remote_url has an invalid folder path ${JSON.stringify(path)}`);
  return path ? `/${path}` : '';
}

const refine = refineWith<DropboxConfig>((c, ctx) => {
  if (typeof c.remote_url === 'string' && c.remote_url.startsWith('dropbox://')) {
    try {
      dropboxFolder(c.remote_url);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['remote_url'], message: describeError(err).replace(/^Error: /, '') });
    }
  }
});

const DEFAULT_HOSTS = /^https:\/\/(api|content|notify)\.dropboxapi\.com\//;

/**
 * The SDK's fetch: connectorFetch, the stand-in base when DROPBOX_API_URL is set, and the
 * node-fetch `buffer()` the SDK reads downloads with (undici's Response has arrayBuffer only).
 */
function sdkFetch(signal?: AbortSignal) {
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    const base = process.env.DROPBOX_API_URL?.replace(/\/+$/, '');
    const target = base ? url.replace(DEFAULT_HOSTS, `${base}/`) : url;
    const res = await connectorFetch(target, { ...init, ...(signal ? { signal } : {}) });
    return Object.assign(res, { buffer: async () => Buffer.from(await res.arrayBuffer()) });
  };
}

function client(c: DropboxConfig, signal?: AbortSignal): Dropbox {
  return new Dropbox({ accessToken: c.token, fetch: sdkFetch(signal) });
}

/** A failure with Dropbox's own text (error_summary, or the body of a 400/401), never the token. */
function reason(op: string, c: DropboxConfig, err: unknown): Error {
  const refused = policyReason(err);
  if (refused) return new Error(`dropbox ${op} refused: ${refused}`);
  if (err instanceof DropboxResponseError) {
    const body = err.error as { error_summary?: string } | string | undefined;
    const text = typeof body === 'string' ? body.trim().slice(0, 300) : body?.error_summary ?? JSON.stringify(body ?? '').slice(0, 300);
    return new Error(redact(`dropbox ${op} failed: ${text} (HTTP ${err.status})`, [c.token]));
  }
  return new Error(redact(`dropbox ${op} failed: ${describeError(err)}`, [c.token]));
}

function call<T>(op: string, c: DropboxConfig, fn: () => Promise<T>, signal?: AbortSignal, attempts = 5): Promise<T> {
  return withRetry(fn, { signal, attempts }).catch((err) => {
    throw reason(op, c, err);
  });
}

type FileEntry = files.FileMetadataReference;

/** Path of an entry below the folder, case as Dropbox displays it. */
function relativeKey(folder: string, e: FileEntry): string | undefined {
  const display = e.path_display ?? e.path_lower;
  if (!display) return undefined;
  if (!folder) return display.replace(/^\/+/, '');
  const lower = (e.path_lower ?? display.toLowerCase());
  const prefix = `${folder.toLowerCase()}/`;
  return lower.startsWith(prefix) ? display.slice(prefix.length) : undefined;
}

function toObject(c: DropboxConfig, folder: string, e: FileEntry): SourceObject | undefined {
  const key = relativeKey(folder, e);
  if (!key) return undefined;
  const version = e.content_hash ?? e.rev;
  const [client_modified, server_modified] = [Date.parse(e.client_modified), Date.parse(e.server_modified)];
  const times = [client_modified, server_modified].filter(Number.isFinite);
  return {
    key,
    size: Number(e.size ?? 0),
    ...(version ? { version } : {}),
    dataSource: {
      url: `dropbox://${(e.path_display ?? '').replace(/^\/+/, '')}`,
      ...(version ? { version } : {}),
      record_locator: { protocol: 'dropbox', remote_file_path: c.remote_url, file_id: e.id },
      ...(times.length ? { date_created: epochSeconds(Math.min(...times)), date_modified: epochSeconds(Math.max(...times)) } : {}),
    },
  };
}

async function* list(c: DropboxConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const folder = dropboxFolder(c.remote_url);
  const dbx = client(c, ctx?.signal);
  const guard = new CursorGuard(`dropbox listing of ${folder || '/'}`);
  let page = (await call(`listing of ${folder || '/'}`, c, () => dbx.filesListFolder({ path: folder, recursive: c.recursive !== false }), ctx?.signal)).result;
  for (;;) {
    for (const e of page.entries) {
      if (e['.tag'] !== 'file') continue;
      const o = toObject(c, folder, e as FileEntry);
      if (o) yield o;
    }
    if (!page.has_more) return;
    const cursor = guard.next(page.cursor);
    page = (await call(`listing of ${folder || '/'} (continue)`, c, () => dbx.filesListFolderContinue({ cursor }), ctx?.signal)).result;
  }
}

async function read(c: DropboxConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const path = `${dropboxFolder(c.remote_url)}/${assertSafeKey(key)}`;
  const dbx = client(c, ctx?.signal);
  const res = await call(`download of ${path}`, c, () => dbx.filesDownload({ path }), ctx?.signal);
  // The SDK's CommonJS build returns a Buffer (fileBinary); its ES build, which the Lambda bundle
  // takes, believes it runs in a browser when `module` is undefined and returns a Blob (fileBlob).
  const result = res.result as unknown as { fileBinary?: Buffer; fileBlob?: Blob };
  if (result.fileBinary) return new Uint8Array(result.fileBinary.buffer, result.fileBinary.byteOffset, result.fileBinary.byteLength);
  if (result.fileBlob) return new Uint8Array(await result.fileBlob.arrayBuffer());
  throw new Error(`dropbox download of ${path} returned no content`);
}

export const dropboxSource = defineConnector<DropboxConfig>({
  ...derivedShape('source', 'dropbox', refine),
  async check(c, ctx) {
    const folder = dropboxFolder(c.remote_url);
    const dbx = client(c, ctx.signal);
    await call('token check (users/get_current_account)', c, () => dbx.usersGetCurrentAccount(), ctx.signal, 2);
    await call(`listing of ${folder || '/'}`, c, () => dbx.filesListFolder({ path: folder, limit: 1 }), ctx.signal, 2);
    return `token accepted; folder ${folder || '/'} listed`;
  },
  list,
  read,
});
