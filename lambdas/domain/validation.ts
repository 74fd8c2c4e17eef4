// zod issues → FastAPI-style validation details ({loc, msg, type}), so 422 bodies look like the
// upstream service's HTTPValidationError.
import type { z } from 'zod';
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
