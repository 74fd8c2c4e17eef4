// The connector fields of api-shapes.md §6, as lambdas/connectors/tools/derive-fields.mjs writes them
// from connector-fields.derived.json into derived-fields.json (committed, so the build never depends on
// the shared folder). Do not edit the JSON by hand; hand-written connector files override entries here.
import type { DerivedTable } from './schema';
import table from './derived-fields.json';

export const DERIVED_FIELDS = table as DerivedTable;
