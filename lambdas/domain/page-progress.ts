// Pages read of a job's file as its partition node goes (issue 31: a 76-page OCR job said nothing for
// four minutes): the engine reports each page (PartitionExtras.onProgress); this records the figures on
// the file's item at a bounded rate (job details read them) and writes a log line at a slower one.
// A write that fails is logged and dropped: progress never fails the file.
import { errorFields, log } from '../logger';
import type { Clock } from './ports';
import type { JobFiles } from './job-files';

/** The least time between two records of one file's pages (the last page is always recorded). */
export const PROGRESS_RECORD_MS = 2_000;
/** The least time between two progress log lines of one file. */
export const PROGRESS_LOG_MS = 15_000;

export interface PageProgressTarget {
  accountId: string;
  jobId: string;
  fileId: string;
  filename: string;
  /** 0 for a document read in one pass (its page count is the total); a page range's index + 1 otherwise. */
  part: number;
}

export function pageProgress(files: JobFiles, clock: Clock, t: PageProgressTarget): (done: number, total: number) => void {
  let recordedAt = 0;
  let loggedAt = clock.now().getTime();
  let writing: Promise<void> = Promise.resolve();
  return (done, total) => {
    const now = clock.now().getTime();
    if (done < total && now - recordedAt < PROGRESS_RECORD_MS) return;
    recordedAt = now;
    // -- a range's pages count towards the document's, recorded when it was split --
    const pagesTotal = t.part === 0 ? total : undefined;
    // -- one write at a time, in order: a slow store never sees an older figure after a newer one --
    writing = writing
      .then(() => files.pages(t.accountId, t.jobId, t.fileId, t.part, done, pagesTotal))
      .catch((err) => log.warn('file progress not recorded', { fileId: t.fileId, ...errorFields(err) }));
    if (now - loggedAt >= PROGRESS_LOG_MS) {
      loggedAt = now;
      log.info('file progress', { filename: t.filename, ...(t.part ? { range: t.part } : {}), pagesDone: done, pagesOf: total });
    }
  };
}
