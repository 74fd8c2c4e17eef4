// Turns zod schemas into OpenAPI component references. z.toJSONSchema puts every schema with a
// meta id under the converted schema's own `$defs`, which does not resolve from an OpenAPI document's
// root: each definition is hoisted into components/schemas and its refs rewritten. The same id can
// convert differently as input (defaults optional) and output (defaults present): the second shape
// gets an `Input`/`Output` suffix instead of overwriting the first.
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;
export type Io = 'input' | 'output';

const DEFS = '#/$defs/';
export const COMPONENTS = '#/components/schemas/';

export const ref = (name: string): JsonSchema => ({ $ref: COMPONENTS + name });

function rewrite(node: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, names));
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith(DEFS)) {
      const id = v.slice(DEFS.length);
      out.$ref = COMPONENTS + (names.get(id) ?? id);
    } else out[k] = rewrite(v, names);
  }
  return out;
}

export class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  /** Adds a hand-built schema under `name` (throws on a different schema of the same name). */
  add(name: string, schema: JsonSchema): JsonSchema {
    const have = this.schemas[name];
    if (have && !isDeepStrictEqual(have, schema)) throw new Error(`two different component schemas named ${name}`);
    this.schemas[name] = schema;
    return ref(name);
  }

  /** The JSON Schema of a zod schema, every named part (and the root, if named) as a component ref. */
  convert(schema: z.ZodType, io: Io): JsonSchema {
    const js = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    delete js.$schema;
    const defs = (js.$defs ?? {}) as Record<string, JsonSchema>;
    delete js.$defs;
    // A name per definition: the id itself unless a different shape already holds it.
    const names = new Map<string, string>();
    for (const [id, def] of Object.entries(defs)) {
      const plain = rewrite(def, new Map()) as JsonSchema;
      let name = id;
      const suffix = io === 'input' ? 'Input' : 'Output';
      for (let n = 1; this.schemas[name] && !isDeepStrictEqual(this.schemas[name], plain); n++) name = `${id}${suffix}${n > 1 ? n : ''}`;
      names.set(id, name);
    }
    for (const [id, def] of Object.entries(defs)) this.schemas[names.get(id)!] = rewrite(def, names) as JsonSchema;
    return rewrite(js, names) as JsonSchema;
  }
}
