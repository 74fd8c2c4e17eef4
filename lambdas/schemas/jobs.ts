// Job and template shapes (api-shapes.md §2, §3).
import { z } from 'zod';
import { shortString, templateIdString, uuidParam } from './common';
import { nameString, nodeIdString } from '../validation';
import { MAX_FIELD_BYTES } from '../http/multipart';
import { MAX_UPLOAD_BYTES } from '../domain/uploads';

export const JobStatus = z.enum(['SCHEDULED', 'IN_PROGRESS', 'COMPLETED', 'STOPPED', 'FAILED']);

/** A file being processed: its node and, for PDFs and multi-page images, the pages read so far. */
const FileProgress = z.object({
  file_id: z.string(),
  document: z.string().nullable(),
  node_name: z.string().nullable(),
  pages_done: z.number().int().nullable(),
  pages_total: z.number().int().nullable(),
  started_at: z.string().nullable(),
  estimated_seconds_left: z.number().int().nullable(),
});

export const JobInformation = z
  .object({
    id: z.uuid(),
    workflow_id: z.uuid(),
    workflow_name: z.string(),
    status: JobStatus,
    created_at: z.iso.datetime(),
    runtime: z.string().nullable(),
    input_file_ids: z.array(z.string()).nullable(),
    output_node_files: z
      .array(z.object({ node_id: z.string(), file_id: z.string(), node_type: z.string(), node_subtype: z.string() }))
      .nullable(),
    job_type: z.enum(['ephemeral', 'persistent', 'scheduled', 'template']),
    message: z.string().nullable().meta({ description: 'Extension: why the job failed or stopped, or what its files met (as job details say it).' }),
    files: z
      .object({ total: z.number().int(), done: z.number().int().optional(), failed: z.number().int().optional(), in_progress: z.number().int().optional() })
      .meta({ description: 'Extension: the job\'s files; done and failed once it has finished; for one running job (GET /api/v1/jobs/{job_id}) all four, live.' }),
    files_in_progress: z.array(FileProgress).optional().meta({ description: 'Extension (GET of one running job): the files being processed now, as job details lists them.' }),
  })
  .meta({ id: 'JobInformation' });

export const JobDetails = z
  .object({
    id: z.uuid(),
    processing_status: z.enum(['SCHEDULED', 'IN_PROGRESS', 'SUCCESS', 'COMPLETED_WITH_ERRORS', 'STOPPED', 'FAILED']),
    node_stats: z.array(
      z.object({
        node_name: z.string().nullable(),
        node_type: z.string().nullable(),
        node_subtype: z.string().nullable(),
        ready: z.number().int(),
        in_progress: z.number().int(),
        success: z.number().int(),
        failure: z.number().int(),
      }),
    ),
    message: z.string().nullable(),
    files: z
      .object({ total: z.number().int(), done: z.number().int(), failed: z.number().int(), in_progress: z.number().int() })
      .meta({ description: 'Extension: the job\'s files by state (done: every node succeeded), updated while the job runs.' }),
    files_in_progress: z
      .array(FileProgress)
      .meta({
        description:
          'Extension: the files being processed now (at most 50), the node each is at and, for PDFs and multi-page images, the pages read so far (page ranges of a split document add up as they finish) with an estimate from the pace so far.',
      }),
    warnings: z.array(z.string()).meta({
      description:
        'Extension: the offline stand-ins this job used instead of what a node asked for (a hosted embedding model or a VLM without credentials, run because the deployment sets ALLOW_OFFLINE_STANDINS=true), one per node; empty when none.',
    }),
    source_documents: z
      .object({
        listed: z.number().int(),
        processed: z.number().int(),
        unchanged_skipped: z.number().int(),
        gone_from_source: z.number().int(),
        removed: z.number().int(),
        removed_from_destination: z.number().int(),
        reprocess_all: z.boolean(),
        retried_from_earlier_runs: z.number().int().optional().meta({ description: 'Stream sources (kafka-cloud): documents an earlier run listed but did not deliver, processed again by this run.' }),
      })
      .optional()
      .meta({
        description:
          'Extension (workflow runs over a source): documents listed, processed (new or changed, or all with reprocess_all), skipped as unchanged since their last delivery, gone from the source since the last run, of those removed (forgotten), and removed from the destination (record stores; file destinations keep their files).',
      }),
  })
  .meta({ id: 'JobDetails' });

export const JobFailedFiles = z
  .object({ failed_files: z.array(z.object({ document: z.string(), error: z.string() })) })
  .meta({ id: 'JobFailedFiles' });

export const CancelResponse = z.object({ id: z.string(), status: z.string(), message: z.string() });

export const CreateJobForm = z
  .object({
    request_data: z
      .string()
      .max(MAX_FIELD_BYTES)
      .meta({ description: 'JSON text: {"job_nodes":[{name,type,subtype,settings}]} or {"template_id":"..."}. Every form field is at most 1 MiB; node settings at most 64 KiB each.' }),
    input_files: z.array(z.string().meta({ format: 'binary' })).optional(),
    input_upload_ids: z.array(z.string()).optional().meta({
      description: 'Extension: ids of presigned uploads (POST /api/v1/uploads/) for files above the 10 MB request cap; repeated parts or comma-joined',
    }),
  })
  .meta({ id: 'Body_create_job' });

export const CreateUploadBody = z
  .object({
    filename: nameString,
    content_type: z
      .string()
      .max(255)
      .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;[\x20-\x7e]*)?$/, {
        message: 'content_type must be a MIME type such as application/pdf',
      })
      .optional(),
    size: z.number().int().min(1).max(MAX_UPLOAD_BYTES).meta({
      description: "The file's exact size in bytes: the upload URL is signed for it, and the storage refuses a body of another length",
    }),
  })
  .meta({ id: 'CreateUploadRequest' });

export const UploadTicket = z
  .object({
    id: z.string(),
    filename: z.string(),
    content_type: z.string(),
    upload_url: z.string(),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()),
    expires_at: z.string(),
    max_bytes: z.number().int(),
    size: z.number().int(),
  })
  .meta({ id: 'UploadResponse' });

export const JobIdParams = z.object({ job_id: uuidParam });
/**
 * Status filter: any case (completed, COMPLETED). A free string on the platform: a value that is no
 * job status matches no job (an empty list), not a 422.
 */
const StatusFilter = shortString.transform((v) => v.toUpperCase()).meta({ examples: ['COMPLETED', 'in_progress'] });
export const JobListQuery = z.object({ workflow_id: uuidParam.optional(), status: StatusFilter.optional() });
/** The spec types `file_id` as a string: an id that is not one of the job's files is a 404, whatever its form. */
export const DownloadQuery = z.object({ file_id: z.string().min(1).max(200), node_id: nodeIdString.optional() });

export const TemplateNode = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  subtype: z.string(),
  settings: z.record(z.string(), z.unknown()).nullable(),
});
export const TemplateListItem = z
  .object({ id: z.string(), name: z.string(), description: z.string(), version: z.string(), last_updated: z.string() })
  .meta({ id: 'TemplateListItem' });
export const TemplateDetail = TemplateListItem.extend({ nodes: z.array(TemplateNode) }).meta({ id: 'TemplateDetail' });
export const TemplateIdParams = z.object({ template_id: templateIdString });
