// Incremental workflow runs: what a workflow last delivered of each source document, and the plan of
// a run (which listed documents to process, which to skip as unchanged, which left the source).
//
// A document's state is written only after its destination write succeeded (JobService.processFile),
// so a crashed or failed run leaves the documents it had not finished without state (or with their
// old version), and the next run processes exactly those again. A document that left the source keeps
// its state until the destination removal succeeded.
import type { BlobStore, KeyValueStore, StoredItem } from './ports';
import { ENTITY, keys } from '../data/keys';
import type { ConnectorRuntime, ListedDocument } from './connectors';
import { DomainError } from './errors';

/** What a workflow delivered of one source document. */
export interface SourceDocState {
  docKey: string;
  /** The version the source gave when the document was listed; absent when the source gives none. */
  version?: string;
  sourceId: string;
  destinationId?: string;
  lastJobId: string;
}

export interface RunPlan {
  /** Documents to process this run (new, changed, or all of them with reprocess_all). */
  process: ListedDocument[];
  /** Listed documents skipped because their version is the one last delivered. */
  unchanged: number;
  /** Documents delivered earlier that the source no longer lists. */
  removed: SourceDocState[];
}

/**
 * Decides a run. A listed document is skipped only when the state shows the same version delivered
 * from the same source to the same destination; a document without a version (the source gives
 * none) is always processed. Removals are only known from a complete listing: a listing cut at the
 * per-job cap says nothing about the documents after the cut, so nothing is removed then.
 */
export function planRun(
  listed: ListedDocument[],
  known: SourceDocState[],
  opts: { reprocessAll: boolean; sourceId: string; destinationId?: string; listingComplete: boolean },
): RunPlan {
  const byKey = new Map(known.map((s) => [s.docKey, s]));
  const process: ListedDocument[] = [];
  let unchanged = 0;
  for (const doc of listed) {
    const last = byKey.get(doc.key);
    const same =
      !opts.reprocessAll &&
      last !== undefined &&
      doc.version !== undefined &&
      last.version === doc.version &&
      last.sourceId === opts.sourceId &&
      (last.destinationId ?? null) === (opts.destinationId ?? null);
    if (same) unchanged++;
    else process.push(doc);
  }
  const present = new Set(listed.map((d) => d.key));
  const removed = opts.listingComplete ? known.filter((s) => !present.has(s.docKey)) : [];
  return { process, unchanged, removed };
}

/** The store side of source-document state (single table, one item per workflow and document). */
export class SourceStates {
  constructor(private readonly store: KeyValueStore) {}

  async load(accountId: string, workflowId: string): Promise<SourceDocState[]> {
    const items = await this.store.queryPrefix(keys.account(accountId), keys.sourceDocPrefix(workflowId));
    return items.map((i) => ({
      docKey: String(i.docKey),
      ...(typeof i.version === 'string' ? { version: i.version } : {}),
      sourceId: String(i.sourceId),
      ...(typeof i.destinationId === 'string' ? { destinationId: i.destinationId } : {}),
      lastJobId: String(i.lastJobId),
    }));
  }

  async get(accountId: string, workflowId: string, docKey: string): Promise<SourceDocState | undefined> {
    const i = await this.store.get(keys.sourceDoc(accountId, workflowId, docKey));
    return i ? { docKey, version: i.version as string | undefined, sourceId: String(i.sourceId), destinationId: i.destinationId as string | undefined, lastJobId: String(i.lastJobId) } : undefined;
  }

  /** Call only after the document's destination write succeeded. */
  async record(accountId: string, workflowId: string, state: SourceDocState, at: string): Promise<void> {
    const item: StoredItem = { ...keys.sourceDoc(accountId, workflowId, state.docKey), entity: ENTITY.sourceDoc, createdAt: at, workflowId };
    for (const [k, v] of Object.entries(state)) if (v !== undefined) item[k] = v;
    await this.store.put(item);
  }

  async forget(accountId: string, workflowId: string, docKey: string): Promise<void> {
    await this.store.delete(keys.sourceDoc(accountId, workflowId, docKey));
  }
}

