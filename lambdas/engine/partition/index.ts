// The partition engine's entry point. partition() runs the pipeline (pipeline.ts) in the partition
// sandbox (sandbox.ts): a worker thread with a memory and time budget, so a document bomb fails that
// document with a 4xx and never the process. This module loads none of the format readers itself:
// they load in the sandbox workers (on Lambda they are bundled into partition-worker.mjs).
import { partitionInSandbox } from './sandbox';
import type { Element } from '../elements';
import type { PartitionExtras, PartitionInput, PartitionJsonResult, PartitionOptions, PartitionResult } from './types';

export { detectFileType } from './detect';
export { elementsToCsv } from './output';
export { parsePartitionForm } from './params';
export { MAX_GUNZIP_BYTES } from './limits';
export { sandboxSettings, shutdownPartitionSandbox, warmPartitionSandbox } from './sandbox';
export type { PartitionExtras, PartitionInput, PartitionJsonResult, PartitionOptions, PartitionResult } from './types';

/** Partitions one document in a sandbox worker. Used by the sync endpoint and the job's partition node. */
export async function partition(input: PartitionInput, options?: Partial<PartitionOptions>, extras: PartitionExtras = {}): Promise<PartitionResult> {
  const { elementsJson, ...rest } = await partitionInSandbox(input, options, extras);
  return { elements: JSON.parse(Buffer.from(elementsJson.buffer, elementsJson.byteOffset, elementsJson.byteLength).toString('utf8')) as Element[], ...rest };
}

/**
 * As partition(), with the elements left as the sandbox's JSON text (`JSON.stringify` of the array,
 * UTF-8): the sync endpoint's plain JSON answer is that text, so it is never parsed and rebuilt.
 */
export function partitionToJson(input: PartitionInput, options?: Partial<PartitionOptions>, extras: PartitionExtras = {}): Promise<PartitionJsonResult> {
  return partitionInSandbox(input, options, extras);
}
