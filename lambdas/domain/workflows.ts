// Workflows (spec §2.2, §4.5): a source, a destination and a node graph, with an optional schedule.
// Soft deletion keeps the record (listed with show_only_soft_deleted); run creates a job through
// JobService, one active job per workflow.
import type { AccountQuotas } from './quotas';
import { randomUUID } from 'node:crypto';
import type { Clock, KeyValueStore, SecretBox, StoredItem } from './ports';
import { keepMaskedSecrets, maskNodeSecrets, sealNodeSecrets } from './node-secrets';
import { systemClock } from './ports';
import { Conflict, NotFound, ValidationError } from '../errors';
import type { UploadedFile } from './uploads';
import type { Principal } from './auth';
import { ENTITY, keys } from '../data/keys';
import { planNodes, type JobNode } from './job-nodes';
import { SourceStates } from './source-state';
import { findTemplate } from './templates';
import type { ConnectorService } from './connectors';
import type { JobInformation, JobService, WorkflowRun } from './jobs';
import { cronOf, nextRun, SCHEDULE_HINT, SCHEDULES, WORKFLOW_TYPES, type WorkflowSortField, type WorkflowType } from './workflow-constants';

export { WORKFLOW_TYPES, SCHEDULES, type WorkflowType };

/** Node graphs of the predefined workflow types. */
/** How long a workflow delete waits for its source-document state to be forgotten before answering. */
const STATE_CLEANUP_IN_REQUEST_MS = 5_000;

const TYPE_NODES: Record<Exclude<WorkflowType, 'custom'>, unknown[]> = {
  basic: [
    { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
    { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 2048, new_after_n_chars: 1500 } },
    { name: 'Embedder', type: 'embed', subtype: 'local', settings: {} },
  ],
  advanced: [
    { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'hi_res' } },
    { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 2048, new_after_n_chars: 1500 } },
    { name: 'Embedder', type: 'embed', subtype: 'local', settings: {} },
  ],
  platinum: [
    { name: 'Partitioner', type: 'partition', subtype: 'vlm', settings: { allow_fast: true } },
    { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 2048, new_after_n_chars: 1500 } },
    { name: 'Embedder', type: 'embed', subtype: 'local', settings: {} },
  ],
};

export interface WorkflowInput {
  name?: string | null;
  workflow_type?: WorkflowType | null;
  source_id?: string | null;
  destination_id?: string | null;
  workflow_nodes?: unknown[] | null;
  schedule?: string | null;
  reprocess_all?: boolean | null;
  template_id?: string | null;
}

export interface WorkflowInformation {
  id: string;
  name: string;
  sources: string[];
  destinations: string[];
  workflow_type: WorkflowType | null;
  workflow_nodes: JobNode[];
  schedule: { crontab_entries: { cron_expression: string }[] } | null;
  status: 'active' | 'inactive';
  created_at: string;
  updated_at: string | null;
  reprocess_all: boolean;
}

export interface WorkflowListQuery {
  source_id?: string;
  destination_id?: string;
  status?: 'active' | 'inactive';
  page: number;
  page_size: number;
  created_since?: string;
  created_before?: string;
  name?: string;
  sort_by: WorkflowSortField;
  sort_direction: 'asc' | 'desc';
  show_only_soft_deleted: boolean;
  dag_node_configuration_id?: string;
}

const SORTABLE: Record<WorkflowSortField, (w: WorkflowInformation) => string> = {
  id: (w) => w.id,
  name: (w) => w.name.toLowerCase(),
  created_at: (w) => w.created_at,
  updated_at: (w) => w.updated_at ?? '',
  status: (w) => w.status,
  workflow_type: (w) => w.workflow_type ?? '',
};

export class WorkflowService {
  constructor(
    private readonly store: KeyValueStore,
    private readonly connectors: ConnectorService,
    private readonly jobs: JobService,
    private readonly secrets: SecretBox,
    private readonly clock: Clock = systemClock,
    private readonly quotas?: AccountQuotas,
  ) {}

