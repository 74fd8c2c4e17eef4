// Databricks Volumes source (type `databricks_volumes`; the platform's databricks/volumes.py indexer
// and downloader): the files under /Volumes/<catalog>/<schema>/<volume>/<volume_path>, listed with
// the Files API directory listing (GET /api/2.0/fs/directories/..., followed page by page through
// next_page_token; subdirectories only when `recursive` is true — the platform's default is false),
// read with GET /api/2.0/fs/files/... Auth, retries (429 with Retry-After, 5xx) and the outbound
// policy are DatabricksClient's. A document's key is its path below the root; url is its full
// /Volumes path and date_modified its last_modified (as the platform); version is
// `<last_modified>-<file_size>` (the listing states no etag); record_locator {catalog, path}.
import type { z } from 'zod';
import { assertSafeKey, defineConnector, epochSeconds, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { DERIVED_FIELDS } from '../derived-fields';
import { inputSchema, outputSchema, secretFieldNames, type FieldSpec } from '../schema';
import { DatabricksClient } from './client';
import { refineVolumes, volumeRoot, type VolumesConfig } from './volumes';

interface VolumesSourceConfig extends VolumesConfig {
  recursive?: boolean;
}

const FIELDS: FieldSpec[] = [
  ...DERIVED_FIELDS.source.databricks_volumes!.fields,
  // The platform's indexer option (false by default there).
  { name: 'recursive', type: 'boolean', required: false, default: false, requiredInResponse: false },
];

interface DirectoryEntry {
  path: string;
  is_directory?: boolean;
  file_size?: number;
  last_modified?: number;
  name?: string;
}

const enc = (p: string) => p.split('/').filter(Boolean).map(encodeURIComponent).join('/');
/** The source root as a decoded path: /Volumes/<catalog>/<schema>/<volume>[/<volume_path>]. */
const rootOf = (c: VolumesSourceConfig) => [decodeURIComponent(volumeRoot(c)), ...c.volume_path.split('/').filter(Boolean)].join('/');

async function* listFiles(c: VolumesSourceConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const client = new DatabricksClient(c, ctx?.signal);
  const root = rootOf(c);
  const pending = [root];
  while (pending.length) {
    const dir = pending.shift()!;
    let token: string | undefined;
    do {
      const res = await client.call('GET', `/api/2.0/fs/directories/${enc(dir)}`, `listing ${dir}`, undefined, token ? `?page_token=${encodeURIComponent(token)}` : '');
      const page = (await res.json()) as { contents?: DirectoryEntry[]; next_page_token?: string };
      for (const e of page.contents ?? []) {
        const path = e.path.replace(/\/$/, '');
        if (e.is_directory) {
          if (c.recursive) pending.push(path);
          continue;
        }
        const version = e.last_modified !== undefined ? `${e.last_modified}-${e.file_size ?? 0}` : undefined;
        yield {
          key: path.slice(root.length + 1),
          size: Number(e.file_size ?? 0),
          ...(version ? { version } : {}),
          dataSource: {
            url: path,
            ...(version ? { version } : {}),
            record_locator: { catalog: c.catalog, path },
            ...(e.last_modified !== undefined ? { date_modified: epochSeconds(e.last_modified) } : {}),
          },
        };
      }
      token = page.next_page_token || undefined;
    } while (token);
  }
}

async function readFile(c: VolumesSourceConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const client = new DatabricksClient(c, ctx?.signal);
  const path = `${rootOf(c)}/${assertSafeKey(key)}`;
  const res = await client.call('GET', `/api/2.0/fs/files/${enc(path)}`, `download of ${path}`);
  return new Uint8Array(await res.arrayBuffer());
}

export const databricksVolumesSource = defineConnector<VolumesSourceConfig>({
  kind: 'source',
  type: 'databricks_volumes',
  input: refineVolumes<VolumesSourceConfig>(inputSchema(FIELDS) as unknown as z.ZodType<ConnectorConfig>),
  output: outputSchema(FIELDS),
  secretFields: secretFieldNames(FIELDS),
  // The platform's precheck builds the client (authenticates); here the service principal's identity,
  // then the directory the source reads must exist.
  async check(c, ctx) {
    const client = new DatabricksClient(c, ctx.signal);
    const me = (await (await client.call('GET', '/api/2.0/preview/scim/v2/Me', 'identity check (SCIM Me)')).json()) as { active?: boolean; userName?: string; displayName?: string };
    const who = me.userName ?? me.displayName ?? c.client_id;
    if (me.active === false) throw new Error(`the service principal ${who} is not active`);
    const root = rootOf(c);
    // A one-entry listing: the call the source makes, with the volume's read permission.
    await client.call('GET', `/api/2.0/fs/directories/${enc(root)}`, `listing ${root}`, undefined, '?page_size=1').catch((err: Error & { httpStatus?: number }) => {
      if (err.httpStatus === 404) throw new Error(`directory ${root} not found (or not visible to ${who}): check the volume, volume_path and the READ VOLUME grant (${err.message})`);
      throw err;
    });
    return `signed in as ${who}; reading ${root}${c.recursive ? ' and its subdirectories' : ''}`;
  },
  list: listFiles,
  read: readFile,
});
