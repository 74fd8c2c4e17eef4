// Incremental workflow runs: what a workflow last delivered of each source document, and the plan of
// a run (which listed documents to process, which to skip as unchanged, which left the source).
//
// A document's state is written only after its destination write succeeded (JobService.processFile),
// so a crashed or failed run leaves the documents it had not finished without state (or with their
// old version), and the next run processes exactly those again. A document that left the source keeps
// its state until the destination removal succeeded.
import type { BlobStore, KeyValueStore, StoredItem } from './ports';
import { ENTITY, keys } from '../data/keys';
import { forEachLimited } from '../concurrency';
import type { ConnectorRuntime, ListedDocument } from './connectors';
import { ConnectorFailure, DomainError } from '../errors';
import { fileOfDocument, jobFiles, writeManifest, type JobFile, type ManifestSummary } from './job-manifest';
import { StreamRetries } from './stream-retries';

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
 * Decides a run document by document, as the listing streams in. A listed document is skipped only
 * when the state shows the same version delivered from the same source to the same destination; a
 * document without a version (the source gives none) is always processed; a key listed twice (a
 * source repeating a page) counts once. Removals are known only once the listing is complete.
 */
export class RunPlanner {
  private readonly byKey: Map<string, SourceDocState>;
  private readonly seen = new Set<string>();
  unchanged = 0;

  constructor(
    private readonly known: SourceDocState[],
    private readonly opts: { reprocessAll: boolean; sourceId: string; destinationId?: string },
  ) {
    this.byKey = new Map(known.map((s) => [s.docKey, s]));
  }

  /** Distinct documents listed so far. */
  get listed(): number {
    return this.seen.size;
  }

  /** 'process', 'skip' (unchanged) or 'repeat' (already listed in this run). */
  decide(doc: ListedDocument): 'process' | 'skip' | 'repeat' {
    if (this.seen.has(doc.key)) return 'repeat';
    this.seen.add(doc.key);
    const last = this.byKey.get(doc.key);
    const same =
      !this.opts.reprocessAll &&
      last !== undefined &&
      doc.version !== undefined &&
      last.version === doc.version &&
      last.sourceId === this.opts.sourceId &&
      (last.destinationId ?? null) === (this.opts.destinationId ?? null);
    if (same) this.unchanged++;
    return same ? 'skip' : 'process';
  }

  /** Documents delivered earlier that the complete listing no longer names. */
  gone(): SourceDocState[] {
    return this.known.filter((s) => !this.seen.has(s.docKey));
  }
}

/** The plan of a whole listing at once (RunPlanner over an array). */
export function planRun(
  listed: ListedDocument[],
  known: SourceDocState[],
  opts: { reprocessAll: boolean; sourceId: string; destinationId?: string; listingComplete: boolean },
): RunPlan {
  const planner = new RunPlanner(known, opts);
  const process = listed.filter((doc) => planner.decide(doc) === 'process');
  return { process, unchanged: planner.unchanged, removed: opts.listingComplete ? planner.gone() : [] };
}

/** The store side of source-document state (single table, one item per workflow and document). */
export class SourceStates {
  constructor(private readonly store: KeyValueStore) {}

