// The log scope of job work: each job step handler runs in withLogContext with the job's id and the
// file's (when the step is about one file), so every line written during the step carries job_id /
// file_id; one line per finished step (debug when it starts, warn when it fails) with its duration.
import { errorFields, log, withLogContext } from '../logger';

interface JobStepInput {
  jobId: string;
  fileId?: string;
  file?: { fileId: string };
  range?: { first: number; last: number };
}

export function jobStep<I extends JobStepInput, R>(step: string, fn: (input: I) => Promise<R>): (input: I) => Promise<R> {
  return (input) =>
    withLogContext({ job_id: input.jobId, file_id: input.file?.fileId ?? input.fileId, pages: input.range ? `${input.range.first}-${input.range.last}` : undefined }, async () => {
      const started = Date.now();
      log.debug('job step started', { step });
      try {
        const out = await fn(input);
        log.info('job step done', { step, ms: Date.now() - started });
        return out;
      } catch (err) {
        log.warn('job step failed', { step, ms: Date.now() - started, ...errorFields(err) });
        throw err;
      }
    });
}