  async create(p: Principal, input: WorkflowInput): Promise<WorkflowInformation> {
    const resolved = await this.resolve(p, input, undefined);
    const id = randomUUID();
    const item: StoredItem = withScheduleIndex(
      {
        ...keys.workflow(p.accountId, id),
        entity: ENTITY.workflow,
        createdAt: this.clock.now().toISOString(),
        id,
        status: 'active',
        ...resolved,
      },
      p.accountId,
      this.clock.now(),
    );
    const live = async () => (await this.store.queryPrefix(keys.account(p.accountId), keys.workflowPrefix)).filter((w) => !w.deletedAt).length;
    await this.quotas?.reserve(p.accountId, 'workflows', live);
    try {
      await this.store.put(item, { ifNotExists: true });
    } catch (err) {
      await this.quotas?.release(p.accountId, 'workflows');
      throw err;
    }
    return toInformation(item);
  }

  async list(p: Principal, q: WorkflowListQuery): Promise<WorkflowInformation[]> {
    // -- the schema makes sort_by an enum; own-property lookup keeps __proto__ & co. out regardless --
    if (!Object.hasOwn(SORTABLE, q.sort_by)) {
      throw ValidationError.single(['query', 'sort_by'], `Input should be one of ${Object.keys(SORTABLE).join(', ')}`, 'enum', q.sort_by);
    }
    const items = await this.store.queryPrefix(keys.account(p.accountId), keys.workflowPrefix);
    const rows = items
      .filter((i) => (q.show_only_soft_deleted ? Boolean(i.deletedAt) : !i.deletedAt))
      .filter((i) => !q.source_id || i.sourceId === q.source_id)
      .filter((i) => !q.destination_id || i.destinationId === q.destination_id)
      .filter((i) => !q.status || i.status === q.status)
      .filter((i) => !q.created_since || i.createdAt >= q.created_since)
      .filter((i) => !q.created_before || i.createdAt < q.created_before)
      .filter((i) => !q.name || String(i.name).toLowerCase().includes(q.name.toLowerCase()))
      .filter((i) => !q.dag_node_configuration_id || (i.nodes as JobNode[]).some((n) => n.id === q.dag_node_configuration_id))
      .map(toInformation);
    const key = SORTABLE[q.sort_by];
    rows.sort((a, b) => key(a).localeCompare(key(b)) * (q.sort_direction === 'desc' ? -1 : 1));
    const start = (q.page - 1) * q.page_size;
    return rows.slice(start, start + q.page_size);
  }

  async get(p: Principal, id: string): Promise<WorkflowInformation> {
    return toInformation(await this.load(p.accountId, id));
  }

  async update(p: Principal, id: string, input: WorkflowInput): Promise<WorkflowInformation> {
    const current = await this.load(p.accountId, id);
    const resolved = await this.resolve(p, input, current);
    const item = withScheduleIndex({ ...current, ...resolved, updatedAt: this.clock.now().toISOString() }, p.accountId, this.clock.now());
    await this.store.put(item, { ifExists: true });
    return toInformation(item);
  }

  async delete(p: Principal, id: string): Promise<{ detail: string }> {
    await this.load(p.accountId, id);
    const now = this.clock.now().toISOString();
    await this.store.update(keys.workflow(p.accountId, id), {
      set: { deletedAt: now, status: 'inactive', updatedAt: now },
      remove: ['GSI1PK', 'GSI1SK', 'nextRunAt'],
    });
    await this.quotas?.release(p.accountId, 'workflows');
    // What the workflow delivered of its source documents serves no later run: forget it, within a
    // few seconds here and the rest in the background (the one-minute tick's sweep).
    await new SourceStates(this.store).forgetWorkflow(p.accountId, id, now, STATE_CLEANUP_IN_REQUEST_MS);
    return { detail: `Workflow with id ${id} successfully deleted.` };
  }