  async load(accountId: string, workflowId: string): Promise<SourceDocState[]> {
    const items = (await this.store.queryPrefix(keys.account(accountId), keys.sourceDocPrefix(workflowId))).filter((i) => i.entity !== ENTITY.sourceRetry);
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

  /**
   * Forgets the documents of a deleted workflow page by page, until none is left or the budget is
   * spent (a workflow can hold hundreds of thousands: the API request must not wait for them all).
   */
  async clear(accountId: string, workflowId: string, budgetMs = Infinity): Promise<{ deleted: number; done: boolean }> {
    const deadline = Date.now() + budgetMs;
    let deleted = 0;
    for (;;) {
      const page = await this.store.queryPrefix(keys.account(accountId), keys.sourceDocPrefix(workflowId), { limit: CLEAR_PAGE });
      if (!page.length) return { deleted, done: true };
      await forEachLimited(page, CLEAR_CONCURRENCY, async (it) => {
        await this.store.delete({ PK: it.PK, SK: it.SK });
      });
      deleted += page.length;
      if (Date.now() >= deadline) return { deleted, done: false };
    }
  }

  /**
   * A workflow was deleted: a clean-up marker is written first, then its state is forgotten for up to
   * `budgetMs`; what is left is forgotten by sweep() (the one-minute tick), which drops the marker
   * once the workflow's state is gone. A crash in between leaves the marker, never orphaned state.
   */
  async forgetWorkflow(accountId: string, workflowId: string, at: string, budgetMs: number): Promise<{ deleted: number; done: boolean }> {
    const marker = keys.stateCleanup(accountId, workflowId);
    await this.store.put({ ...marker, entity: ENTITY.stateCleanup, accountId, workflowId, createdAt: at });
    const r = await this.clear(accountId, workflowId, budgetMs);
    if (r.done) await this.store.delete(marker);
    return r;
  }

  /** Continues the clean-ups of deleted workflows for up to `budgetMs`; returns the states forgotten. */
  async sweep(budgetMs: number): Promise<{ deleted: number; pending: number }> {
    const deadline = Date.now() + budgetMs;
    const markers = await this.store.queryPrefix(keys.stateCleanupPartition, '', { limit: 100 });
    let deleted = 0;
    let pending = markers.length;
    for (const m of markers) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const r = await this.clear(String(m.accountId), String(m.workflowId), left);
      deleted += r.deleted;
      if (!r.done) break;
      await this.store.delete({ PK: m.PK, SK: m.SK });
      pending--;
    }
    return { deleted, pending };
  }
}

const CLEAR_PAGE = 500;
const CLEAR_CONCURRENCY = 16;

/** Job item attributes of a source run (flat, so the removal counters can be atomic adds). */
export interface SourceRunFields {
  srcListed: number;
  srcUnchanged: number;
  srcToRemove: number;
  srcRemoved: number;
  srcRemovedFromDestination: number;
  reprocessAll: boolean;
  /** Stream sources: documents kept from earlier runs processed again, and where to resume after this run. */
  srcStream?: true;
  srcRetried?: number;
  srcCheckpoint?: Record<string, unknown>;
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
    ...(job.srcStream === true ? { retried_from_earlier_runs: Number(job.srcRetried ?? 0) } : {}),
  };
}

const goneKey = (jobId: string) => `jobs/${jobId}/source-gone.jsonl`;
/** Failure items of removals are told apart from file failures by this id prefix. */
export const REMOVAL_FAILURE_PREFIX = 'gone-';
/** The failure item saying a stream source was not acknowledged (not a file: not counted as one). */
export const SOURCE_ACK_FAILURE_ID = 'source-ack';

/** A run that lists more documents than this fails (a source paging without end). */
export const DEFAULT_MAX_SOURCE_DOCUMENTS = 1_000_000;

/** Plans a workflow's source run at launch, and removes what left the source when the run ends. */
export class IncrementalRuns {
  readonly states: SourceStates;
  readonly retries: StreamRetries;

  constructor(
    private readonly store: KeyValueStore,
    private readonly blobs: BlobStore,
    private readonly connectors: ConnectorRuntime,
  ) {
    this.states = new SourceStates(store);
    this.retries = new StreamRetries(store);
  }

