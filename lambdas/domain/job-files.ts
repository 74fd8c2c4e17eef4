// Per-file progress of a job: one item per (job, file) under the job's account partition, holding
// each node's state for that file ('running' | 'success' | 'failure', attributes n0, n1, ...) and
// the number of times processing of the file started.
//
// Why an item per file rather than counters on the job: an ADD +1/-1 counter is left off for good
// by a crash between the two writes (a node showed in_progress 2 after its job completed), and a
// success written after the output but before a crash was never counted again on resume. A state
// SET per file and node is idempotent: re-running a file after a crash writes the same states, so
// the figures of details() are exact after any crash and resume.
//
// Attempts are counted BEFORE a node runs, so a run that kills its process (Lambda crash, a local
// SIGKILL, an out-of-memory abort) still counts: the state machine's retries and the local
// recovery at start (local/recover.ts) can never resume a file into the same crash forever. The
// start after MAX_FILE_ATTEMPTS records the file as failed with the last known reason.
import { systemClock, type Clock, type KeyValueStore, type StoredItem } from './ports';
import { ENTITY, keys } from '../data/keys';
import type { JobNode } from './job-nodes';
import type { JobFile } from './job-manifest';
import { withoutServerPaths } from './server-paths';

/**
 * The job item's attribute holding node `i`'s substitution (an offline stand-in it used, see
 * node-runner.ts): one SET per node, so every file writes the same text (idempotent, bounded by the
 * node count, never growing with the files).
 */
export const substitutionAttr = (i: number) => `substitutionN${i}`;

/** The substitutions recorded on a job item, in node order: the job's `warnings`. */
export function jobWarnings(job: StoredItem): string[] {
  const nodes = (job.nodes as JobNode[] | undefined) ?? [];
  return nodes.map((_n, i) => job[substitutionAttr(i)]).filter((w): w is string => typeof w === 'string');
}

/** Starts of a file's processing before it is recorded as failed (the next start records it). */
export const MAX_FILE_ATTEMPTS = 3;

export type NodeState = 'running' | 'success' | 'failure';
export const nodeStateAttr = (i: number) => `n${i}`;

export interface NodeStats {
  ready: number;
  in_progress: number;
  success: number;
  failure: number;
}

/** failed-files entries that are warnings about a file that completed (not counted as failed files). */
export const WARNING_FAILURE_PREFIX = 'warn-';

export class JobFiles {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock = systemClock,
  ) {}

  /** A failed-files entry of the job (a file, or `id` naming another failure such as the source listing). */
  async putFailure(accountId: string, jobId: string, id: string, document: string, error: string): Promise<void> {
    // -- failed-files are read by the tenant: no server path, whatever a library's message quoted --
    await this.store.put({ ...keys.jobFailure(accountId, jobId, id), entity: ENTITY.jobFailure, createdAt: this.clock.now().toISOString(), document, error: withoutServerPaths(error) });
  }

  /** The file failed at node `nodeIndex`: listed in failed-files, and not run again in this job. */
  async recordFailure(accountId: string, jobId: string, file: JobFile, nodeIndex: number, error: string): Promise<void> {
    await this.putFailure(accountId, jobId, file.fileId, file.filename, error);
    await this.mark(accountId, jobId, file.fileId, nodeIndex, 'failure');
  }

  get(accountId: string, jobId: string, fileId: string): Promise<StoredItem | undefined> {
    return this.store.get(keys.jobFile(accountId, jobId, fileId));
  }

  /** Counts one more start of the file's processing and marks node `i` running; returns the item after. */
  begin(accountId: string, jobId: string, fileId: string, i: number, at: string, filename?: string): Promise<StoredItem> {
    return this.store.update(keys.jobFile(accountId, jobId, fileId), {
      upsert: true,
      add: { attempts: 1 },
      set: { entity: ENTITY.jobFile, fileId, [nodeStateAttr(i)]: 'running', runningNode: i, attemptStartedAt: at, ...(filename ? { filename } : {}) },
    });
  }

  /** Sets node `i`'s state for the file (idempotent). */
  async mark(accountId: string, jobId: string, fileId: string, i: number, state: NodeState): Promise<void> {
    await this.store.update(keys.jobFile(accountId, jobId, fileId), {
      upsert: true,
      set: { entity: ENTITY.jobFile, fileId, [nodeStateAttr(i)]: state },
    });
  }

  /**
   * Pages read so far of one part of the file (part 0: the whole document in one pass; part i: the
   * i-th page range of a split one), and the file's page count. One SET per part: a part run again
   * after a crash writes the same figures, so the sum over the parts stays exact.
   */
  async pages(accountId: string, jobId: string, fileId: string, part: number, done: number, total?: number): Promise<void> {
    await this.store.update(keys.jobFile(accountId, jobId, fileId), {
      upsert: true,
      set: { entity: ENTITY.jobFile, fileId, [pagesPartAttr(part)]: done, ...(total !== undefined ? { pagesTotal: total } : {}), progressAt: this.clock.now().toISOString() },
    });
  }

  /** The job's file items (node states, attempts, pages read), one query. */
  items(accountId: string, jobId: string): Promise<StoredItem[]> {
    return this.store.queryPrefix(keys.account(accountId), keys.jobFilePrefix(jobId));
  }

  /** Keeps the reason of a failed run, for the record when the attempts run out. */
  async noteError(accountId: string, jobId: string, fileId: string, message: string): Promise<void> {
    await this.store.update(keys.jobFile(accountId, jobId, fileId), { upsert: true, set: { entity: ENTITY.jobFile, fileId, lastError: withoutServerPaths(message).slice(0, 1000) } });
  }

  /**
   * Per node: files running, succeeded, failed and still to do. A file left 'running' by a crash of
   * a job that has ended (completed, failed, stopped) is no longer in progress: it counts as ready.
   */
  async stats(accountId: string, jobId: string, nodeCount: number, totalFiles: number, ended: boolean, known?: StoredItem[]): Promise<NodeStats[]> {
    const items = known ?? (await this.items(accountId, jobId));
    return Array.from({ length: nodeCount }, (_n, i) => {
      const count = (state: NodeState) => items.filter((it) => it[nodeStateAttr(i)] === state).length;
      const success = count('success');
      const failure = count('failure');
      const inProgress = ended ? 0 : count('running');
      return { ready: Math.max(0, totalFiles - success - failure - inProgress), in_progress: inProgress, success, failure };
    });
  }
}

