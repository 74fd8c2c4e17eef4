// Request and response schemas of the source and destination operations (api-shapes.md §2, §3).
import { z } from 'zod';
import { queryBool, uuidParam } from './common';

export const ConnectorConfig = z.record(z.string(), z.unknown()).meta({
  description: 'Type-specific connector configuration (additional properties allowed).',
});

export const CreateConnector = z.object({
  name: z.string().min(1),
  type: z.string().min(1),
  config: ConnectorConfig,
});

export const UpdateConnector = z.object({ config: ConnectorConfig });

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
export const SourceListQuery = z.object({ source_type: z.string().optional() });
export const DestinationListQuery = z.object({ destination_type: z.string().optional() });
export const DeleteResponse = z.object({ detail: z.string() });

export { queryBool };
