// Workflows: the list with the API's filters, paging and sorting (soft-deleted ones too); create and
// edit with a node-chain editor (node-chain.ts: from a template, node by node, or as JSON), a schedule (named or crontab) and
// reprocess_all; run now ("already running" is the API's 409, shown as it says it); delete.
import { useEffect, useState } from 'preact/hooks';
import { call } from './api';
import { SCHEDULES, WORKFLOW_SORT_FIELDS, WORKFLOW_TYPES } from '../../lambdas/domain/workflow-constants';
import { ErrorBox, html, Section, when } from './ui';
import { NodeChainEditor, type ChainNode } from './node-chain';
import { Channels } from './channels';

interface Workflow {
  id: string;
  name: string;
  sources: string[];
  destinations: string[];
  workflow_type: string | null;
  workflow_nodes: { id?: string; name: string; type: string; subtype: string; settings?: Record<string, unknown> | null }[];
  schedule: { crontab_entries: { cron_expression: string }[] } | null;
  status: string;
  created_at: string;
  reprocess_all?: boolean;
}
interface Named {
  id: string;
  name: string;
  type?: string;
}

function WorkflowForm({ existing, onSaved, onCancel }: { existing?: Workflow; onSaved: () => void; onCancel: () => void }) {
  const [sources, setSources] = useState<Named[]>([]);
  const [destinations, setDestinations] = useState<Named[]>([]);
  const [templates, setTemplates] = useState<Named[]>([]);
  const [form, setForm] = useState({
    name: existing?.name ?? '',
    workflow_type: existing?.workflow_type ?? 'basic',
    source_id: existing?.sources[0] ?? '',
    destination_id: existing?.destinations[0] ?? '',
    schedule: existing?.schedule?.crontab_entries[0]?.cron_expression ?? '',
    reprocess_all: existing?.reprocess_all ?? false,
  });
  const [nodes, setNodes] = useState<ChainNode[]>(existing?.workflow_nodes ?? []);
  /** The chain as JSON text while it is edited so (an advanced view of the same nodes). */
  const [json, setJson] = useState<string>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    call<Named[]>('api/v1/sources/').then(setSources, setError);
    call<Named[]>('api/v1/destinations/').then(setDestinations, setError);
    call<Named[]>('api/v1/templates/').then(setTemplates, () => undefined);
  }, []);
  const set = (patch: Partial<typeof form>) => setForm({ ...form, ...patch });
  async function useTemplate(id: string) {
    if (!id) return;
    try {
      const t = await call<{ nodes: unknown[] }>(`api/v1/templates/${id}`);
      set({ workflow_type: 'custom' });
      setNodes(t.nodes as ChainNode[]);
      setJson(undefined);
    } catch (e) {
      setError(e);
    }
  }
  async function save(e: Event) {
    e.preventDefault();
    setError(undefined);
    try {
      const body: Record<string, unknown> = {
        name: form.name,
        workflow_type: form.workflow_type,
        source_id: form.source_id || null,
        destination_id: form.destination_id || null,
        schedule: form.schedule || null,
        reprocess_all: form.reprocess_all,
      };
      if (form.workflow_type === 'custom') body.workflow_nodes = json !== undefined ? JSON.parse(json) : nodes;
      if (existing) await call(`api/v1/workflows/${existing.id}`, { method: 'PUT', json: body });
      else await call('api/v1/workflows/', { method: 'POST', json: body });
      onSaved();
    } catch (err) {
      setError(err instanceof SyntaxError ? new Error(`Nodes: not valid JSON (${err.message})`) : err);
    }
  }
  function toggleJson() {
    if (json === undefined) return setJson(JSON.stringify(nodes, null, 2));
    try {
      const parsed = JSON.parse(json) as unknown;
      if (!Array.isArray(parsed)) throw new SyntaxError('a list of nodes is expected');
      setNodes(parsed as ChainNode[]);
      setJson(undefined);
      setError(undefined);
    } catch (err) {
      setError(new Error(`Nodes: not valid JSON (${(err as Error).message})`));
    }
  }
  const select = (label: string, key: 'source_id' | 'destination_id', items: Named[]) =>
    html`<label>${label}<select value=${form[key]} onChange=${(e: Event) => set({ [key]: (e.target as HTMLSelectElement).value })}>
      <option value="">(none)</option>${items.map((i) => html`<option value=${i.id}>${i.name}${i.type ? ` (${i.type})` : ''}</option>`)}</select></label>`;
  return html`<form class="panel workflow-form" onSubmit=${save} aria-label=${existing ? `Edit ${existing.name}` : 'New workflow'}>
    <h3>${existing ? `Edit ${existing.name}` : 'New workflow'}</h3>
    <div class="fields">
      <label>Name<input name="name" required value=${form.name} onInput=${(e: Event) => set({ name: (e.target as HTMLInputElement).value })} /></label>
      <label>Type<select name="workflow_type" value=${form.workflow_type} onChange=${(e: Event) => set({ workflow_type: (e.target as HTMLSelectElement).value })}>${WORKFLOW_TYPES.map((t) => html`<option value=${t}>${t}</option>`)}</select></label>
      ${select('Source', 'source_id', sources)}
      ${select('Destination', 'destination_id', destinations)}
      <label>Schedule<input name="schedule" list="schedules" placeholder="(none: on demand) — a name or a crontab, UTC" value=${form.schedule} onInput=${(e: Event) => set({ schedule: (e.target as HTMLInputElement).value })} />
        <datalist id="schedules">${Object.keys(SCHEDULES).map((s) => html`<option value=${s}></option>`)}</datalist></label>
      <label class="check"><input type="checkbox" checked=${form.reprocess_all} onChange=${(e: Event) => set({ reprocess_all: (e.target as HTMLInputElement).checked })} /> Reprocess all (not only new or changed documents)</label>
    </div>
    ${form.workflow_type === 'custom' ? html`<label>Start from a template<select onChange=${(e: Event) => useTemplate((e.target as HTMLSelectElement).value)}><option value="">(choose)</option>${templates.map((t) => html`<option value=${t.id}>${t.name}</option>`)}</select></label>
      <div class="node-head"><strong>Nodes</strong> (partition → [prompter…] → chunk → [embed])
        <button type="button" onClick=${toggleJson}>${json === undefined ? 'Edit as JSON' : 'Back to the node editor'}</button></div>
      ${json === undefined
        ? html`<${NodeChainEditor} nodes=${nodes} onChange=${setNodes} />`
        : html`<textarea name="workflow_nodes" aria-label="Nodes as JSON" rows="12" class="code" value=${json} onInput=${(e: Event) => setJson((e.target as HTMLTextAreaElement).value)}></textarea>`}` : null}
    <${ErrorBox} error=${error} />
    <div class="actions"><button type="submit" class="primary">Save</button><button type="button" onClick=${onCancel}>Cancel</button></div>
  </form>`;
}

