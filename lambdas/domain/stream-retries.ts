// Stream sources (kafka-cloud) list a document once: the next run goes on from where the source's
// position was acknowledged, not from the start. So the run keeps what it listed but did not deliver
// (a failed file, a lost one), and the next run processes those again before what is new:
// - plan: the kept documents come first in the listing (IncrementalRuns.plan); one the state shows
//   delivered since (a run that delivered it, then died) is dropped there;
// - finish (FinishJob): every file of the run's manifest that has no state from this run is kept (or
//   kept again), every kept one this run delivered is dropped, and only then the source is told to
//   move on (acknowledge: kafka commits the group's offsets). A job that dies or is cancelled does
//   neither: the source position stays, the next run lists the same documents (delivered ones skipped
//   by their state) and the kept ones stay kept. At-least-once, never lost.
import type { KeyValueStore } from './ports';
import type { ListedDocument } from './connectors';
import { ENTITY, keys } from '../data/keys';

export interface KeptDocument {
  doc: ListedDocument;
  /** The run that last failed to deliver it, and why (shown in that run's failed files). */
  jobId: string;
  attempts: number;
}

export class StreamRetries {
  constructor(private readonly store: KeyValueStore) {}

  async load(accountId: string, workflowId: string): Promise<KeptDocument[]> {
    const items = await this.store.queryPrefix(keys.account(accountId), keys.sourceRetryPrefix(workflowId));
    return items.map((i) => ({ doc: JSON.parse(String(i.doc)) as ListedDocument, jobId: String(i.jobId), attempts: Number(i.attempts ?? 1) }));
  }

  async keep(accountId: string, workflowId: string, doc: ListedDocument, jobId: string, attempts: number, at: string): Promise<void> {
    await this.store.put({
      ...keys.sourceRetry(accountId, workflowId, doc.key),
      entity: ENTITY.sourceRetry,
      workflowId,
      docKey: doc.key,
      doc: JSON.stringify(doc),
      jobId,
      attempts,
      createdAt: at,
    });
  }

  async drop(accountId: string, workflowId: string, docKey: string): Promise<void> {
    await this.store.delete(keys.sourceRetry(accountId, workflowId, docKey));
  }
}
