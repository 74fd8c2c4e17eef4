// Graph routes the onedrive, sharepoint and outlook SOURCES read, for the stand-in of
// test-server.ts (tests and benchmarks only), as Microsoft Graph v1.0 documents them:
// - drives, addressed as /users/<upn>/drive, /drives/<id> or /sites/<site-id>/drive: the drive,
//   /root, /root:/<path>:, /items/<id>, children of either (paged: `$top` capped at the stand-in's
//   page size, `@odata.nextLink` with an opaque `$skiptoken` until the last page), and /content,
//   which answers 302 to a pre-authenticated download URL (/download/<token>, no bearer needed) as
//   Graph does. Items carry id, name, size, eTag/cTag (changing with every write), dates, webUrl and
//   parentReference.path (/drive/root:/<folder> or /drives/<id>/root:/<folder>).
// - sites: /sites/<host>:/<path> (and /sites/<host> for a root site), /sites/<id>/drives.
// - mail: /users/<email> (the user), /users/<email>/mailFolders, .../mailFolders/<id>/childFolders
//   and .../messages (paged the same way), /users/<email>/messages/<id>/$value (the MIME message).
import { createHash, randomUUID } from 'node:crypto';
import type { GraphReply, GraphRoutes } from './test-server';

interface Item {
  id: string;
  name: string;
  parentId?: string;
  folder: boolean;
  data?: Buffer;
  version: number;
  created: string;
  modified: string;
  /** Graph permission resources of the item; 'forbidden' answers 403 to a read of them. */
  permissions?: unknown[] | 'forbidden';
}
interface Drive {
  id: string;
  name: string;
  /** How parentReference.path names the drive: /drive (a user's) or /drives/<id>. */
  pathBase: string;
  webUrl: string;
  items: Map<string, Item>;
  rootId: string;
}
interface MailFolder {
  id: string;
  displayName: string;
  parentId?: string;
}
interface Message {
  id: string;
  folderId: string;
  changeKey: string;
  mime: Buffer;
  subject: string;
  created: string;
  modified: string;
}
interface Site {
  id: string;
  webUrl: string;
  drives: Drive[];
}

const graphError = (code: string, message: string) => ({ error: { code, message, innerError: { date: new Date().toISOString(), 'request-id': randomUUID() } } });
const notFound = (message = 'The resource could not be found.'): GraphReply => ({ status: 404, body: graphError('itemNotFound', message) });
const idOf = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 22).toUpperCase();

export interface GraphSources {
  routes: GraphRoutes;
  /** Page size the stand-in caps `$top` at (and uses without one). */
  pageSize: number;
  /** Creates (or rewrites: new eTag/cTag, new modified date) a file, with its parent folders. */
  putFile(drive: string, path: string, data: Buffer | string): void;
  removeFile(drive: string, path: string): void;
  addUserDrive(upn: string): string;
  /** A site (https://<host>/sites/<name>) with its document libraries; the first is the default drive. */
  addSite(siteUrl: string, libraries?: string[]): { siteId: string; drives: Record<string, string> };
  addMailFolder(email: string, displayName: string, parent?: string): string;
  /** Creates or rewrites (new changeKey) a message in a folder; returns its id. */
  putMessage(email: string, folderId: string, mime: string, id?: string): string;
  /** An item's Graph permission resources (or 'forbidden': reading them answers 403). */
  setPermissions(drive: string, path: string, permissions: unknown[] | 'forbidden'): void;
  /** Download URLs handed out and fetched. */
  downloads: { issued: number; fetched: number };
}