/** Job item attributes of a source run (flat, so the removal counters can be atomic adds). */
export interface SourceRunFields {
  srcListed: number;
  srcUnchanged: number;
  srcToRemove: number;
  srcRemoved: number;
  srcRemovedFromDestination: number;
  reprocessAll: boolean;
}

/** The job-details view of a source run (an extra field of JobDetails: the platform has no such count). */
export function sourceDocumentsView(job: StoredItem, processed: number) {
  if (typeof job.srcListed !== 'number') return undefined;
  return {
    listed: job.srcListed,
    processed,
    unchanged_skipped: Number(job.srcUnchanged ?? 0),
    gone_from_source: Number(job.srcToRemove ?? 0),
    removed: Number(job.srcRemoved ?? 0),
    removed_from_destination: Number(job.srcRemovedFromDestination ?? 0),
    reprocess_all: Boolean(job.reprocessAll),
  };
}

const goneKey = (jobId: string) => `jobs/${jobId}/source-gone.json`;
/** Failure items of removals are told apart from file failures by this id prefix. */
export const REMOVAL_FAILURE_PREFIX = 'gone-';

/** Plans a workflow's source run at launch, and removes what left the source when the run ends. */
export class IncrementalRuns {
  readonly states: SourceStates;

  constructor(
    private readonly store: KeyValueStore,
    private readonly blobs: BlobStore,
    private readonly connectors: ConnectorRuntime,
  ) {
    this.states = new SourceStates(store);
  }

  /**
   * Lists the source (up to `cap` documents) and plans the run. The documents that left the source
   * go to the blob store (not the job item: the list can be long); the job item gets the counts.
   */
  async prepare(
    accountId: string,
    jobId: string,
    run: { workflowId: string; sourceId: string; destinationId?: string; reprocessAll: boolean },
    cap: number,
  ): Promise<{ process: ListedDocument[]; fields: SourceRunFields }> {
    const listed = await this.connectors.listSource(accountId, run.sourceId, cap + 1);
    const listingComplete = listed.length <= cap;
    const plan = planRun(listed.slice(0, cap), await this.states.load(accountId, run.workflowId), { ...run, listingComplete });
    if (plan.removed.length) await this.blobs.put(goneKey(jobId), JSON.stringify(plan.removed), 'application/json');
    return {
      process: plan.process,
      fields: {
        srcListed: Math.min(listed.length, cap),
        srcUnchanged: plan.unchanged,
        srcToRemove: plan.removed.length,
        srcRemoved: 0,
        srcRemovedFromDestination: 0,
        reprocessAll: run.reprocessAll,
      },
    };
  }

  /**
   * Removes the documents that left the source from the destination (where it can remove records),
   * then forgets them. Safe to run again: a document already forgotten is skipped, so nothing is
   * counted twice. A failed removal is a failed-files entry and keeps the state, so the next run tries
   * again.
   */
  async removeGone(accountId: string, job: StoredItem, recordFailure: (id: string, document: string, error: string) => Promise<void>): Promise<void> {
    if (!Number(job.srcToRemove ?? 0)) return;
    const jobId = String(job.id);
    const workflowId = String(job.workflowId);
    const raw = await this.blobs.get(goneKey(jobId));
    const gone = raw ? (JSON.parse(Buffer.from(raw).toString('utf8')) as SourceDocState[]) : [];
    for (const doc of gone) {
      const current = await this.states.get(accountId, workflowId, doc.docKey);
      if (!current || current.lastJobId !== doc.lastJobId) continue;
      let removedRecords: number | undefined;
      try {
        removedRecords = job.destinationId
          ? await this.connectors.removeDocument(accountId, String(job.destinationId), { sourceId: doc.sourceId, sourceKey: doc.docKey })
          : undefined;
      } catch (err) {
        const reason = err instanceof DomainError ? err.message : (err as Error)?.message ?? String(err);
        await recordFailure(REMOVAL_FAILURE_PREFIX + keys.sourceDoc(accountId, workflowId, doc.docKey).SK.split('#').pop()!, doc.docKey, `removing the document from the destination failed: ${reason}`);
        continue;
      }
      await this.states.forget(accountId, workflowId, doc.docKey);
      await this.store.update(keys.job(accountId, jobId), { add: { srcRemoved: 1, srcRemovedFromDestination: removedRecords === undefined ? 0 : 1 } });
    }
  }
}