export const pagesPartAttr = (part: number) => `pagesP${part}`;

/** At most this many files are listed with their progress in job details (the counts cover all). */
export const MAX_PROGRESS_FILES = 50;

export interface FileProgressView {
  file_id: string;
  document: string | null;
  node_name: string | null;
  pages_done: number | null;
  pages_total: number | null;
  started_at: string | null;
  /** From the pace so far (pages done in the time since the file started), when pages are known. */
  estimated_seconds_left: number | null;
}

/**
 * The job's files: done (every node succeeded), failed, in progress and total, and the files in
 * progress with the node they are at and the pages read (job details, the job's notifications).
 */
export function filesView(items: StoredItem[], nodes: JobNode[], total: number, failedFiles: number, ended: boolean, names: Map<string, string>, now: Date) {
  const last = nodes.length - 1;
  const done = items.filter((it) => it[nodeStateAttr(last)] === 'success').length;
  const running = ended ? [] : items.filter((it) => nodes.some((_n, i) => it[nodeStateAttr(i)] === 'running'));
  const progress: FileProgressView[] = running.slice(0, MAX_PROGRESS_FILES).map((it) => {
    const pages = pagesRead(it);
    const startedAt = typeof it.attemptStartedAt === 'string' ? it.attemptStartedAt : null;
    const elapsed = startedAt ? (now.getTime() - Date.parse(startedAt)) / 1000 : NaN;
    const left = pages.total !== undefined && pages.done > 0 && elapsed > 0 ? Math.round((elapsed / pages.done) * (pages.total - pages.done)) : null;
    return {
      file_id: String(it.fileId),
      document: typeof it.filename === 'string' ? it.filename : (names.get(String(it.fileId)) ?? null),
      node_name: nodes[currentNode(it, nodes.length)]?.name ?? null,
      pages_done: pages.total !== undefined || pages.done > 0 ? pages.done : null,
      pages_total: pages.total ?? null,
      started_at: startedAt,
      estimated_seconds_left: left,
    };
  });
  return { files: { total, done, failed: failedFiles, in_progress: running.length }, files_in_progress: progress };
}

/** Pages read of a file item: the sum over its parts (ranges), and its page count when known. */
export function pagesRead(item: StoredItem): { done: number; total?: number } {
  let done = 0;
  for (const [k, v] of Object.entries(item)) if (k.startsWith('pagesP') && typeof v === 'number') done += v;
  const total = typeof item.pagesTotal === 'number' ? item.pagesTotal : undefined;
  return { done: total !== undefined ? Math.min(done, total) : done, ...(total !== undefined ? { total } : {}) };
}

/** The node a file was at: the one marked running, else the first that has not succeeded. */
export function currentNode(item: StoredItem | undefined, nodeCount: number): number {
  if (typeof item?.runningNode === 'number' && item[nodeStateAttr(item.runningNode)] === 'running') return item.runningNode;
  for (let i = 0; i < nodeCount; i++) if (item?.[nodeStateAttr(i)] !== 'success') return i;
  return Math.max(0, nodeCount - 1);
}

/** The reason recorded for a file whose processing kept crashing. */
export function crashReason(item: StoredItem, nodes: JobNode[]): string {
  const crashes = Number(item.attempts ?? 1) - 1;
  const node = nodes[currentNode(item, nodes.length)];
  const last = typeof item.lastError === 'string' && item.lastError
    ? item.lastError
    : `the process stopped while node ${node ? `"${node.name}"` : '?'} was running (attempt started ${String(item.attemptStartedAt ?? 'at an unknown time')})`;
  return `processing crashed ${crashes} times: ${last}`;
}
