// A drive file's permissions as the platform's onedrive/sharepoint indexers attach them
// (data_source.permissions_data): read 20 files at a time through Graph JSON batching
// (POST /$batch of GET /drives/<drive>/items/<id>/permissions), each permission's roles mapped to
// read/update/delete and its granted users and groups collected, as
// [{read: {users, groups}}, {update: ...}, {delete: ...}] with sorted ids. A file whose permissions
// could not be read (a failed sub-request, a batch that failed after its retries) gets none, as the
// platform leaves them unset; an unauthorized batch (401) fails the listing, as the platform's does.
import type { Client } from '@microsoft/microsoft-graph-client';
import { graphCall, type GraphCredentials } from './client';
import type { DriveItem } from './graph-source';

/** Graph's limit of requests in one JSON batch. */
export const PERMISSIONS_BATCH_SIZE = 20;

/** The platform's MICROSOFT_ROLE_MAPPING (roles of https://learn.microsoft.com/en-us/graph/api/resources/permission). */
const ROLE_OPERATIONS: Record<string, string[]> = {
  owner: ['read', 'update', 'delete'],
  write: ['read', 'update'],
  read: ['read'],
  member: ['read', 'update'],
  'sp.full control': ['read', 'update', 'delete'],
  'sp.manage lists': ['read', 'update', 'delete'],
  'sp.manage hierarchy': ['read', 'update', 'delete'],
  'sp.approve': ['read', 'update'],
  'sp.edit': ['read', 'update'],
  'sp.contribute': ['read', 'update'],
  'sp.view only': ['read'],
  'sp.restricted read': ['read'],
};

type Identity = { user?: { id?: string }; group?: { id?: string } };
export type GraphPermission = { roles?: string[]; grantedToV2?: Identity; grantedTo?: Identity; grantedToIdentitiesV2?: Identity[]; grantedToIdentities?: Identity[] };
export type PermissionsData = Record<string, { users: string[]; groups: string[] }>[];

/** Users and groups a permission grants to: the V2 fields supersede the old ones entirely. */
function principals(p: GraphPermission): { users: Set<string>; groups: Set<string> } {
  const users = new Set<string>();
  const groups = new Set<string>();
  const add = (i?: Identity) => {
    if (i?.user?.id) users.add(i.user.id);
    if (i?.group?.id) groups.add(i.group.id);
  };
  add(p.grantedToV2 ?? p.grantedTo);
  for (const i of p.grantedToIdentitiesV2 ?? p.grantedToIdentities ?? []) add(i);
  return { users, groups };
}

export function normalizePermissions(raw: GraphPermission[]): PermissionsData {
  const ops: Record<string, { users: Set<string>; groups: Set<string> }> = { read: { users: new Set(), groups: new Set() }, update: { users: new Set(), groups: new Set() }, delete: { users: new Set(), groups: new Set() } };
  for (const p of raw) {
    const operations = new Set((p.roles ?? []).flatMap((r) => ROLE_OPERATIONS[r.toLowerCase()] ?? []));
    if (!operations.size) continue;
    const who = principals(p);
    for (const op of operations) {
      for (const u of who.users) ops[op]!.users.add(u);
      for (const g of who.groups) ops[op]!.groups.add(g);
    }
  }
  return Object.entries(ops).map(([op, s]) => ({ [op]: { users: [...s.users].sort(), groups: [...s.groups].sort() } }));
}

/** Permissions of up to 20 files by item id (undefined: not readable this run). */
export async function permissionsOf(client: Client, c: GraphCredentials, items: DriveItem[], signal?: AbortSignal): Promise<Map<string, PermissionsData | undefined>> {
  const out = new Map<string, PermissionsData | undefined>(items.map((i) => [i.id, undefined]));
  const requests = items
    .map((it, idx) => ({ it, idx }))
    .filter(({ it }) => it.parentReference?.driveId)
    .map(({ it, idx }) => ({ id: String(idx), method: 'GET', url: `/drives/${encodeURIComponent(it.parentReference!.driveId!)}/items/${encodeURIComponent(it.id)}/permissions` }));
  if (!requests.length) return out;
  let answer: { responses?: { id?: string; status?: number; body?: { value?: unknown } }[] };
  try {
    answer = await graphCall('permissions batch', c, () => client.api('/$batch').post({ requests }), { signal });
  } catch (err) {
    if (/\(HTTP 401\)$/.test((err as Error).message)) throw err;
    return out;
  }
  for (const r of answer?.responses ?? []) {
    const item = items[Number(r.id)];
    if (!item || !/^\d+$/.test(String(r.id)) || r.status !== 200 || !Array.isArray(r.body?.value)) continue;
    out.set(item.id, normalizePermissions(r.body.value as GraphPermission[]));
  }
  return out;
}

/** The files of a listing with their permissions, read a batch at a time. */
export async function* withPermissions<T extends { item: DriveItem }>(client: Client, c: GraphCredentials, files: AsyncIterable<T>, signal?: AbortSignal): AsyncIterable<T & { permissions?: PermissionsData }> {
  let chunk: T[] = [];
  const flush = async function* () {
    const perms = await permissionsOf(client, c, chunk.map((f) => f.item), signal);
    for (const f of chunk) yield { ...f, permissions: perms.get(f.item.id) };
    chunk = [];
  };
  for await (const f of files) {
    chunk.push(f);
    if (chunk.length >= PERMISSIONS_BATCH_SIZE) yield* flush();
  }
  if (chunk.length) yield* flush();
}
