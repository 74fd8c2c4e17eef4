// Runs one job node on one file with the processing engines. Imported only by the job-step
// handler, so API Lambdas do not bundle the engines.
import { partition, sandboxSettings } from '../engine/partition/index';
import { parsePartitionForm } from '../engine/partition/params';
import { chunkElementsAsync, parseChunkNode } from '../engine/chunking/index';
import { createEmbedder, embedElements, parseEmbedNode } from '../engine/embedding/index';
import type { Element } from '../engine/elements';
import { partitionFields, type JobNode } from './job-nodes';

/** What a node works on: the raw document for the first node, elements after. */
export type NodeInputData = { document: { data: Uint8Array; filename: string; contentType?: string } } | { elements: Element[] };

/** Runs one node. Engine errors for bad documents surface as DomainErrors (4xx), others as-is. */
export type NodeRunner = typeof runNode;

export async function runNode(node: JobNode, input: NodeInputData, warn: (msg: string) => void): Promise<Element[]> {
  switch (node.type) {
    case 'partition': {
      if (!('document' in input)) throw new Error('a partition node needs the input document');
      const parsed = parsePartitionForm(partitionFields(node));
      // in the partition sandbox with the job's time budget (PARTITION_JOB_TIMEOUT_S): a bomb fails this file with a 4xx
      const result = await partition(input.document, parsed.options, {
        gzUncompressedContentType: parsed.gzUncompressedContentType,
        timeoutSeconds: sandboxSettings().jobTimeoutS,
      });
      result.warnings.forEach(warn);
      return result.elements;
    }
    case 'chunk': {
      if (!('elements' in input)) throw new Error('a chunk node needs elements');
      return chunkElementsAsync(input.elements, parseChunkNode(node.subtype, node.settings));
    }
    case 'embed': {
      if (!('elements' in input)) throw new Error('an embed node needs elements');
      const embedder = await createEmbedder(parseEmbedNode(node.subtype, node.settings), process.env, { onWarning: warn });
      return embedElements(input.elements, embedder);
    }
  }
}
