// Parsing of chunking parameters from the two places they arrive:
// - the partition endpoint's multipart form (every value a string; FastAPI-style coercion), and
// - `chunk` job nodes (subtype + a JSON settings object).
// Both produce ChunkingOptions or throw a ValidationError (422) listing every bad field.
import { ValidationError, type ValidationIssue } from '../../errors';
import { CHUNKING_STRATEGIES, validateOptions, type ChunkingOptions, type ChunkingStrategy } from './options';

/** Chunk node subtypes of the platform and the strategy each runs. */
export const CHUNK_NODE_SUBTYPES: Readonly<Record<string, ChunkingStrategy>> = {
  chunk_by_character: 'basic',
  chunk_by_title: 'by_title',
  chunk_by_page: 'by_page',
  chunk_by_similarity: 'by_similarity',
};

type Kind = 'int' | 'bool' | 'float';
/** Wire name → (option key, kind). Both spellings of the combine parameter are accepted. */
const FIELDS: [string, keyof ChunkingOptions, Kind][] = [
  ['max_characters', 'max_characters', 'int'],
  ['new_after_n_chars', 'new_after_n_chars', 'int'],
  ['overlap', 'overlap', 'int'],
  ['overlap_all', 'overlap_all', 'bool'],
  ['combine_under_n_chars', 'combine_text_under_n_chars', 'int'],
  ['combine_text_under_n_chars', 'combine_text_under_n_chars', 'int'],
  ['multipage_sections', 'multipage_sections', 'bool'],
  ['include_orig_elements', 'include_orig_elements', 'bool'],
  ['similarity_threshold', 'similarity_threshold', 'float'],
];

const TRUE = new Set(['true', '1', 'yes', 'y', 'on', 't']);
const FALSE = new Set(['false', '0', 'no', 'n', 'off', 'f']);

