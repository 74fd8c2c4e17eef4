// Chunking options: the wire-level parameters (snake_case, as on the partition endpoint and in chunk
// node settings) and their resolution into the effective limits the chunker uses. Defaults and
// validation rules follow the open-source `unstructured` library (chunking/base.py, title.py).

export const CHUNKING_STRATEGIES = ['basic', 'by_title', 'by_page', 'by_similarity'] as const;
export type ChunkingStrategy = (typeof CHUNKING_STRATEGIES)[number];

/** Hard maximum chunk length when `max_characters` is not given (library CHUNK_MAX_CHARS_DEFAULT). */
export const DEFAULT_MAX_CHARACTERS = 500;
/** Default `similarity_threshold` for by_similarity (platform documents a 0.0..1.0 range). */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.5;
/** Upper bound of every size parameter (a 50 MB text in five chunks): keeps numbers sane (1e308 is refused). */
export const MAX_SIZE_PARAMETER = 10_000_000;
/**
 * Most chunks one document may give. A 1,000-page book at the default 500 characters gives ~6,000, a
 * 50 MB text at 500 about 100,000; `max_characters=1` on 1 MB of text would give a million chunk
 * objects (seconds of CPU, a response too large to build). Beyond it: 422 asking for a larger window.
 */
export const MAX_CHUNKS_PER_DOCUMENT = 100_000;

export interface ChunkingOptions {
  strategy: ChunkingStrategy;
  /** Hard maximum chunk length in characters (default 500). */
  max_characters?: number;
  /** Soft maximum: a chunk this long is closed (default = max_characters). */
  new_after_n_chars?: number;
  /** Characters of tail repeated at the head of the next chunk (text-split chunks; all with overlap_all). */
  overlap?: number;
  overlap_all?: boolean;
  /** by_title: combine small sections while the first is shorter than this (default max_characters, capped at soft max). */
  combine_text_under_n_chars?: number;
  /** by_title: sections may span pages (default true). */
  multipage_sections?: boolean;
  /** Add `metadata.orig_elements` (zlib+base64 JSON of the source elements) to each chunk (default true). */
  include_orig_elements?: boolean;
  /** by_similarity: start a new chunk when cosine similarity to the current chunk drops below this (default 0.5). */
  similarity_threshold?: number;
  /** by_page / by_title: repeat leading header rows of a split table in each TableChunk (default true, as in the library). */
  repeat_table_headers?: boolean;
  /** Chunk ids: UUID4 when true; otherwise the library's hash ids over (filename, text, page, index on page). */
  unique_element_ids?: boolean;
}

/** Effective, validated limits derived from ChunkingOptions. */
export interface ResolvedOptions {
  strategy: ChunkingStrategy;
  hardMax: number;
  softMax: number;
  overlap: number;
  interChunkOverlap: number;
  combineUnder: number;
  multipageSections: boolean;
  includeOrigElements: boolean;
  similarityThreshold: number;
  repeatTableHeaders: boolean;
  uniqueElementIds: boolean;
  /** Most chunks one document may give (MAX_CHUNKS_PER_DOCUMENT). */
  maxChunks: number;
}

/** A problem with one option, keyed by its wire name. Callers turn these into 422 issues. */
export interface OptionProblem {
  field: keyof ChunkingOptions;
  msg: string;
}

/** Checks the option set; returns every problem found (empty when valid). */
export function validateOptions(o: ChunkingOptions): OptionProblem[] {
  const problems: OptionProblem[] = [];
  if (!(CHUNKING_STRATEGIES as readonly string[]).includes(o.strategy)) {
    problems.push({ field: 'strategy', msg: `unrecognized chunking strategy '${String(o.strategy)}'; expected one of ${CHUNKING_STRATEGIES.join(', ')}` });
    return problems;
  }
  const ints: (keyof ChunkingOptions)[] = ['max_characters', 'new_after_n_chars', 'overlap', 'combine_text_under_n_chars'];
  for (const f of ints) {
    const v = o[f];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) problems.push({ field: f, msg: `'${f}' must be an integer` });
    else if (v > MAX_SIZE_PARAMETER) problems.push({ field: f, msg: `'${f}' argument must be <= ${MAX_SIZE_PARAMETER}, got ${v}` });
  }
  if (problems.length) return problems;
  const max = o.max_characters ?? DEFAULT_MAX_CHARACTERS;
  if (max <= 0) problems.push({ field: 'max_characters', msg: `'max_characters' argument must be > 0, got ${max}` });
  if (o.new_after_n_chars !== undefined && o.new_after_n_chars < 0) {
    problems.push({ field: 'new_after_n_chars', msg: `'new_after_n_chars' argument must be >= 0, got ${o.new_after_n_chars}` });
  }
  const overlap = o.overlap ?? 0;
  if (overlap < 0) problems.push({ field: 'overlap', msg: `'overlap' argument must be >= 0, got ${overlap}` });
  else if (max > 0 && overlap >= max) {
    problems.push({ field: 'overlap', msg: `'overlap' argument must be less than 'max_characters', got ${overlap} >= ${max}` });
  }
  const combine = o.combine_text_under_n_chars;
  if (combine !== undefined && o.strategy === 'by_title') {
    if (combine < 0) problems.push({ field: 'combine_text_under_n_chars', msg: `'combine_text_under_n_chars' argument must be >= 0, got ${combine}` });
    else if (max > 0 && combine > max) {
      problems.push({ field: 'combine_text_under_n_chars', msg: `'combine_text_under_n_chars' argument must not exceed 'max_characters' value, got ${combine} > ${max}` });
    }
  }
  // -- (0, 1]: a cosine similarity threshold of 0 or below never starts a new chunk on similarity --
  const t = o.similarity_threshold;
  if (t !== undefined && (typeof t !== 'number' || !Number.isFinite(t) || t <= 0 || t > 1)) {
    problems.push({ field: 'similarity_threshold', msg: `'similarity_threshold' must be greater than 0.0 and at most 1.0, got ${String(t)}` });
  }
  return problems;
}

/** Resolves defaults. Call `validateOptions` first; this assumes a valid set. */
export function resolveOptions(o: ChunkingOptions): ResolvedOptions {
  const hardMax = o.max_characters ?? DEFAULT_MAX_CHARACTERS;
  const naf = o.new_after_n_chars;
  const softMax = naf === undefined || naf > hardMax ? hardMax : naf;
  const overlap = o.overlap ?? 0;
  let combineUnder = 0;
  if (o.strategy === 'by_title') {
    const arg = o.combine_text_under_n_chars ?? hardMax;
    combineUnder = arg > softMax ? softMax : arg;
  }
  return {
    strategy: o.strategy,
    hardMax,
    softMax,
    overlap,
    interChunkOverlap: o.overlap_all ? overlap : 0,
    combineUnder,
    multipageSections: o.multipage_sections ?? true,
    includeOrigElements: o.include_orig_elements ?? true,
    similarityThreshold: o.similarity_threshold ?? DEFAULT_SIMILARITY_THRESHOLD,
    repeatTableHeaders: o.repeat_table_headers ?? true,
    uniqueElementIds: o.unique_element_ids ?? false,
    maxChunks: MAX_CHUNKS_PER_DOCUMENT,
  };
}
