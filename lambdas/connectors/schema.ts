// Builds the input and output zod schemas of a connector config from a field table (the data of
// api-shapes.md §6), and turns zod issues into FastAPI-style 422 items.
import { z } from 'zod';
import type { ValidationIssue } from '../errors';
import type { ConnectorConfig, ConnectorDefinition } from './definition';

export type FieldType = 'string' | 'integer' | 'boolean' | 'string[]' | 'string|secret_ref';

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** Required on create/update (input shape). */
  required: boolean;
  default?: string | number | boolean;
  /** Regular expression source (anchored as written). */
  pattern?: string;
  minimum?: number;
  maximum?: number;
  /** Always present in responses (output shape). */
  requiredInResponse: boolean;
  secret?: boolean;
  /** Stored but absent from the output shape. */
  outputOmit?: boolean;
}

export interface DerivedModel {
  extraAllowed: boolean;
  fields: FieldSpec[];
}

export interface DerivedTable {
  source: Record<string, DerivedModel | null>;
  destination: Record<string, DerivedModel | null>;
}

/** SecretReference of api-shapes.md §2 (accepted in place of a string for some Google fields). */
export const SecretReference = z.object({
  id: z.string(),
  type: z.enum(['rsa', 'rsa_aes', 'runtime_config']).default('rsa'),
});

function baseType(f: FieldSpec): z.ZodType {
  switch (f.type) {
    case 'string': {
      let s = z.string();
      if (f.pattern) s = s.regex(new RegExp(f.pattern), { message: `String should match pattern '${f.pattern}'` });
      return s;
    }
    case 'integer': {
      let n = z.number().int();
      if (f.minimum !== undefined) n = n.min(f.minimum, { message: `Input should be greater than or equal to ${f.minimum}` });
      if (f.maximum !== undefined) n = n.max(f.maximum, { message: `Input should be less than or equal to ${f.maximum}` });
      return n;
    }
    case 'boolean':
      return z.boolean();
    case 'string[]':
      return z.array(z.string());
    case 'string|secret_ref':
      return z.union([z.string(), SecretReference]);
  }
}

function fieldSchema(f: FieldSpec, required: boolean): z.ZodType {
  const t = baseType(f);
  if (f.default !== undefined) return t.nullish().default(f.default as never);
  return required ? t : t.nullish();
}

/** Input shape: required fields, patterns, minimums; defaults applied; extra keys kept. */
export function inputSchema(fields: readonly FieldSpec[]): z.ZodType<ConnectorConfig> {
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) shape[f.name] = fieldSchema(f, f.required);
  return z.looseObject(shape);
}

/**
 * Output shape: fields required in responses are required (defaults fill them), patterns are not
 * enforced (spec §2.1: "input shape must begin with az://"), omitted fields are dropped.
 */
export function outputSchema(fields: readonly FieldSpec[]): z.ZodType<ConnectorConfig> {
  const shape: Record<string, z.ZodType> = {};
  const omit: Record<string, true> = {};
  for (const f of fields) {
    if (f.outputOmit) {
      omit[f.name] = true;
      continue;
    }
    shape[f.name] = fieldSchema({ ...f, pattern: undefined }, f.requiredInResponse);
  }
  return z.looseObject(shape).transform((v) => {
    const out: ConnectorConfig = {};
    for (const [k, val] of Object.entries(v)) if (!omit[k]) out[k] = val;
    return out;
  });
}

export function secretFieldNames(fields: readonly FieldSpec[]): string[] {
  return fields.filter((f) => f.secret).map((f) => f.name);
}

/**
 * A connector's config schemas from its field table: the input shape (with `refine`'s cross-field
 * checks, when given), the output shape and the secret fields.
 */
export function fieldsShape<C extends ConnectorConfig = ConnectorConfig>(
  fields: readonly FieldSpec[],
  refine?: (input: z.ZodType<ConnectorConfig>) => z.ZodType<C>,
): Pick<ConnectorDefinition<C>, 'input' | 'output' | 'secretFields'> {
  const input = inputSchema(fields);
  return { input: refine ? refine(input) : (input as unknown as z.ZodType<C>), output: outputSchema(fields), secretFields: secretFieldNames(fields) };
}

