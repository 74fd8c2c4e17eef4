// zod issues → FastAPI-style validation details ({loc, msg, type}), so 422 bodies look like the
// upstream service's HTTPValidationError. A leaf beside lambdas/errors.ts: the engine and the domain both use it.
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from './errors';

type Loc = (string | number)[];

function issueType(issue: z.core.$ZodIssue, missing: boolean): string {
  switch (issue.code) {
    case 'invalid_type':
      return missing ? 'missing' : `${issue.expected}_type`;
    case 'invalid_value':
      return 'enum';
    case 'too_small':
      return issue.origin === 'string' ? 'string_too_short' : issue.origin === 'array' ? 'too_short' : 'greater_than_equal';
    case 'too_big':
      return issue.origin === 'string' ? 'string_too_long' : issue.origin === 'array' ? 'too_long' : 'less_than_equal';
    case 'invalid_format':
      return issue.format === 'regex' ? 'string_pattern_mismatch' : `${issue.format}_parsing`;
    case 'unrecognized_keys':
      return 'extra_forbidden';
    case 'invalid_union':
      return 'union_tag_invalid';
    default:
      return 'value_error';
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

export function zodIssuesToDetail(issues: z.core.$ZodIssue[], prefix: Loc, input?: unknown): ValidationIssue[] {
  return issues.map((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const value = valueAt(input, issue.path);
    const missing = issue.code === 'invalid_type' && value === undefined;
    return {
      loc: [...prefix, ...path],
      msg: missing ? 'Field required' : issue.message,
      type: issueType(issue, missing),
    };
  });
}

/** Parses `input` with the schema or throws a 422 ValidationError located under `prefix`. */
export function parseOr422<S extends z.ZodType>(schema: S, input: unknown, prefix: Loc): z.output<S> {
  const res = schema.safeParse(input);
  if (res.success) return res.data;
  throw new ValidationError(zodIssuesToDetail(res.error.issues, prefix, input));
}

/** Array form-field values (multipart): repeated parts, comma-joined strings, or a JSON array string. */
export function arrayValues(values: string[] | undefined): string[] {
  if (!values) return [];
  const out: string[] = [];
  for (const v of values) {
    const t = v.trim();
    if (!t) continue;
    if (t.startsWith('[')) {
      try {
        const arr = JSON.parse(t) as unknown;
        if (Array.isArray(arr)) { for (const x of arr) if (String(x).trim()) out.push(String(x).trim()); continue; }
      } catch { /* not JSON: split below */ }
    }
    for (const part of t.split(',')) if (part.trim()) out.push(part.trim());
  }
  return out;
}

// ---- limits of free-form input ----------------------------------------------------------------

/** Names (connectors, workflows, nodes, file names): the common file-system limit. */
export const NAME_MAX_CHARS = 255;
/** Free-form JSON objects (connector `config`, node `settings`): far below DynamoDB's 400 KB item. */
export const OBJECT_MAX_BYTES = 64 * 1024;
export const OBJECT_MAX_DEPTH = 32;
/**
 * Numbers a record can hold: the DynamoDB document client refuses integers beyond 2^53 - 1 (precision
 * would be lost) and DynamoDB magnitudes below 1e-130; a JSON 1e308 or 1e-300 in a free-form object
 * would otherwise fail at the store, after validation, as a 500.
 */
export function numberInStoreRange(n: number): boolean {
  const m = Math.abs(n);
  return Number.isFinite(n) && m <= Number.MAX_SAFE_INTEGER && (m === 0 || m >= 1e-130);
}

/** Keys that would reach an object's prototype if ever used as keys unchecked. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Checks a parsed JSON value against the object limits without recursion (a value nested 100,000
 * levels deep must not overflow the stack here, nor later in JSON.stringify or the DynamoDB
 * marshaller, which is why depth is capped at all). Returns the problem, or undefined when within.
 */
export function jsonValueProblem(value: unknown, maxBytes = OBJECT_MAX_BYTES, maxDepth = OBJECT_MAX_DEPTH): string | undefined {
  let bytes = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    // -- sizes are counted before children are queued, so a huge array is refused before it is walked --
    if (v === null || typeof v === 'boolean') bytes += 5;
    else if (typeof v === 'number') {
      if (!numberInStoreRange(v)) return `the number ${v} is out of range (at most ${Number.MAX_SAFE_INTEGER} in magnitude, and 0 or at least 1e-130)`;
      bytes += 24;
    } else if (typeof v === 'string') bytes += Buffer.byteLength(v, 'utf8') + 2;
    else if (typeof v === 'object') {
      if (depth > maxDepth) return `nested deeper than ${maxDepth} levels`;
      if (Array.isArray(v)) {
        bytes += 2 + v.length;
        if (bytes > maxBytes) break;
        for (const x of v) stack.push([x, depth + 1]);
      } else {
        bytes += 2;
        for (const k of Object.keys(v)) {
          if (PROTOTYPE_KEYS.has(k)) return `the key '${k}' is not allowed`;
          bytes += Buffer.byteLength(k, 'utf8') + 4;
          if (bytes > maxBytes) break;
          stack.push([(v as Record<string, unknown>)[k], depth + 1]);
        }
      }
    }
    if (bytes > maxBytes) break;
  }
  if (bytes > maxBytes) return `larger than ${maxBytes / 1024} KiB serialized`;
  return undefined;
}

/** Nesting allowed in a JSON request body (API shapes need a handful of levels). */
export const BODY_MAX_DEPTH = 64;

/**
 * The first structural problem of a parsed JSON body, if any, with its path: a `__proto__`,
 * `constructor` or `prototype` key (JSON.parse keeps `__proto__` as an own key, which zod drops
 * silently; refused at the door, no later code can use one as an object key unchecked), or nesting
 * beyond `maxDepth` (later recursive code, JSON.stringify or the DynamoDB marshaller, would overflow
 * the stack). Iterative, with parent links rather than path copies, so it is linear in the input.
 */
export function jsonBodyProblem(value: unknown, maxDepth = BODY_MAX_DEPTH): { path: (string | number)[]; msg: string } | undefined {
  const parents: number[] = [-1];
  const keys: (string | number)[] = [''];
  const depths: number[] = [0];
  const values: unknown[] = [value];
  const pathOf = (i: number) => {
    const path: (string | number)[] = [];
    for (let n = i; n > 0; n = parents[n]!) path.unshift(keys[n]!);
    return path;
  };
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || typeof v !== 'object') continue;
    if (depths[i]! >= maxDepth) return { path: pathOf(i), msg: `nested deeper than ${maxDepth} levels` };
    const child = (k: string | number, x: unknown) => {
      if (x === null || typeof x !== 'object') return;
      parents.push(i);
      keys.push(k);
      depths.push(depths[i]! + 1);
      values.push(x);
    };
    if (Array.isArray(v)) {
      for (let k = 0; k < v.length; k++) child(k, v[k]);
      continue;
    }
    for (const k of Object.keys(v)) {
      if (PROTOTYPE_KEYS.has(k)) return { path: [...pathOf(i), k], msg: `the key '${k}' is not allowed` };
      child(k, (v as Record<string, unknown>)[k]);
    }
  }
  return undefined;
}

/** A JSON object (`config`, `settings`) within the object limits; 422 at the field otherwise. */
export function boundedObject(what: string) {
  return z
    .record(z.string(), z.unknown())
    .superRefine((v, ctx) => {
      const problem = jsonValueProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: `${what} is invalid: ${problem}` });
    });
}

/** A name: 1 to NAME_MAX_CHARS characters, no control characters. */
export const nameString = z
  .string()
  .min(1)
  .max(NAME_MAX_CHARS)
  .regex(/^[^\u0000-\u001f\u007f]*$/, { message: 'must not contain control characters' });

/** A node id (job and workflow nodes; part of storage keys and of the download query). */
export const nodeIdString = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, { message: 'a node id is letters, digits and _ . : - (at most 100)' });
