// Databricks Volumes destination (type `databricks_volumes`, fields from the platform's table: host,
// client_id, client_secret (OAuth M2M of a service principal), catalog, schema (default), volume,
// volume_path). As the platform's uploader: each processed file's elements JSON is written with the
// Files API to /Volumes/<catalog>/<schema>/<volume>/<volume_path>/<source path>.json with
// overwrite=true, so a rerun replaces the file (one copy). A file destination (write), not a record
// store. Check, as the platform's precheck: the service principal's identity (SCIM Me, active),
// then that the volume exists (Files API directory metadata).
import type { z } from 'zod';
import { assertSafeKey, defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { literalUrlProblem } from '../../net/outbound';
import { DatabricksClient, workspaceUrl, type DatabricksAuth } from './client';

export interface VolumesConfig extends DatabricksAuth, ConnectorConfig {
  catalog: string;
  schema: string;
  volume: string;
  volume_path: string;
}

const NAME = /^[^/\\\0]+$/;

/** The checks of a volumes config (names, volume_path, host), shared by the destination and the source. */
export function refineVolumes<C>(schema: z.ZodType<ConnectorConfig>): z.ZodType<C> {
  return schema.superRefine((c, ctx) => {
    for (const f of ['catalog', 'schema', 'volume'] as const) {
      const v = c[f];
      if (typeof v === 'string' && (!NAME.test(v) || v === '.' || v === '..')) ctx.addIssue({ code: 'custom', path: [f], message: `${f} must be one Unity Catalog name (no '/')` });
    }
    if (typeof c.volume_path === 'string' && c.volume_path.split('/').some((s) => s === '.' || s === '..')) {
      ctx.addIssue({ code: 'custom', path: ['volume_path'], message: "volume_path may not contain '.' or '..' segments" });
    }
    if (typeof c.host === 'string') {
      try {
        const problem = literalUrlProblem(workspaceUrl(c.host).href);
        if (problem) ctx.addIssue({ code: 'custom', path: ['host'], message: problem });
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['host'], message: (err as Error).message });
      }
    }
  }) as unknown as z.ZodType<C>;
}

const enc = (p: string) => p.split('/').filter(Boolean).map(encodeURIComponent).join('/');

/** /Volumes/<catalog>/<schema>/<volume>, URL-encoded. */
export function volumeRoot(c: Pick<VolumesConfig, 'catalog' | 'schema' | 'volume'>): string {
  return `/Volumes/${[c.catalog, c.schema || 'default', c.volume].map(encodeURIComponent).join('/')}`;
}

export function outputPath(c: VolumesConfig, key: string): string {
  const sub = [c.volume_path, assertSafeKey(key)].filter(Boolean).map(enc).join('/');
  return `${volumeRoot(c)}/${sub}`;
}

export const databricksVolumesDestination = defineConnector<VolumesConfig>({
  ...derivedShape('destination', 'databricks_volumes', (input) => refineVolumes<VolumesConfig>(input)),
  async check(c, ctx) {
    const client = new DatabricksClient(c, ctx.signal);
    const me = (await (await client.call('GET', '/api/2.0/preview/scim/v2/Me', 'identity check (SCIM Me)')).json()) as { active?: boolean; userName?: string; displayName?: string };
    const who = me.userName ?? me.displayName ?? c.client_id;
    if (me.active === false) throw new Error(`the service principal ${who} is not active`);
    const root = volumeRoot(c);
    const dir = await client.call('HEAD', `/api/2.0/fs/directories${root}`, 'volume check');
    if (dir.status === 404) throw new Error(`volume ${c.catalog}.${c.schema}.${c.volume} not found (or not visible to ${who}): create it in Unity Catalog and grant WRITE VOLUME`);
    return `signed in as ${who}; volume ${c.catalog}.${c.schema}.${c.volume} exists; files go to ${decodeURIComponent(root)}${c.volume_path ? `/${c.volume_path}` : ''}`;
  },
  async write(c, key, data, ctx) {
    const client = new DatabricksClient(c, ctx?.signal);
    await client.call('PUT', `/api/2.0/fs/files${outputPath(c, key)}`, `upload of ${key}`, data, '?overwrite=true');
  },
});
