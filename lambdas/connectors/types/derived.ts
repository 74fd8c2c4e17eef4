// The config schemas of the connector types whose fields come from the platform's table
// (DERIVED_FIELDS, api-shapes.md §6) rather than a hand-written zod schema: each family's folder
// implements the type's runtime and takes its input, output and secret fields from here.
import type { z } from 'zod';
import { DERIVED_FIELDS } from '../derived-fields';
import type { ConnectorConfig, ConnectorDefinition, ConnectorKind } from '../definition';
import { fieldsShape } from '../schema';

/**
 * A derived type's part of its definition: kind and type, and the config schemas (input, output,
 * secret fields) from the platform's field table, the input with `refine`'s checks when given; for a
 * connector family that implements the type's runtime but keeps that table as its schema.
 */
export function derivedShape<C extends ConnectorConfig = ConnectorConfig>(
  kind: ConnectorKind,
  type: string,
  refine?: (input: z.ZodType<ConnectorConfig>) => z.ZodType<C>,
): Pick<ConnectorDefinition<C>, 'kind' | 'type' | 'input' | 'output' | 'secretFields'> {
  const model = DERIVED_FIELDS[kind][type];
  if (!model) throw new Error(`no derived field table for ${kind} type ${type}`);
  return { kind, type, ...fieldsShape(model.fields, refine) };
}
