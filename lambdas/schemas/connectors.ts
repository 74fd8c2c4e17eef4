// Request and response schemas of the source and destination operations (api-shapes.md §2, §3).
import { z } from 'zod';
import { queryBool, shortString, uuidParam } from './common';
import { boundedObject, nameString } from '../validation';

export const ConnectorConfig = z.record(z.string(), z.unknown()).meta({
  description: 'Type-specific connector configuration (additional properties allowed).',
});

/** A config as sent: at most 64 KiB serialized and 32 levels deep (DynamoDB holds 400 KB per item). */
const ConnectorConfigInput = boundedObject('config').meta({
  description: 'Type-specific connector configuration (additional properties allowed; at most 64 KiB serialized).',
});

export const CreateConnector = z.object({
  name: nameString,
  type: shortString.min(1),
  config: ConnectorConfigInput,
});

export const UpdateConnector = z.object({ config: ConnectorConfigInput });

export const ConnectorInformation = z.object({
  id: z.uuid(),
  name: z.string(),
  type: z.string(),
  config: ConnectorConfig,
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime().nullable(),
});

export const DagNodeConnectionCheck = z
  .object({
    id: z.uuid(),
    status: z.enum(['SCHEDULED', 'SUCCESS', 'FAILURE']),
    reason: z.string().nullable(),
    created_at: z.iso.datetime(),
    reported_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'DagNodeConnectionCheck' });

export const SourceIdParams = z.object({ source_id: uuidParam });
export const DestinationIdParams = z.object({ destination_id: uuidParam });
export const SourceListQuery = z.object({ source_type: shortString.optional() });
export const DestinationListQuery = z.object({ destination_type: shortString.optional() });
export const DeleteResponse = z.object({ detail: z.string() });

export { queryBool };
