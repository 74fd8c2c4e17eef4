// Runs one job node on one file with the processing engines. Imported only by the job-step
// handler, so API Lambdas do not bundle the engines.
//
// Substitutions (no silent stand-ins): when a hosted model is replaced by an offline stand-in (the
// deployment allows it: ALLOW_OFFLINE_STANDINS), the node's result names it, so the job records it
// for its details and notification; the elements carry their own note. Without that permission the
// node refuses (a 4xx: the file fails with the reason), as create already did.
import { partition, sandboxSettings } from '../engine/partition/index';
import { postProcess } from '../engine/partition/post-process';
import { gunzippedName, isGzip } from '../engine/partition/detect';
import type { FileType } from '../engine/partition/types';
import { parsePartitionForm } from '../engine/partition/params';
import { VLM_OFFLINE_CHOICE, vlmCredentialProblem } from '../engine/partition/vlm/credentials';
import { chunkElementsAsync, parseChunkNode } from '../engine/chunking/index';
import { contextualizeChunks, parseContextualChunking } from '../engine/chunking/contextual';
import { createEmbedder, embedElements, parseEmbedNode } from '../engine/embedding/index';
import { enrichElements, parsePrompterNode } from '../engine/enrichment/index';
import type { Element } from '../engine/elements';
import { offlineStandInsAllowed } from '../config';
import { ValidationError } from '../errors';
import { partitionFields, type JobNode } from './job-nodes';
import { pageRanges, pagesPerRange, type PageEngine, type PagePlan } from './job-pages';

/** What a node works on: the raw document for the first node, elements after. */
export type NodeInputData = { document: { data: Uint8Array; filename: string; contentType?: string } } | { elements: Element[] };

/** A node's output, and the stand-in it used instead of what the node asked for, if any (no secrets). */
export interface NodeResult {
  elements: Element[];
  substitution?: string;
  /** This file's elements that did not get what the node does (kept their text): a failed-files entry. */
  fileWarning?: string;
  /** A PDF or TIFF above the page threshold, not partitioned: the job partitions these ranges (job-pages.ts). */
  pages?: PagePlan;
}

/** What the job asks of a node besides running it. */
export interface NodeRunOptions {
  /** A partition node may leave a long PDF or TIFF to the job's page fan-out instead of partitioning it. */
  fanOut?: boolean;
  /** Aborted when the job stops: a partition running in the sandbox is killed. */
  signal?: AbortSignal;
  /** The job's account: the partition sandbox serves accounts in turn. */
  tenant?: string;
  /** Pages read so far of a partition node's document (PartitionExtras.onProgress). */
  onProgress?: (pagesDone: number, pagesTotal: number) => void;
}

/**
 * The stand-in a VLM partition used, said as the job's warning: only when the engine really fell
 * back (it notes every element it stood in for; a text file never needed the model).
 */
function vlmSubstitution(node: JobNode, vlmProblem: string | undefined, elements: Element[]): string | undefined {
  const fellBack = vlmProblem !== undefined && elements.some((e) => typeof e.metadata.partitioner_note === 'string');
  return fellBack ? `${label(node)}: ${vlmProblem}; local text layer and OCR stand-in used` : undefined;
}

/** Runs one node. Engine errors for bad documents surface as DomainErrors (4xx), others as-is. */
export type NodeRunner = typeof runNode;

const label = (node: JobNode) => `${node.type} node "${node.name}" (${node.id})`;

