// Azure AI Search destination (type `azure_ai_search`; fields from the platform's table: endpoint
// https://<service>.search.windows.net, index, key (an admin api-key), plus optional batch_size,
// documents per indexing request, default 100 as the platform, at most 1000 as Azure allows).
// The index must exist: the platform requires a user-created index and so does this destination
// (the check says what is missing). Records: stage.ts; replace by record_id: writer.ts.
// Check: reads the index definition with the key (an admin key is needed to read it, and to write),
// and reports the key field, whether record_id is filterable, and the vector field's dimensions.
import type { z } from 'zod';
import { assertAllowedUrl } from '../../net/outbound';
import { redact } from '../agents';
import { defineConnector, type ConnectorConfig, type ConnectorDefinition } from '../definition';
import { DERIVED_FIELDS } from '../derived-fields';
import { inputSchema, outputSchema, secretFieldNames, type FieldSpec } from '../schema';
import { azureSearch, azureStatus, describeAzureError, type AzureSearch } from './client';
import { indexShape, MAX_BATCH, removeRecords, uploadRecords } from './writer';

interface AzureAiSearchConfig extends ConnectorConfig {
  endpoint: string;
  index: string;
  key: string;
  batch_size?: number | null;
}

const FIELDS: FieldSpec[] = [
  ...DERIVED_FIELDS.destination.azure_ai_search!.fields,
  { name: 'batch_size', type: 'integer', required: false, minimum: 1, maximum: MAX_BATCH, requiredInResponse: false },
];

const input = inputSchema(FIELDS).superRefine((c, ctx) => {
  if (typeof c.endpoint === 'string') {
    try {
      const u = new URL(c.endpoint);
      if (u.username || u.password || u.search) ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'endpoint is the service URL alone (no credentials or query)' });
    } catch {
      ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'endpoint is not a URL' });
    }
  }
  if (typeof c.index === 'string' && !/^[a-z0-9][a-z0-9-]{0,127}$/.test(c.index)) {
    ctx.addIssue({ code: 'custom', path: ['index'], message: 'index must be lowercase letters, digits or dashes, starting with a letter or digit (Azure index names)' });
  }
}) as unknown as z.ZodType<AzureAiSearchConfig>;

async function open(c: AzureAiSearchConfig): Promise<AzureSearch> {
  await assertAllowedUrl(c.endpoint);
  return azureSearch({ endpoint: c.endpoint, index: c.index, key: c.key });
}

async function guarded<T>(c: AzureAiSearchConfig, fn: (s: AzureSearch) => Promise<T>): Promise<T> {
  try {
    return await fn(await open(c));
  } catch (err) {
    // SDK errors (RestError: answered or not) in the service's words; the writer's own already are.
    const message = !(err instanceof Error) || err.name === 'RestError' ? describeAzureError(err) : err.message;
    throw new Error(redact(message, [c.key]));
  }
}

const REQUIRED_INDEX = 'a key field id (Edm.String), record_id (Edm.String, filterable), element_id, text, type, embeddings (Collection(Edm.Single) with your embedder\'s dimensions) and metadata';

export const azureAiSearchDestination: ConnectorDefinition = defineConnector<AzureAiSearchConfig>({
  kind: 'destination',
  type: 'azure_ai_search',
  input,
  output: outputSchema(FIELDS),
  secretFields: secretFieldNames(FIELDS),
  check: (c, ctx) =>
    guarded(c, async (search) => {
      let index;
      try {
        index = await search.getIndex(ctx.signal);
      } catch (err) {
        const status = azureStatus(err);
        if (status === 404) throw new Error(`index ${c.index} not found: create it first in the Azure portal or API (the platform requires a user-created index), with ${REQUIRED_INDEX}; ${describeAzureError(err)}`);
        if (status === 403) throw new Error(`${describeAzureError(err)}; writing needs an admin key of the service`);
        throw err;
      }
      const shape = indexShape(index);
      const notes = [`index ${index.name}: key ${shape.key}, ${index.fields.length} fields`];
      notes.push(shape.vectorDims ? `embeddings of ${shape.vectorDims} dimensions` : 'no embeddings vector field (vectors are not stored)');
      notes.push(shape.canReplace ? 'record_id filterable (rewrites replace a file\'s documents)' : 'record_id missing or not filterable: rewrites replace documents by key only');
      return notes.join('; ');
    }),
  upload: (c, file, ctx) => guarded(c, (search) => uploadRecords(search, c.batch_size ?? 100, file, ctx)),
  removeRecords: (c, recordId, ctx) => guarded(c, (search) => removeRecords(search, recordId, ctx)),
});