export function graphSources(opts: { pageSize?: number } = {}): GraphSources {
  const pageSize = opts.pageSize ?? 2;
  const drives = new Map<string, Drive>();
  const userDrives = new Map<string, Drive>();
  const sites = new Map<string, Site>();
  const mailboxes = new Map<string, { folders: Map<string, MailFolder>; messages: Map<string, Message> }>();
  const downloadTokens = new Map<string, { drive: Drive; id: string }>();
  const downloads = { issued: 0, fetched: 0 };
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const now = () => new Date((clock += 1000)).toISOString();
  let version = 0;

  function newDrive(name: string, pathBase: (id: string) => string, webUrl: string): Drive {
    const id = `b!${idOf(`${webUrl}|${name}`)}`;
    const rootId = idOf(`${id}/root`);
    const t = now();
    const d: Drive = { id, name, pathBase: pathBase(id), webUrl, items: new Map([[rootId, { id: rootId, name: 'root', folder: true, version: ++version, created: t, modified: t }]]), rootId };
    drives.set(id, d);
    return d;
  }
  const driveOf = (key: string) => userDrives.get(key.toLowerCase()) ?? drives.get(key);

  function pathOf(d: Drive, it: Item): string {
    const segs: string[] = [];
    for (let cur: Item | undefined = it; cur && cur.id !== d.rootId; cur = cur.parentId ? d.items.get(cur.parentId) : undefined) segs.unshift(cur.name);
    return segs.join('/');
  }
  function byPath(d: Drive, path: string): Item | undefined {
    let cur = d.items.get(d.rootId);
    for (const seg of path.split('/').filter(Boolean)) {
      cur = [...d.items.values()].find((i) => i.parentId === cur!.id && i.name.toLowerCase() === seg.toLowerCase());
      if (!cur) return undefined;
    }
    return cur;
  }
  function driveItem(d: Drive, it: Item): Record<string, unknown> {
    const parent = it.parentId ? d.items.get(it.parentId) : undefined;
    const parentPath = parent ? pathOf(d, parent) : '';
    const guid = `{${it.id.slice(0, 8)}-${it.id.slice(8, 12)}}`;
    return {
      id: it.id,
      name: it.name,
      size: it.data?.length ?? 0,
      eTag: `"${guid},${it.version}"`,
      cTag: `"c:${guid},${it.version}"`,
      createdDateTime: it.created,
      lastModifiedDateTime: it.modified,
      webUrl: `${d.webUrl}/${pathOf(d, it)}`,
      ...(parent ? { parentReference: { driveId: d.id, driveType: 'business', id: parent.id, path: `${d.pathBase}/root:${parentPath ? `/${parentPath}` : ''}` } } : {}),
      ...(it.folder ? { folder: { childCount: [...d.items.values()].filter((i) => i.parentId === it.id).length } } : { file: { mimeType: 'application/octet-stream' } }),
    };
  }

  /** One page of a collection: `$top` capped at the page size, `$skiptoken` an offset. */
  function page<T>(all: T[], url: URL, base: string, shape: (t: T) => unknown): GraphReply {
    const top = Math.min(Number(url.searchParams.get('$top')) || pageSize, pageSize);
    const from = Number(/^s(\d+)$/.exec(url.searchParams.get('$skiptoken') ?? '')?.[1] ?? 0);
    const slice = all.slice(from, from + top);
    const next = from + top < all.length ? new URL(url.pathname, base) : undefined;
    if (next) {
      for (const [k, v] of url.searchParams) if (k !== '$skiptoken') next.searchParams.set(k, v);
      next.searchParams.set('$skiptoken', `s${from + top}`);
    }
    return { status: 200, body: { value: slice.map(shape), ...(next ? { '@odata.nextLink': next.href.replaceAll('%24', '$') } : {}) } };
  }

  function driveRoutes(d: Drive, rest: string, method: string, url: URL, base: string): GraphReply | undefined {
    if (method !== 'GET') return undefined;
    if (rest === '') return { status: 200, body: { id: d.id, name: d.name, driveType: 'business', webUrl: d.webUrl } };
    const m = /^(?:\/root|\/root:\/(.+?):|\/items\/([^/]+))(\/children|\/content|\/permissions)?$/.exec(rest);
    if (!m) return undefined;
    const it = m[1] !== undefined ? byPath(d, m[1].split('/').map(decodeURIComponent).join('/')) : d.items.get(m[2] ? decodeURIComponent(m[2]) : d.rootId);
    if (!it) return notFound();
    if (m[3] === '/children') {
      if (!it.folder) return { status: 400, body: graphError('invalidRequest', 'The item is not a folder.') };
      const kids = [...d.items.values()].filter((i) => i.parentId === it.id).sort((a, b) => a.name.localeCompare(b.name));
      return page(kids, url, base, (k) => driveItem(d, k));
    }
    if (m[3] === '/permissions') {
      if (it.permissions === 'forbidden') return { status: 403, body: graphError('accessDenied', 'Access denied') };
      return { status: 200, body: { value: it.permissions ?? [] } };
    }
    if (m[3] === '/content') {
      if (it.folder) return { status: 400, body: graphError('invalidRequest', 'Cannot download a folder.') };
      const token = randomUUID();
      downloadTokens.set(token, { drive: d, id: it.id });
      downloads.issued++;
      return { status: 302, headers: { location: `${base}/download/${token}` } };
    }
    return { status: 200, body: driveItem(d, it) };
  }

  function mailRoutes(email: string, rest: string, url: URL, base: string): GraphReply | undefined {
    const box = mailboxes.get(email);
    if (!box) return undefined;
    const folders = [...box.folders.values()];
    const shapeFolder = (f: MailFolder) => ({ id: f.id, displayName: f.displayName, parentFolderId: f.parentId ?? 'msgfolderroot', childFolderCount: folders.filter((c) => c.parentId === f.id).length });
    if (rest === '/mailFolders') return page(folders.filter((f) => !f.parentId), url, base, shapeFolder);
    const child = /^\/mailFolders\/([^/]+)\/(childFolders|messages)$/.exec(rest);
    if (child) {
      const id = decodeURIComponent(child[1]!);
      if (!box.folders.has(id)) return { status: 404, body: graphError('ErrorItemNotFound', 'The specified object was not found in the store.') };
      if (child[2] === 'childFolders') return page(folders.filter((f) => f.parentId === id), url, base, shapeFolder);
      const msgs = [...box.messages.values()].filter((x) => x.folderId === id);
      return page(msgs, url, base, (x) => ({ id: x.id, changeKey: x.changeKey, subject: x.subject, createdDateTime: x.created, lastModifiedDateTime: x.modified, parentFolderId: x.folderId }));
    }
    const value = /^\/messages\/([^/]+)\/\$value$/.exec(rest);
    if (value) {
      const x = box.messages.get(decodeURIComponent(value[1]!));
      return x ? { status: 200, body: x.mime } : { status: 404, body: graphError('ErrorItemNotFound', 'The specified object was not found in the store.') };
    }
    return undefined;
  }

  const routes: GraphRoutes = ({ method, url, base, authorized, body }) => {
    const p = url.pathname;
    if (p === '/v1.0/$batch' && method === 'POST' && authorized) {
      // JSON batching: up to 20 requests, each answered as if sent alone.
      const reqs = (JSON.parse(body.toString('utf8')) as { requests?: { id: string; method: string; url: string }[] }).requests ?? [];
      if (reqs.length > 20) return { status: 400, body: graphError('BadRequest', 'The number of requests in a batch cannot exceed 20.') };
      const responses = reqs.map((r) => {
        const reply = routes({ method: r.method, url: new URL(`/v1.0${r.url}`, base), base, authorized, body: Buffer.alloc(0) }) ?? { status: 404, body: graphError('BadRequest', `Resource not found for ${r.url}`) };
        return { id: r.id, status: reply.status, headers: { 'content-type': 'application/json' }, body: reply.body };
      });
      return { status: 200, body: { responses } };
    }
    const dl = /^\/download\/([^/]+)$/.exec(p);
    if (dl) {
      // Pre-authenticated, as Graph's download URLs: no bearer needed.
      const t = downloadTokens.get(dl[1]!);
      const it = t?.drive.items.get(t.id);
      if (!t || !it?.data) return notFound();
      downloads.fetched++;
      return { status: 200, body: it.data };
    }
    if (!authorized || !p.startsWith('/v1.0/')) return undefined;
    const userDrive = /^\/v1\.0\/users\/([^/]+)\/drive(\/.*)?$/.exec(p);
    if (userDrive) {
      const d = userDrives.get(decodeURIComponent(userDrive[1]!).toLowerCase());
      return d ? driveRoutes(d, userDrive[2] ?? '', method, url, base) : undefined;
    }
    const byId = /^\/v1\.0\/drives\/([^/]+)(\/.*)?$/.exec(p);
    if (byId) {
      const d = drives.get(decodeURIComponent(byId[1]!));
      return d ? driveRoutes(d, byId[2] ?? '', method, url, base) : { status: 404, body: graphError('itemNotFound', 'The drive could not be found.') };
    }
    const siteDrive = /^\/v1\.0\/sites\/([^/:]+)\/(drive|drives)(\/.*)?$/.exec(p);
    if (siteDrive) {
      const s = [...sites.values()].find((x) => x.id === decodeURIComponent(siteDrive[1]!));
      if (!s) return { status: 404, body: graphError('itemNotFound', 'Requested site could not be found') };
      if (siteDrive[2] === 'drives') return siteDrive[3] ? undefined : page(s.drives, url, base, (d) => ({ id: d.id, name: d.name, driveType: 'documentLibrary', webUrl: d.webUrl }));
      return driveRoutes(s.drives[0]!, siteDrive[3] ?? '', method, url, base);
    }
    const site = /^\/v1\.0\/sites\/([^/:]+)(?::(\/.*?))?:?$/.exec(p);
    if (site && method === 'GET') {
      const s = sites.get(`${site[1]!.toLowerCase()}${decodeURIComponent(site[2] ?? '').replace(/\/+$/, '').toLowerCase()}`);
      return s ? { status: 200, body: { id: s.id, webUrl: s.webUrl, displayName: s.webUrl.split('/').pop() } } : { status: 404, body: graphError('itemNotFound', 'Requested site could not be found') };
    }
    const user = /^\/v1\.0\/users\/([^/]+)(\/.*)?$/.exec(p);
    if (user && method === 'GET') {
      const email = decodeURIComponent(user[1]!).toLowerCase();
      if (!user[2]) {
        return mailboxes.has(email) || userDrives.has(email)
          ? { status: 200, body: { id: idOf(email), userPrincipalName: email, mail: email } }
          : { status: 404, body: graphError('Request_ResourceNotFound', `Resource '${email}' does not exist or one of its queried reference-property objects are not present.`) };
      }
      return mailRoutes(email, user[2], url, base);
    }
    return undefined;
  };

  return {
    routes,
    pageSize,
    downloads,
    putFile(key, path, data) {
      const d = driveOf(key);
      if (!d) throw new Error(`no drive ${key}`);
      let parent = d.items.get(d.rootId)!;
      const segs = path.split('/');
      for (const seg of segs.slice(0, -1)) {
        let f = [...d.items.values()].find((i) => i.parentId === parent.id && i.name === seg);
        if (!f) {
          const t = now();
          f = { id: idOf(`${d.id}/${pathOf(d, parent)}/${seg}`), name: seg, parentId: parent.id, folder: true, version: ++version, created: t, modified: t };
          d.items.set(f.id, f);
        }
        parent = f;
      }
      const name = segs[segs.length - 1]!;
      const old = [...d.items.values()].find((i) => i.parentId === parent.id && i.name === name);
      const t = now();
      const it: Item = { id: old?.id ?? idOf(`${d.id}/${path}`), name, parentId: parent.id, folder: false, data: Buffer.from(data), version: ++version, created: old?.created ?? t, modified: t };
      d.items.set(it.id, it);
    },
    setPermissions(key, path, permissions) {
      const it = byPath(driveOf(key)!, path);
      if (it) it.permissions = permissions;
    },
    removeFile(key, path) {
      const d = driveOf(key)!;
      const it = byPath(d, path);
      if (it) d.items.delete(it.id);
    },
    addUserDrive(upn) {
      const u = upn.toLowerCase();
      const d = userDrives.get(u) ?? newDrive('OneDrive', () => '/drive', `https://contoso-my.sharepoint.com/personal/${u.replace(/[@.]/g, '_')}/Documents`);
      userDrives.set(u, d);
      return d.id;
    },
    addSite(siteUrl, libraries = ['Documents']) {
      const u = new URL(siteUrl);
      const key = `${u.hostname.toLowerCase()}${u.pathname.replace(/\/+$/, '').toLowerCase()}`;
      const id = `${u.hostname},${idOf(key)},${idOf(`${key}/web`)}`;
      const site: Site = { id, webUrl: siteUrl.replace(/\/+$/, ''), drives: libraries.map((l) => newDrive(l, (i) => `/drives/${i}`, `${siteUrl.replace(/\/+$/, '')}/${l === 'Documents' ? 'Shared Documents' : l}`)) };
      sites.set(key, site);
      return { siteId: id, drives: Object.fromEntries(site.drives.map((d) => [d.name, d.id])) };
    },
    addMailFolder(email, displayName, parent) {
      const e = email.toLowerCase();
      const box = mailboxes.get(e) ?? { folders: new Map(), messages: new Map() };
      mailboxes.set(e, box);
      const id = `AAMk${idOf(`${e}/${parent ?? ''}/${displayName}`)}=`;
      box.folders.set(id, { id, displayName, ...(parent ? { parentId: parent } : {}) });
      return id;
    },
    putMessage(email, folderId, mime, id) {
      const box = mailboxes.get(email.toLowerCase())!;
      const mid = id ?? `AAMkAGI${idOf(randomUUID())}AAA=`;
      const old = box.messages.get(mid);
      const t = now();
      const subject = /^Subject: (.*)$/m.exec(mime)?.[1] ?? '';
      box.messages.set(mid, { id: mid, folderId, changeKey: `CQAAABYAAA${idOf(`${mid}/${++version}`)}`, mime: Buffer.from(mime.replace(/\r?\n/g, '\r\n')), subject, created: old?.created ?? t, modified: t });
      return mid;
    },
  };
}