/** An input schema refinement by `check` (cross-field rules, each issue at its field), typed as the config `C`. */
export function refineWith<C extends ConnectorConfig>(check: (c: ConnectorConfig, ctx: z.RefinementCtx<ConnectorConfig>) => void): (input: z.ZodType<ConnectorConfig>) => z.ZodType<C> {
  return (input) => input.superRefine(check) as unknown as z.ZodType<C>;
}

/** Where a config refinement reports (zod's refinement context, as the checks below use it). */
export interface IssueSink {
  addIssue(issue: { code: 'custom'; path: (string | number)[]; message: string }): void;
}

/** batch_size, when given, is a whole number of at least 1. */
export function checkBatchSize(c: ConnectorConfig, ctx: IssueSink): void {
  if (c.batch_size !== undefined && !(Number.isInteger(c.batch_size) && (c.batch_size as number) >= 1)) {
    ctx.addIssue({ code: 'custom', path: ['batch_size'], message: 'batch_size must be an integer of at least 1' });
  }
}

/** A file store source's `recursive` field (into sub-folders; on unless set false). */
export const RECURSIVE_FIELD: FieldSpec = { name: 'recursive', type: 'boolean', required: false, default: true, requiredInResponse: true };

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let cur: unknown = root;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object' || !(String(p) in (cur as object))) return { present: false, value: undefined };
    cur = (cur as Record<string, unknown>)[String(p)];
  }
  return { present: true, value: cur };
}

const EXPECTED: Record<string, { type: string; msg: string }> = {
  string: { type: 'string_type', msg: 'Input should be a valid string' },
  number: { type: 'int_type', msg: 'Input should be a valid integer' },
  int: { type: 'int_type', msg: 'Input should be a valid integer' },
  boolean: { type: 'bool_type', msg: 'Input should be a valid boolean' },
  array: { type: 'list_type', msg: 'Input should be a valid list' },
  object: { type: 'dict_type', msg: 'Input should be a valid dictionary' },
};

/** Maps zod issues to FastAPI/pydantic-style items: `{loc, msg, type, input?}`. */
export function toValidationIssues(issues: readonly z.core.$ZodIssue[], input: unknown, loc: readonly (string | number)[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const at = valueAt(input, issue.path);
    const fullLoc = [...loc, ...path];
    const withInput = (item: ValidationIssue): ValidationIssue => (at.present ? { ...item, input: at.value } : item);
    if (issue.code === 'invalid_type') {
      if (!at.present || at.value === undefined) {
        out.push({ loc: fullLoc, msg: 'Field required', type: 'missing' });
        continue;
      }
      const e = EXPECTED[issue.expected] ?? { type: `${issue.expected}_type`, msg: `Input should be a valid ${issue.expected}` };
      out.push(withInput({ loc: fullLoc, msg: e.msg, type: e.type }));
    } else if (issue.code === 'invalid_format' && issue.format === 'regex') {
      out.push(withInput({ loc: fullLoc, msg: issue.message, type: 'string_pattern_mismatch' }));
    } else if (issue.code === 'too_small') {
      const type = issue.origin === 'string' || issue.origin === 'array' ? 'too_short' : 'greater_than_equal';
      out.push(withInput({ loc: fullLoc, msg: issue.message, type }));
    } else if (issue.code === 'too_big') {
      const type = issue.origin === 'string' || issue.origin === 'array' ? 'too_long' : 'less_than_equal';
      out.push(withInput({ loc: fullLoc, msg: issue.message, type }));
    } else if (issue.code === 'invalid_union') {
      out.push(withInput({ loc: fullLoc, msg: `Input should be a valid string or object (found ${typeName(at.value)})`, type: 'union_type' }));
    } else {
      out.push(withInput({ loc: fullLoc, msg: issue.message, type: 'value_error' }));
    }
  }
  return out;
}
