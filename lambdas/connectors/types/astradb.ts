// Astra DB (vector database) destination: the vector-database config of spec §2.1.
// Input: collection_name ^\w+$, keyspace default "default_keyspace", batch_size >= 1 default 20,
// binary_encode_vectors default true, flatten_metadata default false; extra keys allowed.
// Output: collection_name, batch_size, api_endpoint, token required; flatten_metadata absent.
// Check: the Data API's findCollections on the keyspace, then the collection must be listed.
import type { z } from 'zod';
import { defineConnector, type ConnectorConfig } from '../definition';
import { httpRequest } from '../net-check';
import { inputSchema, outputSchema, secretFieldNames, type FieldSpec } from '../schema';

const FIELDS: FieldSpec[] = [
  { name: 'collection_name', type: 'string', required: true, pattern: '^\\w+$', requiredInResponse: true },
  { name: 'keyspace', type: 'string', required: false, default: 'default_keyspace', requiredInResponse: false },
  { name: 'batch_size', type: 'integer', required: false, default: 20, minimum: 1, requiredInResponse: true },
  { name: 'binary_encode_vectors', type: 'boolean', required: false, default: true, requiredInResponse: false },
  { name: 'api_endpoint', type: 'string', required: true, requiredInResponse: true },
  { name: 'token', type: 'string', required: true, requiredInResponse: true, secret: true },
  { name: 'flatten_metadata', type: 'boolean', required: false, default: false, requiredInResponse: false, outputOmit: true },
];

export interface AstraDbConfig extends ConnectorConfig {
  collection_name: string;
  keyspace: string | null;
  batch_size: number;
  binary_encode_vectors: boolean;
  api_endpoint: string;
  token: string;
  flatten_metadata: boolean;
}

export const astradbDestination = defineConnector<AstraDbConfig>({
  kind: 'destination',
  type: 'astradb',
  input: inputSchema(FIELDS) as unknown as z.ZodType<AstraDbConfig>,
  output: outputSchema(FIELDS),
  secretFields: secretFieldNames(FIELDS),
  outputOmit: ['flatten_metadata'],
  async check(c, ctx) {
    let base: URL;
    try {
      base = new URL(c.api_endpoint);
    } catch {
      throw new Error(`api_endpoint ${JSON.stringify(c.api_endpoint)} is not a URL`);
    }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error('api_endpoint must be an http(s) URL');
    const keyspace = c.keyspace ?? 'default_keyspace';
    const url = new URL(`api/json/v1/${encodeURIComponent(keyspace)}`, base.href.endsWith('/') ? base.href : `${base.href}/`).href;
    const res = await httpRequest(
      url,
      { method: 'POST', headers: { Token: c.token, 'Content-Type': 'application/json' }, body: JSON.stringify({ findCollections: {} }) },
      ctx.signal,
    );
    if (res.status === 401 || res.status === 403) throw new Error(`Astra DB rejected the token (HTTP ${res.status})`);
    if (res.status < 200 || res.status >= 300) throw new Error(`Astra DB answered HTTP ${res.status}: ${res.body.slice(0, 200)}`);
    let body: { status?: { collections?: unknown[] }; errors?: { message?: string }[] };
    try {
      body = JSON.parse(res.body) as typeof body;
    } catch {
      throw new Error('Astra DB answered with a body that is not JSON');
    }
    if (body.errors?.length) throw new Error(`Astra DB error: ${body.errors.map((e) => e.message ?? '?').join('; ')}`);
    const names = (body.status?.collections ?? []).map((x) => (typeof x === 'string' ? x : (x as { name?: string })?.name));
    if (!names.includes(c.collection_name)) {
      throw new Error(`collection ${JSON.stringify(c.collection_name)} not found in keyspace ${JSON.stringify(keyspace)}`);
    }
  },
});