  async run(
    p: Principal,
    id: string,
    uploads: { filename: string; contentType?: string; data: Uint8Array }[],
    named: { count: number; claim: () => Promise<UploadedFile[]> } = { count: 0, claim: async () => [] },
  ): Promise<JobInformation> {
    return this.jobs.runWorkflow(p, runOf(await this.load(p.accountId, id), 'persistent'), uploads, named.claim, named.count);
  }

  /**
   * The scheduler's tick: every scheduled workflow whose next run is due gets a `scheduled` job. The
   * next run is advanced first, conditionally on the index entry this tick read, so two overlapping
   * ticks never launch the same run twice; a workflow whose previous job is still active skips
   * this run (the platform's one-active-job rule).
   */
  /** The tick's share of clean-ups: forgets what deleted workflows still hold, for up to `budgetMs`. */
  sweepDeletedState(budgetMs: number): Promise<{ deleted: number; pending: number }> {
    return new SourceStates(this.store).sweep(budgetMs);
  }

  async runDue(now: Date = this.clock.now()): Promise<{ workflowId: string; jobId?: string; skipped?: string }[]> {
    const due = await this.store.queryPrefix(keys.scheduleIndex, '', { index: 'GSI1', until: `${now.toISOString()}#\uffff` });
    const out: { workflowId: string; jobId?: string; skipped?: string }[] = [];
    for (const wf of due) {
      const accountId = String(wf.PK).replace(/^ACCT#/, '');
      const next = nextRun(String(wf.schedule), now).toISOString();
      try {
        await this.store.update(
          { PK: wf.PK, SK: wf.SK },
          { set: { nextRunAt: next, GSI1SK: keys.scheduleSortKey(next, accountId, String(wf.id)) }, conditions: [{ attr: 'GSI1SK', op: 'eq', value: String(wf.GSI1SK) }] },
        );
      } catch (err) {
        if (err instanceof Conflict) continue; // another tick took this run, or the workflow changed
        throw err;
      }
      try {
        const job = await this.jobs.runWorkflow({ accountId, userId: 'scheduler' }, runOf(wf, 'scheduled'), []);
        out.push({ workflowId: String(wf.id), jobId: job.id });
      } catch (err) {
        out.push({ workflowId: String(wf.id), skipped: (err as Error).message });
      }
    }
    return out;
  }

  /** Validates a create/update body against the current record (undefined on create). */
  private async resolve(p: Principal, input: WorkflowInput, current: StoredItem | undefined): Promise<Record<string, unknown>> {
    const pick = <T>(v: T | null | undefined, stored: unknown): T | null => (v === undefined ? ((stored as T | undefined) ?? null) : v);
    const name = pick(input.name, current?.name);
    if (!name) throw ValidationError.single(['body', 'name'], 'Field required', 'missing');
    const workflowType = pick(input.workflow_type, current?.workflowType) as WorkflowType | null;
    if (!workflowType) throw ValidationError.single(['body', 'workflow_type'], 'Field required', 'missing');
    const sourceId = pick(input.source_id, current?.sourceId);
    const destinationId = pick(input.destination_id, current?.destinationId);
    if (input.source_id) await this.connectors.assertUsable(p.accountId, 'source', input.source_id, ['body', 'source_id']);
    if (input.destination_id) await this.connectors.assertUsable(p.accountId, 'destination', input.destination_id, ['body', 'destination_id']);

    let nodes: JobNode[];
    const typeChanged = input.workflow_type !== undefined && input.workflow_type !== current?.workflowType;
    if (input.template_id) {
      const template = findTemplate(input.template_id);
      if (!template) throw ValidationError.single(['body', 'template_id'], `Template ${input.template_id} not found`, 'value_error');
      nodes = planNodes(template.nodes, ['body', 'template_id']);
    } else if (input.workflow_nodes) {
      nodes = planNodes(input.workflow_nodes, ['body', 'workflow_nodes']);
      if (current) nodes = keepMaskedSecrets(nodes, current.nodes as JobNode[]);
    } else if (current && !typeChanged) {
      nodes = current.nodes as JobNode[];
    } else if (workflowType === 'custom') {
      throw ValidationError.single(['body', 'workflow_nodes'], 'A custom workflow needs workflow_nodes (or a template_id)', 'missing');
    } else {
      nodes = planTypeNodes(workflowType);
    }

    const schedule = pick(input.schedule, current?.schedule);
    if (schedule && !cronOf(schedule)) {
      throw ValidationError.single(['body', 'schedule'], SCHEDULE_HINT, 'value_error', schedule);
    }
    if (schedule && !sourceId) {
      throw ValidationError.single(['body', 'schedule'], 'A scheduled workflow needs a source connector', 'value_error');
    }
    return {
      name,
      workflowType,
      sourceId,
      destinationId,
      nodes: await sealNodeSecrets(nodes, this.secrets),
      schedule,
      reprocessAll: pick(input.reprocess_all, current?.reprocessAll) ?? false,
    };
  }

  private async load(accountId: string, id: string): Promise<StoredItem> {
    const item = await this.store.get(keys.workflow(accountId, id));
    if (!item || item.deletedAt) throw new NotFound(`Workflow with id ${id} not found`);
    return item;
  }
}

/**
 * The node graph of a predefined workflow type. Its nodes are ours, not the caller's: a refusal
 * (platinum's VLM without credentials) is reported at `workflow_type`, the field the caller sent.
 */
function planTypeNodes(workflowType: Exclude<WorkflowType, 'custom'>): JobNode[] {
  try {
    return planNodes(TYPE_NODES[workflowType], ['body', 'workflow_type']);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    throw new ValidationError(err.issues.map((i) => ({ ...i, loc: ['body', 'workflow_type'], msg: `workflow_type '${workflowType}': ${i.msg}`, input: workflowType })));
  }
}

/** What a stored workflow contributes to a job that runs it. */
function runOf(wf: StoredItem, jobType: WorkflowRun['jobType']): WorkflowRun {
  return {
    workflowId: String(wf.id),
    workflowName: String(wf.name),
    nodes: wf.nodes as JobNode[],
    sourceId: (wf.sourceId as string | null) ?? undefined,
    destinationId: (wf.destinationId as string | null) ?? undefined,
    jobType,
    reprocessAll: Boolean(wf.reprocessAll),
  };
}

/** Scheduled, live workflows sit on GSI1 under their next run; others leave it. */
function withScheduleIndex(item: StoredItem, accountId: string, now: Date): StoredItem {
  const { GSI1PK: _pk, GSI1SK: _sk, nextRunAt: _next, ...rest } = item;
  if (!item.schedule || item.deletedAt) return rest as StoredItem;
  const unchanged = _next && item.schedule === (item as { scheduledAs?: string }).scheduledAs;
  const next = unchanged ? String(_next) : nextRun(String(item.schedule), now).toISOString();
  return {
    ...rest,
    scheduledAs: item.schedule,
    nextRunAt: next,
    GSI1PK: keys.scheduleIndex,
    GSI1SK: keys.scheduleSortKey(next, accountId, String(item.id)),
  } as StoredItem;
}

function toInformation(item: StoredItem): WorkflowInformation {
  const schedule = item.schedule as string | null | undefined;
  return {
    id: String(item.id),
    name: String(item.name),
    sources: item.sourceId ? [String(item.sourceId)] : [],
    destinations: item.destinationId ? [String(item.destinationId)] : [],
    workflow_type: (item.workflowType as WorkflowType | null) ?? null,
    workflow_nodes: maskNodeSecrets(item.nodes as JobNode[]),
    schedule: schedule ? { crontab_entries: [{ cron_expression: cronOf(schedule) ?? schedule }] } : null,
    status: item.status as 'active' | 'inactive',
    created_at: item.createdAt,
    updated_at: item.updatedAt ?? null,
    reprocess_all: Boolean(item.reprocessAll),
  };
}