export async function runNode(
  node: JobNode,
  input: NodeInputData,
  warn: (msg: string) => void,
  env: Record<string, string | undefined> = process.env,
  run: NodeRunOptions = {},
): Promise<NodeResult> {
  switch (node.type) {
    case 'partition': {
      if (!('document' in input)) throw new Error('a partition node needs the input document');
      const parsed = parsePartitionForm(partitionFields(node));
      const vlmProblem = parsed.options.strategy === 'vlm' ? vlmCredentialProblem(parsed.options.vlm, env) : undefined;
      if (vlmProblem && !offlineStandInsAllowed('vlm', env)) throw ValidationError.single(['settings', 'provider'], `${vlmProblem}; ${VLM_OFFLINE_CHOICE}`, 'missing');
      // a long PDF or multi-page TIFF, gzipped or not (each range then inflates the upload again), is split
      const splitAbove = run.fanOut ? pagesPerRange(parsed.options.strategy, env) : undefined;
      // in the partition sandbox with the job's time budget (PARTITION_JOB_TIMEOUT_S): a bomb fails this file with a 4xx
      const result = await partition(input.document, parsed.options, {
        gzUncompressedContentType: parsed.gzUncompressedContentType,
        timeoutSeconds: sandboxSettings().jobTimeoutS,
        ...(splitAbove ? { splitAbove } : {}),
        ...(run.signal ? { signal: run.signal } : {}),
        ...(run.tenant ? { tenant: run.tenant } : {}),
        ...(run.onProgress ? { onProgress: run.onProgress } : {}),
      });
      if (splitAbove && result.pageCount !== undefined && result.pageCount > splitAbove) {
        return { elements: [], pages: { pageCount: result.pageCount, ranges: pageRanges(result.pageCount, splitAbove) } };
      }
      result.warnings.forEach(warn);
      const substitution = vlmSubstitution(node, vlmProblem, result.elements);
      return { elements: result.elements, ...(substitution ? { substitution } : {}) };
    }
    case 'prompter': {
      if (!('elements' in input)) throw new Error('a prompter node needs elements');
      // elements that kept their text are a warning of the job (details, notification), as a stand-in is
      const r = await enrichElements(input.elements, parsePrompterNode(node.subtype, node.settings), env);
      const said = r.standIn ?? r.warning;
      return { elements: r.elements, ...(said ? { substitution: `${label(node)}: ${said}` } : {}), ...(r.warning ? { fileWarning: `${label(node)}: ${r.warning}` } : {}) };
    }
    case 'chunk': {
      if (!('elements' in input)) throw new Error('a chunk node needs elements');
      const chunks = await chunkElementsAsync(input.elements, parseChunkNode(node.subtype, node.settings));
      const contextual = parseContextualChunking(node.settings);
      const said = contextual ? (await contextualizeChunks(chunks, contextual, env)).warning : undefined;
      return { elements: chunks, ...(said ? { substitution: `${label(node)}: ${said}`, fileWarning: `${label(node)}: ${said}` } : {}) };
    }
    case 'embed': {
      if (!('elements' in input)) throw new Error('an embed node needs elements');
      const embedder = await createEmbedder(parseEmbedNode(node.subtype, node.settings), env, { onWarning: warn });
      const elements = await embedElements(input.elements, embedder);
      return { elements, ...(embedder.standIn ? { substitution: `${label(node)}: ${embedder.standIn.warning}` } : {}) };
    }
  }
}

/** The engine side of the page fan-out (job-pages.ts): a range partitioned raw, and the merge. */
export const pageEngine: PageEngine = {
  async partitionRange(node, document, range, signal, tenant, onProgress) {
    const parsed = parsePartitionForm(partitionFields(node));
    // (ProcessFile refused a VLM node without credentials before the split unless stand-ins are allowed)
    const vlmProblem = parsed.options.strategy === 'vlm' ? vlmCredentialProblem(parsed.options.vlm, process.env) : undefined;
    const result = await partition(document, parsed.options, {
      gzUncompressedContentType: parsed.gzUncompressedContentType,
      timeoutSeconds: sandboxSettings().jobTimeoutS,
      pages: { first: range.first, last: range.last },
      raw: true,
      ...(signal ? { signal } : {}),
      ...(tenant ? { tenant } : {}),
      ...(onProgress ? { onProgress } : {}),
    });
    const substitution = vlmSubstitution(node, vlmProblem, result.elements);
    // elements are named as the pipeline named the document (a gzip's content: without .gz)
    const filename = isGzip(document.data) ? gunzippedName(document.filename) : document.filename;
    return { part: { elements: result.elements, filetype: result.filetype, filename }, ...(substitution ? { substitution } : {}) };
  },
  merge(node, parts, filename) {
    const parsed = parsePartitionForm(partitionFields(node));
    // provisional ids come from each range's own process: made distinct per range, parent links kept
    const all: Element[] = [];
    parts.forEach((part, r) => {
      for (const el of part.elements) {
        el.element_id = `r${r}-${el.element_id}`;
        if (el.metadata.parent_id !== undefined) el.metadata.parent_id = `r${r}-${el.metadata.parent_id}`;
        all.push(el);
      }
    });
    return postProcess(all, parts[0]?.filename ?? filename, (parts[0]?.filetype ?? 'pdf') as FileType, parsed.options);
  },
};