  /**
   * Lists the whole source, streaming the documents to process into the job's manifest (S3), and
   * the documents that left the source into a second object (the list can be long); returns the
   * manifest summary and counts for the job item. A listing that fails fails the plan: nothing is
   * processed nor removed, every document keeps its state, and the next run starts from it.
   */
  async plan(
    accountId: string,
    jobId: string,
    run: { workflowId: string; sourceId: string; destinationId?: string; reprocessAll: boolean },
    maxDocuments = DEFAULT_MAX_SOURCE_DOCUMENTS,
  ): Promise<{ manifest: ManifestSummary; fields: SourceRunFields }> {
    const planner = new RunPlanner(await this.states.load(accountId, run.workflowId), run);
    // A stream (kafka) lists only what is new since its acknowledged position: nothing earlier has
    // left it, and what an earlier run did not deliver comes back from the kept documents.
    const stream = (await this.connectors.sourceIsStream?.(accountId, run.sourceId)) ?? false;
    const kept = stream ? await this.retries.load(accountId, run.workflowId) : [];
    let checkpoint: Record<string, unknown> | undefined;
    const listing = this.connectors.listSource(accountId, run.sourceId, stream ? { onCheckpoint: (c) => (checkpoint = c) } : undefined);
    let retried = 0;
    const retries = this.retries;
    async function* toProcess(): AsyncIterable<JobFile> {
      for (const k of kept) {
        const decision = planner.decide(k.doc);
        if (decision === 'process') {
          retried++;
          yield { ...fileOfDocument(k.doc), retry: k.attempts };
        } else if (decision === 'skip') {
          await retries.drop(accountId, run.workflowId, k.doc.key); // delivered by a run that died after
        }
      }
      let entries = 0; // repeats included: a source naming the same page forever must end too
      for await (const doc of listing) {
        const decision = planner.decide(doc);
        if (++entries > maxDocuments) {
          throw new ConnectorFailure(`the source listed more than ${maxDocuments.toLocaleString('en-US')} documents; the run stops there (a source that pages without end?)`);
        }
        if (decision === 'process') yield fileOfDocument(doc);
      }
    }
    const manifest = await writeManifest(this.blobs, jobId, toProcess());
    const removed = stream ? [] : planner.gone();
    if (removed.length) await this.blobs.putStream(goneKey(jobId), removed.map((d) => JSON.stringify(d) + '\n'), 'application/x-ndjson');
    return {
      manifest,
      fields: {
        srcListed: planner.listed,
        srcUnchanged: planner.unchanged,
        srcToRemove: removed.length,
        srcRemoved: 0,
        srcRemovedFromDestination: 0,
        reprocessAll: run.reprocessAll,
        ...(stream ? { srcStream: true, srcRetried: retried, ...(checkpoint ? { srcCheckpoint: checkpoint } : {}) } : {}),
      },
    };
  }

  /**
   * A stream source's run is over (FinishJob): what it listed and did not deliver is kept for the next
   * run, what it delivered of the kept documents is dropped, then the source moves past the listing
   * (stream-retries.ts). Safe to run again. The acknowledgement failing is returned, not thrown: the
   * next run then lists the same documents again and skips those delivered.
   */
  async settleStream(accountId: string, job: StoredItem, at: string): Promise<string | undefined> {
    if (job.srcStream !== true) return undefined;
    const jobId = String(job.id);
    const workflowId = String(job.workflowId);
    for await (const file of jobFiles(this.blobs, job)) {
      if (!file.sourceKey) continue;
      const state = await this.states.get(accountId, workflowId, file.sourceKey);
      const delivered = state?.lastJobId === jobId;
      if (!delivered) {
        const doc = { key: file.sourceKey, size: file.size, filename: file.filename, ...(file.version !== undefined ? { version: file.version } : {}), ...(file.dataSource ? { dataSource: file.dataSource } : {}) };
        await this.retries.keep(accountId, workflowId, doc, jobId, (file.retry ?? 0) + 1, at);
      } else if (file.retry !== undefined) {
        await this.retries.drop(accountId, workflowId, file.sourceKey);
      }
    }
    const checkpoint = job.srcCheckpoint as Record<string, unknown> | undefined;
    if (!checkpoint || !this.connectors.acknowledgeSource) return undefined;
    try {
      await this.connectors.acknowledgeSource(accountId, String(job.sourceId), checkpoint);
      return undefined;
    } catch (err) {
      return `the source was not told to move past this run's documents (they are listed again next run, those delivered skipped): ${(err as Error)?.message ?? String(err)}`;
    }
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
    for await (const line of this.blobs.lines(goneKey(jobId))) {
      const doc = JSON.parse(line) as SourceDocState;
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
