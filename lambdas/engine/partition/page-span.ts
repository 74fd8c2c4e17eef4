// The pages a multi-page partitioner (PDF, TIFF) reads of a document, for the job's page fan-out
// (domain/job-pages.ts): the whole document, a job's page range (PartitionExtras.pages), or none when
// the document is above the job's split threshold (splitAbove: only its page count is reported).
import type { FormatContext } from './types';

export interface PageSpan {
  /** 1-based, inclusive: page numbers stay the document's. */
  first: number;
  last: number;
  /** A job's page range: bounded by the range size, so a one-pass page cap does not apply. */
  inRange: boolean;
}

/** Reports the page count, then the pages to read, or undefined when the job splits the document (read nothing). */
export function pageSpan(ctx: FormatContext, pageCount: number): PageSpan | undefined {
  ctx.notePageCount?.(pageCount);
  if (ctx.splitAbove !== undefined && pageCount > ctx.splitAbove) return undefined;
  const range = ctx.pages;
  return { first: Math.max(1, range?.first ?? 1), last: Math.min(pageCount, range?.last ?? pageCount), inRange: range !== undefined };
}
