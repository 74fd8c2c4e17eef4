// The config schemas of the connector types whose fields come from the platform's table
// (DERIVED_FIELDS, api-shapes.md §6) rather than a hand-written zod schema: each family's folder
// implements the type's runtime and takes its input, output and secret fields from here.
import { DERIVED_FIELDS } from '../derived-fields';
import type { ConnectorDefinition, ConnectorKind } from '../definition';
import { fieldsShape } from '../schema';

/**
 * The config schemas of a derived type (input, output, secret fields), for a connector family that
 * implements the type's runtime but keeps the platform's field table as its schema.
 */
export function derivedShape(kind: ConnectorKind, type: string): Pick<ConnectorDefinition, 'input' | 'output' | 'secretFields'> {
  const model = DERIVED_FIELDS[kind][type];
  if (!model) throw new Error(`no derived field table for ${kind} type ${type}`);
  return fieldsShape(model.fields);
}