function coerce(kind: Kind, raw: unknown): { ok: true; value: number | boolean } | { ok: false; msg: string; type: string } {
  if (kind === 'bool') {
    if (typeof raw === 'boolean') return { ok: true, value: raw };
    if (typeof raw === 'number' && (raw === 0 || raw === 1)) return { ok: true, value: raw === 1 };
    if (typeof raw === 'string') {
      const s = raw.trim().toLowerCase();
      if (TRUE.has(s)) return { ok: true, value: true };
      if (FALSE.has(s)) return { ok: true, value: false };
    }
    return { ok: false, msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing' };
  }
  if (kind === 'int') {
    // -- safe integers only: 1e308 is an integer to JavaScript, and no chunk size --
    if (typeof raw === 'number' && Number.isSafeInteger(raw)) return { ok: true, value: raw };
    if (typeof raw === 'string' && /^\s*[+-]?\d{1,15}\s*$/.test(raw)) return { ok: true, value: parseInt(raw, 10) };
    return { ok: false, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing' };
  }
  if (typeof raw === 'number' && Number.isFinite(raw)) return { ok: true, value: raw };
  if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) return { ok: true, value: Number(raw) };
  return { ok: false, msg: 'Input should be a valid number, unable to parse string as a number', type: 'float_parsing' };
}

/** Reads the known fields from `get(name)`, collecting coercion issues under `loc(name)`. */
function readFields(
  strategy: ChunkingStrategy,
  get: (name: string) => unknown,
  loc: (name: string) => (string | number)[],
  issues: ValidationIssue[],
): { options: ChunkingOptions; wireName: Map<keyof ChunkingOptions, string> } {
  const options: ChunkingOptions = { strategy };
  const wireName = new Map<keyof ChunkingOptions, string>();
  for (const [name, key, kind] of FIELDS) {
    const raw = get(name);
    if (raw === undefined || raw === null || raw === '') continue;
    const r = coerce(kind, raw);
    if (!r.ok) {
      issues.push({ loc: loc(name), msg: r.msg, type: r.type, input: raw });
      continue;
    }
    (options as unknown as Record<string, unknown>)[key] = r.value;
    wireName.set(key, name);
  }
  return { options, wireName };
}

function finish(
  options: ChunkingOptions,
  wireName: Map<keyof ChunkingOptions, string>,
  loc: (name: string) => (string | number)[],
  strategyLoc: (string | number)[],
  issues: ValidationIssue[],
): ChunkingOptions {
  if (issues.length === 0) {
    for (const p of validateOptions(options)) {
      const l = p.field === 'strategy' ? strategyLoc : loc(wireName.get(p.field) ?? p.field);
      issues.push({ loc: l, msg: p.msg, type: 'value_error' });
    }
  }
  if (issues.length) throw new ValidationError(issues);
  return options;
}

/**
 * Chunking options from the partition endpoint's multipart fields. Returns undefined when
 * `chunking_strategy` is absent or empty (no chunking). Strings are coerced as FastAPI would;
 * `unique_element_ids` is honoured for chunk ids. Throws ValidationError with loc ['body', field].
 */
export function parseChunkingForm(fields: Record<string, string[]>): ChunkingOptions | undefined {
  const first = (name: string): string | undefined => fields[name]?.find((v) => v !== '');
  const rawStrategy = first('chunking_strategy')?.trim();
  const loc = (name: string) => ['body', name];
  const issues: ValidationIssue[] = [];
  if (!rawStrategy) {
    // -- no chunking, but a chunking value sent is still checked (as FastAPI checks every form field):
    // -- max_characters=-5 or similarity_threshold=NaN is a 422 whether or not it would be used --
    const { options, wireName } = readFields('basic', first, loc, issues);
    finish(options, wireName, loc, ['body', 'chunking_strategy'], issues);
    return undefined;
  }
  const strategy = rawStrategy.toLowerCase() as ChunkingStrategy;
  if (!(CHUNKING_STRATEGIES as readonly string[]).includes(strategy)) {
    throw ValidationError.single(
      ['body', 'chunking_strategy'],
      `unrecognized chunking strategy '${rawStrategy}'; expected one of ${CHUNKING_STRATEGIES.join(', ')}`,
      'value_error',
      rawStrategy,
    );
  }
  const { options, wireName } = readFields(strategy, first, loc, issues);
  const unique = first('unique_element_ids');
  if (unique !== undefined) {
    const r = coerce('bool', unique);
    if (r.ok) options.unique_element_ids = r.value as boolean;
    else issues.push({ loc: loc('unique_element_ids'), msg: r.msg, type: r.type, input: unique });
  }
  return finish(options, wireName, loc, ['body', 'chunking_strategy'], issues);
}

/** Default for `include_orig_elements` on job nodes (the platform's node docs say false). */
export const NODE_INCLUDE_ORIG_ELEMENTS_DEFAULT = false;

/**
 * Chunking options for a `chunk` job node. `nodeLoc` locates the node in the request (for example
 * ['job_nodes', 2]); issues are reported at [...nodeLoc, 'settings', field] or [...nodeLoc, 'subtype'].
 * Settings values may be numbers/booleans or their string forms; unknown settings are ignored
 * (e.g. unstructured_api_url); contextual_chunking_* settings are contextual.ts's.
 */
export function parseChunkNode(subtype: string, settings: unknown, nodeLoc: (string | number)[] = []): ChunkingOptions {
  const strategy = CHUNK_NODE_SUBTYPES[subtype];
  if (!strategy) {
    throw ValidationError.single(
      [...nodeLoc, 'subtype'],
      `unsupported chunk node subtype '${subtype}'; expected one of ${Object.keys(CHUNK_NODE_SUBTYPES).join(', ')}`,
      'value_error',
      subtype,
    );
  }
  if (settings !== undefined && settings !== null && (typeof settings !== 'object' || Array.isArray(settings))) {
    throw ValidationError.single([...nodeLoc, 'settings'], 'Input should be a valid dictionary', 'dict_type', settings);
  }
  const s = (settings ?? {}) as Record<string, unknown>;
  const loc = (name: string) => [...nodeLoc, 'settings', name];
  const issues: ValidationIssue[] = [];
  const { options, wireName } = readFields(strategy, (n) => s[n], loc, issues);
  options.include_orig_elements ??= NODE_INCLUDE_ORIG_ELEMENTS_DEFAULT;
  return finish(options, wireName, loc, [...nodeLoc, 'subtype'], issues);
}
