// Azure Blob Storage source and destination (spec §2.1 blob-storage configs, api-shapes.md §6 `azure`).
//
// remote_url: az://<container>/<prefix> or abfs[s]://<container>@<account>.dfs.core.windows.net/<prefix>.
// Credentials, first match wins: connection_string; account_name + account_key; account_name +
// sas_token; account_name alone (anonymous access to a public container).
// Endpoint: https://<account>.blob.core.windows.net, or AZURE_STORAGE_BLOB_ENDPOINT when set (local
// emulator; `{account}` in it is replaced by the account name, e.g. http://127.0.0.1:10000/{account}).
// Every request goes out through the outbound policy's agents (lambdas/net/outbound.ts), so a
// connection string's BlobEndpoint cannot reach a refused address, whatever its name resolves to.
import {
  AnonymousCredential,
  BlobServiceClient,
  StorageSharedKeyCredential,
  newPipeline,
  type ContainerClient,
  type Pipeline,
  type RequestPolicyFactory,
  type StoragePipelineOptions,
} from '@azure/storage-blob';
import { z } from 'zod';
import { assertSafeKey, defineConnector, describeError, fileObject, joinKey, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { assertAllowedUrl, guardedAgents, policyReason } from '../../net/outbound';
import { fieldsShape, RECURSIVE_FIELD, type FieldSpec } from '../schema';

const COMMON: FieldSpec[] = [
  { name: 'remote_url', type: 'string', required: true, pattern: '^(az:\\/\\/|abfs:\\/\\/)', requiredInResponse: true },
  { name: 'account_name', type: 'string', required: false, requiredInResponse: false },
  { name: 'account_key', type: 'string', required: false, requiredInResponse: false, secret: true },
  { name: 'connection_string', type: 'string', required: false, requiredInResponse: false, secret: true },
  { name: 'sas_token', type: 'string', required: false, requiredInResponse: false, secret: true },
];
const SOURCE_FIELDS: FieldSpec[] = [...COMMON, RECURSIVE_FIELD];

export interface AzureConfig extends ConnectorConfig {
  remote_url: string;
  account_name?: string | null;
  account_key?: string | null;
  connection_string?: string | null;
  sas_token?: string | null;
  recursive?: boolean;
}

export interface AzureLocation {
  container: string;
  prefix: string;
  /** Account named in an abfs URL host, if any. */
  account?: string;
}

export function parseAzureUrl(url: string): AzureLocation {
  const abfs = /^abfss?:\/\/([^@/]+)@([^./]+)\.[^/]+\/?(.*)$/.exec(url);
  let loc: AzureLocation;
  if (abfs) {
    loc = { container: abfs[1]!, account: abfs[2]!, prefix: abfs[3] ?? '' };
  } else {
    const m = /^(?:az|abfss?):\/\/([^/@]+)\/?(.*)$/.exec(url);
    if (!m) throw new Error(`remote_url ${JSON.stringify(url)} is not of the form az://container/prefix or abfs://container@account.dfs.core.windows.net/prefix`);
    loc = { container: m[1]!, prefix: m[2] ?? '' };
  }
  if (loc.prefix && !loc.prefix.endsWith('/')) loc.prefix += '/';
  return loc;
}

function refine(schema: z.ZodType<ConnectorConfig>): z.ZodType<AzureConfig> {
  return schema.superRefine((c, ctx) => {
    // The account name becomes part of a host name: only what Azure allows (3-24 lowercase letters/digits).
    if (typeof c.account_name === 'string' && c.account_name && !/^[a-z0-9]{3,24}$/.test(c.account_name)) {
      ctx.addIssue({ code: 'custom', path: ['account_name'], message: 'account_name must be 3-24 lowercase letters and digits' });
    }
    if (typeof c.remote_url === 'string' && /^(az|abfs):\/\//.test(c.remote_url)) {
      try {
        parseAzureUrl(c.remote_url);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['remote_url'], message: describeError(err) });
      }
    }
  }) as unknown as z.ZodType<AzureConfig>;
}

const PIPELINE: StoragePipelineOptions = { retryOptions: { maxTries: 1, tryTimeoutInMs: 30000 } };

/** Sets the guarded agent on every request (core-http-compat carries `agent` to the HTTP client). */
const GUARDED_AGENT: RequestPolicyFactory = {
  create: (next) => ({
    sendRequest: (request) => {
      request.agent = request.url.startsWith('https:') ? guardedAgents().httpsAgent : guardedAgents().httpAgent;
      return next.sendRequest(request);
    },
  }),
};

function guardedPipeline(credential: StorageSharedKeyCredential | AnonymousCredential): Pipeline {
  const pipeline = newPipeline(credential, PIPELINE);
  pipeline.factories.push(GUARDED_AGENT);
  return pipeline;
}

function accountUrl(account: string): string {
  const tpl = process.env.AZURE_STORAGE_BLOB_ENDPOINT;
  if (tpl) return tpl.includes('{account}') ? tpl.replace('{account}', account) : tpl;
  return `https://${account}.blob.core.windows.net`;
}

/**
 * The container client, after checking that a tenant-given endpoint (a connection string's
 * BlobEndpoint or EndpointSuffix) does not point into private networks when those are denied.
 */
export async function azureContainerFor(c: AzureConfig): Promise<{ container: ContainerClient; loc: AzureLocation }> {
  const r = containerClientFor(c);
  await assertAllowedUrl(r.container.url);
  return r;
}

