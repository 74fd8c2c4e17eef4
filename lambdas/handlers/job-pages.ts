// The page fan-out tasks of the job state machine (statemachines/job.asl.json PartitionPages and
// MergePages; domain/job-pages.ts): one page range of a long PDF or TIFF partitioned raw into S3, and
// the merge of a file's ranges into the partition node's output. They bundle the engine, as job-process.
import { jobPages } from '../services/jobs';
import { pageEngine } from '../domain/node-runner';
import type { MergeInput, RangeInput } from '../domain/job-pages';
import { jobStep } from './job-log';

export const partitionPageRange = jobStep('partitionPageRange', (input: RangeInput) => jobPages(pageEngine).partitionRange(input));
export const mergePages = jobStep('mergePages', (input: MergeInput) => jobPages(pageEngine).merge(input));