export function Workflows({ go }: { go: (p: string) => void }) {
  const [items, setItems] = useState<Workflow[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string | undefined>();
  const [editing, setEditing] = useState<Workflow | 'new' | undefined>();
  const [channelsOf, setChannelsOf] = useState<Workflow | undefined>();
  const [q, setQ] = useState({ name: '', status: '', sort_by: 'created_at', sort_direction: 'desc', page: 1, deleted: false });
  const load = () =>
    call<Workflow[]>('api/v1/workflows/', {
      query: { name: q.name, status: q.status, sort_by: q.sort_by, sort_direction: q.sort_direction, page: q.page, page_size: 20, show_only_soft_deleted: q.deleted || undefined },
    }).then((w) => (setItems(w), setError(undefined)), setError);
  useEffect(() => void load(), [q]);
  async function run(w: Workflow) {
    setNotice(undefined);
    try {
      const job = await call<{ id: string }>(`api/v1/workflows/${w.id}/run`, { method: 'POST' });
      go(`/jobs/${job.id}`);
    } catch (e) {
      setError(e);
    }
  }
  async function remove(w: Workflow) {
    if (!window.confirm(`Delete workflow ${w.name}?`)) return;
    try {
      await call(`api/v1/workflows/${w.id}`, { method: 'DELETE' });
      setNotice(`Deleted ${w.name} (soft: it stays viewable under "Deleted").`);
      await load();
    } catch (e) {
      setError(e);
    }
  }
  const setQuery = (patch: Partial<typeof q>) => setQ({ ...q, page: 1, ...patch });
  return html`<${Section} title="Workflows" actions=${html`<button type="button" class="primary" onClick=${() => setEditing('new')}>New workflow</button>`}>
    <div class="filters">
      <label>Name<input type="search" value=${q.name} onChange=${(e: Event) => setQuery({ name: (e.target as HTMLInputElement).value })} /></label>
      <label>Status<select value=${q.status} onChange=${(e: Event) => setQuery({ status: (e.target as HTMLSelectElement).value })}><option value="">all</option><option value="active">active</option><option value="inactive">inactive</option></select></label>
      <label>Sort by<select value=${q.sort_by} onChange=${(e: Event) => setQuery({ sort_by: (e.target as HTMLSelectElement).value })}>${WORKFLOW_SORT_FIELDS.map((f) => html`<option value=${f}>${f}</option>`)}</select></label>
      <label>Direction<select value=${q.sort_direction} onChange=${(e: Event) => setQuery({ sort_direction: (e.target as HTMLSelectElement).value })}><option value="desc">descending</option><option value="asc">ascending</option></select></label>
      <label class="check"><input type="checkbox" checked=${q.deleted} onChange=${(e: Event) => setQuery({ deleted: (e.target as HTMLInputElement).checked })} /> Deleted</label>
    </div>
    <${ErrorBox} error=${error} />
    ${notice ? html`<p role="status">${notice}</p>` : null}
    ${editing ? html`<${WorkflowForm} key=${editing === 'new' ? 'new' : editing.id} existing=${editing === 'new' ? undefined : editing} onCancel=${() => setEditing(undefined)} onSaved=${() => (setEditing(undefined), load())} />` : null}
    ${!items ? html`<p class="muted">Loading…</p>` : !items.length ? html`<p class="muted">No workflows${q.deleted ? ' deleted' : ''}.</p>` : html`
    <table class="list"><thead><tr><th>Name</th><th>Type</th><th>Schedule</th><th>Status</th><th>Created</th><th>Actions</th></tr></thead><tbody>
      ${items.map((w) => html`<tr key=${w.id}><td>${w.name}</td><td>${w.workflow_type ?? ''}</td><td>${w.schedule?.crontab_entries.map((c) => c.cron_expression).join(', ') ?? 'on demand'}</td><td>${w.status}</td><td>${when(w.created_at)}</td>
        <td class="actions">${q.deleted ? null : html`<button type="button" onClick=${() => run(w)}>Run</button><button type="button" onClick=${() => setEditing(w)}>Edit</button><button type="button" onClick=${() => setChannelsOf(channelsOf?.id === w.id ? undefined : w)}>Channels</button><button type="button" onClick=${() => remove(w)}>Delete</button>`}</td></tr>`)}
    </tbody></table>
    ${channelsOf ? html`<${Channels} key=${channelsOf.id} workflowId=${channelsOf.id} workflowName=${channelsOf.name} />` : null}
    <div class="actions pager"><button type="button" disabled=${q.page <= 1} onClick=${() => setQ({ ...q, page: q.page - 1 })}>Previous</button><span>Page ${q.page}</span><button type="button" disabled=${items.length < 20} onClick=${() => setQ({ ...q, page: q.page + 1 })}>Next</button></div>`}
  <//>`;
}