function containerClientFor(c: AzureConfig): { container: ContainerClient; loc: AzureLocation } {
  const loc = parseAzureUrl(c.remote_url);
  const account = c.account_name || loc.account;
  let service: BlobServiceClient;
  if (c.connection_string) {
    // The SDK parses the string (endpoint, key or SAS); the client is rebuilt on a guarded pipeline.
    const parsed = BlobServiceClient.fromConnectionString(c.connection_string, PIPELINE);
    service = new BlobServiceClient(parsed.url, guardedPipeline(parsed.credential as StorageSharedKeyCredential | AnonymousCredential));
  } else if (account && c.account_key) {
    service = new BlobServiceClient(accountUrl(account), guardedPipeline(new StorageSharedKeyCredential(account, c.account_key)));
  } else if (account && c.sas_token) {
    const sas = c.sas_token.replace(/^\?/, '');
    service = new BlobServiceClient(`${accountUrl(account)}?${sas}`, guardedPipeline(new AnonymousCredential()));
  } else if (account) {
    service = new BlobServiceClient(accountUrl(account), guardedPipeline(new AnonymousCredential()));
  } else {
    throw new Error('no credentials: give connection_string, or account_name with account_key or sas_token');
  }
  return { container: service.getContainerClient(loc.container), loc };
}

function azureReason(op: string, container: string, err: unknown): Error {
  const refused = policyReason(err);
  if (refused) return new Error(`${op} on container ${JSON.stringify(container)} refused: ${refused}`);
  const e = err as { statusCode?: number; code?: string; details?: { errorCode?: string } };
  const code = e?.details?.errorCode ?? e?.code;
  if (code === 'ContainerNotFound' || (e?.statusCode === 404 && op !== 'download')) {
    return new Error(`container ${JSON.stringify(container)} does not exist (${op}: ${code ?? 'HTTP 404'})`);
  }
  if (e?.statusCode === 403 || e?.statusCode === 401 || code === 'AuthenticationFailed' || code === 'AuthorizationFailure') {
    return new Error(`access to container ${JSON.stringify(container)} denied (${op}: ${code ?? `HTTP ${e.statusCode}`})`);
  }
  const msg = describeError(err).split('\n')[0] ?? '';
  return new Error(`${op} on container ${JSON.stringify(container)} failed: ${msg}${e?.statusCode ? ` (HTTP ${e.statusCode})` : ''}`);
}

type BlobProps = { contentLength?: number; etag?: string; createdOn?: Date; lastModified?: Date };

/** A listed blob with the platform's data_source (fsspec connectors: url, etag, dates, remote path). */
function blobObject(c: AzureConfig, prefix: string, name: string, p: BlobProps): SourceObject {
  const key = name.slice(prefix.length);
  return fileObject({
    key,
    size: p.contentLength,
    version: p.etag,
    url: `${c.remote_url.replace(/\/+$/, '')}/${key}`,
    recordLocator: { protocol: 'az', remote_file_path: c.remote_url },
    created: p.createdOn ?? p.lastModified,
    modified: p.lastModified,
  });
}

async function* listBlobs(c: AzureConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const { container, loc } = await azureContainerFor(c);
  const opts = { prefix: loc.prefix || undefined, abortSignal: ctx?.signal };
  try {
    if (c.recursive === false) {
      for await (const item of container.listBlobsByHierarchy('/', opts)) {
        if (item.kind === 'blob') yield blobObject(c, loc.prefix, item.name, item.properties);
      }
    } else {
      for await (const b of container.listBlobsFlat(opts)) {
        if (b.name.endsWith('/')) continue;
        yield blobObject(c, loc.prefix, b.name, b.properties);
      }
    }
  } catch (err) {
    throw azureReason('list', loc.container, err);
  }
}

/** One call `op` on the configured container, its failure said in the container's terms. */
async function onContainer<T>(c: AzureConfig, op: string, call: (container: ContainerClient, loc: AzureLocation) => Promise<T>): Promise<T> {
  const { container, loc } = await azureContainerFor(c);
  try {
    return await call(container, loc);
  } catch (err) {
    throw azureReason(op, loc.container, err);
  }
}

async function readBlob(c: AzureConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  return onContainer(c, 'download', async (container, loc) => {
    const buf = await container.getBlobClient(joinKey(loc.prefix, assertSafeKey(key))).downloadToBuffer(0, undefined, { abortSignal: ctx?.signal });
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  });
}

async function writeBlob(c: AzureConfig, key: string, data: Uint8Array, ctx?: RuntimeContext): Promise<void> {
  await onContainer(c, 'upload', (container, loc) =>
    container.getBlockBlobClient(joinKey(loc.prefix, assertSafeKey(key))).uploadData(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { abortSignal: ctx?.signal }),
  );
}

export const azureSource = defineConnector<AzureConfig>({
  kind: 'source',
  type: 'azure',
  ...fieldsShape(SOURCE_FIELDS, refine),
  async check(c, ctx) {
    // One page of one blob proves the container exists and the credentials may list it.
    await onContainer(c, 'list', (container, loc) => container.listBlobsFlat({ prefix: loc.prefix || undefined, abortSignal: ctx.signal }).byPage({ maxPageSize: 1 }).next());
  },
  list: listBlobs,
  read: readBlob,
});

export const azureDestination = defineConnector<AzureConfig>({
  kind: 'destination',
  type: 'azure',
  ...fieldsShape(COMMON, refine),
  async check(c, ctx) {
    await onContainer(c, 'getProperties', (container) => container.getProperties({ abortSignal: ctx.signal }));
  },
  write: writeBlob,
});
