// Chunking engine: the `chunk` job node and the partition endpoint's chunking parameters.
//
//   chunkElements(elements, options): Element[]            sync; by_similarity uses the built-in hashed embedder
//   chunkElementsAsync(elements, options, { embedder? })   same output; orig_elements compressed on the thread
//                                                          pool (use it in servers); by_similarity with any embedder
//   parseChunkingForm(fields) → ChunkingOptions | undefined (partition endpoint multipart fields)
//   parseChunkNode(subtype, settings, nodeLoc?) → ChunkingOptions (job node)
//
// Output follows the open-source library: CompositeElement chunks, Table kept whole when it fits,
// TableChunk pieces (with per-piece text_as_html, table_id, chunk_index) when not; consolidated
// metadata; `metadata.orig_elements` as base64 zlib JSON (default on, as in the library). Chunk ids
// are the library's hash ids (UUID4 with unique_element_ids). Invalid options throw ValidationError.
import { ValidationError } from '../../errors';
import { assignElementIds, type Element } from '../elements';
import { hashedEmbedding } from '../embedding/hashed';
import { chunkCore, chunkCoreAsync, type ChunkOutput, type ElementVectors } from './chunker';
import { attachOrigElements, attachOrigElementsAsync } from './orig-elements';
import { resolveOptions, validateOptions, type ChunkingOptions, type ResolvedOptions } from './options';

export { CHUNKING_STRATEGIES, DEFAULT_MAX_CHARACTERS, DEFAULT_SIMILARITY_THRESHOLD, validateOptions } from './options';
export type { ChunkingOptions, ChunkingStrategy } from './options';
export { parseChunkingForm, parseChunkNode, CHUNK_NODE_SUBTYPES, NODE_INCLUDE_ORIG_ELEMENTS_DEFAULT } from './params';
export { encodeOrigElements, decodeOrigElements } from './orig-elements';

/** What by_similarity needs from an embedder (structurally the embedding engine's Embedder). */
export interface TextEmbedder {
  embedTexts(texts: string[]): Promise<number[][]>;
}

function resolveOrThrow(options: ChunkingOptions): ResolvedOptions {
  const problems = validateOptions(options);
  if (problems.length) {
    throw new ValidationError(problems.map((p) => ({ loc: ['chunking', p.field], msg: p.msg, type: 'value_error' })));
  }
  return resolveOptions(options);
}

function finish({ chunks, sources }: ChunkOutput, o: ResolvedOptions): Element[] {
  if (o.includeOrigElements) attachOrigElements(chunks, sources);
  return assignElementIds(chunks, o.uniqueElementIds);
}

async function finishAsync({ chunks, sources }: ChunkOutput, o: ResolvedOptions): Promise<Element[]> {
  if (o.includeOrigElements) await attachOrigElementsAsync(chunks, sources);
  return assignElementIds(chunks, o.uniqueElementIds);
}

/** Chunks `elements` (not mutated). by_similarity uses the built-in deterministic hashed embedder. */
export function chunkElements(elements: readonly Element[], options: ChunkingOptions): Element[] {
  const o = resolveOrThrow(options);
  let vectors: ElementVectors | undefined;
  if (o.strategy === 'by_similarity') vectors = elements.map((e) => (e.text ? hashedEmbedding(e.text) : undefined));
  return finish(chunkCore(elements, o, vectors), o);
}

/**
 * As chunkElements, for servers: `orig_elements` are compressed off the main thread, and by_similarity
 * embeds element texts with `embedder` when one is given (else the built-in hashed embedder).
 */
export async function chunkElementsAsync(
  elements: readonly Element[],
  options: ChunkingOptions,
  deps: { embedder?: TextEmbedder } = {},
): Promise<Element[]> {
  const o = resolveOrThrow(options);
  if (o.strategy !== 'by_similarity' || !deps.embedder) {
    let vectors: ElementVectors | undefined;
    if (o.strategy === 'by_similarity') vectors = elements.map((e) => (e.text ? hashedEmbedding(e.text) : undefined));
    return finishAsync(await chunkCoreAsync(elements, o, vectors), o);
  }
  const idx: number[] = [];
  const texts: string[] = [];
  elements.forEach((e, i) => {
    if (e.text && e.text.trim()) {
      idx.push(i);
      texts.push(e.text);
    }
  });
  const vecs = texts.length ? await deps.embedder.embedTexts(texts) : [];
  const vectors: ElementVectors = new Array(elements.length).fill(undefined);
  idx.forEach((i, k) => (vectors[i] = vecs[k]));
  return finishAsync(await chunkCoreAsync(elements, o, vectors), o);
}
