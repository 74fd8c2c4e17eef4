// Google Drive source (type `google_drive`, the platform's google_drive.py: drive_id = a folder or
// file id, service_account_key or oauth_token, extensions, recursive).
//
// list: files.get of drive_id; a file is the one document, a folder is listed with files.list
//   ('<id>' in parents and trashed = false, plus the extension filter as the platform writes it),
//   page by page (pageToken) to the end, walking sub-folders when recursive. Shortcuts, forms, maps,
//   sites and empty files are skipped (the platform's _should_skip_file).
// A document: key = the file id (stable across renames and moves); filename = its name, with the
//   export extension for Google Docs/Sheets/Slides/Drawings (.docx/.xlsx/.pptx/.png).
// version: the file's `version` (Drive raises it at every change), as the platform.
// dataSource: url webContentLink (webViewLink for native files, which have none), version,
//   record_locator {file_id, drive_id}, createdTime/modifiedTime, permissions_data normalised as
//   the platform's extract_permissions.
// read: Docs Editors files through files.export to the platform's office format, others files.get
//   alt=media. Another native type (Apps Script...) fails that file with the platform's reason.
//   Not done: the long-running export the platform uses above 10 MB (Drive then answers "This file
//   is too large to be exported.", which fails that file with Drive's text).
// check: the platform's precheck: a one-file list (the API is enabled for the credentials), then
//   files.get of drive_id.
import type { drive_v3 } from '@googleapis/drive';
import { defineConnector, epochSeconds, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { withRetry } from '../records/retry';
import { driveClient, driveReason, type DriveAuthConfig } from './client';

export interface GoogleDriveConfig extends ConnectorConfig, DriveAuthConfig {
  drive_id: string;
  extensions?: string[] | null;
  recursive?: boolean;
}

export const FOLDER_MIME = 'application/vnd.google-apps.folder';
const NATIVE_PREFIX = 'application/vnd.google-apps.';
const SKIP_MIME = new Set([
  'application/vnd.google-apps.shortcut',
  'application/vnd.google-apps.form',
  'application/vnd.google-apps.map',
  'application/vnd.google-apps.site',
  'application/vnd.google-apps.fusiontable',
  'application/vnd.google-apps.jam',
]);
/** Native Google type → export mime type and extension (the platform's maps). */
export const EXPORTS: Record<string, { mime: string; ext: string }> = {
  'application/vnd.google-apps.document': { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: '.docx' },
  'application/vnd.google-apps.spreadsheet': { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: '.xlsx' },
  'application/vnd.google-apps.presentation': { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', ext: '.pptx' },
  'application/vnd.google-apps.drawing': { mime: 'image/png', ext: '.png' },
};
const FIELDS = ['id', 'name', 'mimeType', 'fileExtension', 'md5Checksum', 'headRevisionId', 'permissions', 'createdTime', 'modifiedTime', 'version', 'size', 'webContentLink', 'webViewLink'];
const PAGE_SIZE = 1000;
const DRIVE_ID = /^[A-Za-z0-9_-]{1,200}$/;

// Which credential is given is judged at use (driveClient): the platform's API accepts a config with
// both (or a SecretReference) and so does this one (test/unit/connectors/schemas.test.ts).
const refine = refineWith<GoogleDriveConfig>((c, ctx) => {
  if (typeof c.drive_id === 'string' && !DRIVE_ID.test(c.drive_id)) {
    ctx.addIssue({ code: 'custom', path: ['drive_id'], message: 'drive_id must be a Google Drive file or folder id (letters, digits, - and _)' });
  }
  if (Array.isArray(c.extensions)) {
    c.extensions.forEach((e, i) => {
      if (typeof e === 'string' && !/^\.?[A-Za-z0-9]{1,16}$/.test(e)) ctx.addIssue({ code: 'custom', path: ['extensions', i], message: 'an extension is letters and digits, with or without a leading dot' });
    });
  }
});

const normalized = (exts?: string[] | null) => [...new Set((exts ?? []).map((e) => e.toLowerCase().replace(/^\.+/, '')))].sort();

/** The platform's q clause for an extension filter: the extensions, the native types exported to one, and folders. */
export function extensionFilter(exts: string[]): string {
  const natives = Object.entries(EXPORTS).filter(([, v]) => exts.includes(v.ext.slice(1))).map(([k]) => k).sort();
  return [...exts.map((e) => `fileExtension = '${e}'`), ...natives.map((m) => `mimeType = '${m}'`), `mimeType = '${FOLDER_MIME}'`].join(' or ');
}

function skipped(f: drive_v3.Schema$File): boolean {
  const mime = f.mimeType ?? '';
  if (SKIP_MIME.has(mime)) return true;
  const size = f.size === undefined || f.size === null ? -1 : Number(f.size);
  return mime === 'inode/x-empty' || (size === 0 && !mime);
}

/** The platform's extract_permissions: user and group ids per operation. */
export function permissionsData(perms?: drive_v3.Schema$Permission[] | null): Record<string, unknown>[] {
  if (!perms?.length) return [{}];
  const roles: Record<string, string[]> = {
    owner: ['read', 'update', 'delete'],
    organizer: ['read', 'update', 'delete'],
    fileOrganizer: ['read', 'update'],
    writer: ['read', 'update'],
    commenter: ['read'],
    reader: ['read'],
  };
  const out: Record<string, { users: Set<string>; groups: Set<string> }> = {};
  for (const op of ['read', 'update', 'delete']) out[op] = { users: new Set(), groups: new Set() };
  for (const p of perms) {
    if ((p.type === 'user' || p.type === 'group') && p.id && p.role) {
      for (const op of roles[p.role] ?? []) out[op]![p.type === 'user' ? 'users' : 'groups'].add(p.id);
    }
  }
  return Object.entries(out).map(([op, v]) => ({ [op]: { users: [...v.users].sort(), groups: [...v.groups].sort() } }));
}

function exportName(name: string, ext: string): string {
  // Path.with_suffix, as the platform: the last suffix replaced, or the extension added.
  const m = /^(.+)\.[^./]+$/.exec(name);
  return `${m ? m[1] : name}${ext}`;
}

function toSourceObject(f: drive_v3.Schema$File, driveId: string): SourceObject {
  const exp = EXPORTS[f.mimeType ?? ''];
  const version = f.version ?? undefined;
  return {
    key: f.id!,
    size: Number(f.size ?? 0),
    ...(version ? { version } : {}),
    filename: exp ? exportName(f.name ?? f.id!, exp.ext) : f.name || f.id!,
    dataSource: {
      url: f.webContentLink ?? f.webViewLink ?? undefined,
      ...(version ? { version } : {}),
      record_locator: { file_id: f.id, drive_id: driveId },
      date_created: epochSeconds(f.createdTime),
      date_modified: epochSeconds(f.modifiedTime),
      permissions_data: permissionsData(f.permissions),
    },
  };
}

async function getFile(drive: drive_v3.Drive, id: string, signal?: AbortSignal): Promise<drive_v3.Schema$File> {
  try {
    const res = await withRetry(() => drive.files.get({ fileId: id, supportsAllDrives: true, fields: FIELDS.join(',') }, { retry: false, signal }), { signal });
    return res.data;
  } catch (err) {
    throw driveReason('files.get', err, id);
  }
}

async function* listFolder(drive: drive_v3.Drive, folderId: string, c: GoogleDriveConfig, signal?: AbortSignal): AsyncIterable<drive_v3.Schema$File> {
  const exts = normalized(c.extensions);
  let q = `'${folderId}' in parents and trashed = false`;
  if (exts.length) q += ` and (${extensionFilter(exts)})`;
  let pageToken: string | undefined;
  do {
    let page: drive_v3.Schema$FileList;
    try {
      const res = await withRetry(
        () =>
          drive.files.list(
            {
              q,
              pageToken,
              pageSize: PAGE_SIZE,
              supportsAllDrives: true,
              includeItemsFromAllDrives: true,
              spaces: 'drive',
              corpora: 'user',
              fields: `nextPageToken, files(${FIELDS.join(',')})`,
            },
            { retry: false, signal },
          ),
        { signal },
      );
      page = res.data;
    } catch (err) {
      throw driveReason('files.list', err, `folder ${folderId}`);
    }
    const folders: string[] = [];
    for (const f of page.files ?? []) {
      if (f.mimeType === FOLDER_MIME) {
        if (f.id) folders.push(f.id);
      } else if (f.id && !skipped(f)) yield f;
    }
    if (c.recursive !== false) for (const id of folders) yield* listFolder(drive, id, c, signal);
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
}

/** drive_id goes into files.list queries: judged again at use (a record stored before validation). */
function assertDriveId(c: GoogleDriveConfig): void {
  if (typeof c.drive_id !== 'string' || !DRIVE_ID.test(c.drive_id)) throw new Error('drive_id must be a Google Drive file or folder id (letters, digits, - and _)');
}

async function* list(c: GoogleDriveConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  assertDriveId(c);
  const drive = await driveClient(c);
  const root = await getFile(drive, c.drive_id, ctx?.signal);
  if (root.mimeType !== FOLDER_MIME) {
    if (!skipped(root)) yield toSourceObject(root, c.drive_id);
    return;
  }
  for await (const f of listFolder(drive, c.drive_id, c, ctx?.signal)) yield toSourceObject(f, c.drive_id);
}

async function read(c: GoogleDriveConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  if (!DRIVE_ID.test(key)) throw new Error(`invalid Google Drive file id ${JSON.stringify(key)}`);
  const drive = await driveClient(c);
  const signal = ctx?.signal;
  const meta = await getFile(drive, key, signal);
  const mime = meta.mimeType ?? '';
  const exp = EXPORTS[mime];
  if (!exp && mime.startsWith(NATIVE_PREFIX)) {
    throw new Error(`Unsupported Google Drive native MIME type for file ${key}: ${mime}. Docs Editors files must be exported before download.`);
  }
  const op = exp ? 'files.export' : 'files.get alt=media';
  try {
    const res = await withRetry(
      () =>
        exp
          ? drive.files.export({ fileId: key, mimeType: exp.mime }, { responseType: 'arraybuffer', retry: false, signal } as never)
          : drive.files.get({ fileId: key, alt: 'media', supportsAllDrives: true }, { responseType: 'arraybuffer', retry: false, signal } as never),
      { signal },
    );
    return new Uint8Array(res.data as unknown as ArrayBuffer);
  } catch (err) {
    throw driveReason(op, err, key);
  }
}

export const googleDriveSource = defineConnector<GoogleDriveConfig>({
  ...derivedShape('source', 'google_drive', refine),
  async check(c, ctx) {
    assertDriveId(c);
    const drive = await driveClient(c);
    try {
      await drive.files.list({ supportsAllDrives: true, includeItemsFromAllDrives: true, spaces: 'drive', pageSize: 1, fields: 'files(id)', q: `'${c.drive_id}' in parents and trashed = false` }, { retry: false, signal: ctx.signal });
    } catch (err) {
      throw driveReason('files.list', err);
    }
    const root = await getFile(drive, c.drive_id, ctx.signal);
    return `reached ${root.mimeType === FOLDER_MIME ? 'folder' : 'file'} ${JSON.stringify(root.name ?? c.drive_id)} (${c.drive_id}) with the ${c.service_account_key ? 'service account key' : 'OAuth token'}`;
  },
  list,
  read,
});
