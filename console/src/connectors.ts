// Sources and destinations: list, create and edit with forms generated from the per-type config
// schemas, delete, and a connection check shown as SUCCESS / FAILURE with the store's message.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from './api';
import { connectorTypes, type ConnectorKind } from './openapi';
import { configFrom, SchemaFields, valuesFrom, type JsonSchema } from './schema-form';
import { ErrorBox, html, Section, when } from './ui';

interface Connector {
  id: string;
  name: string;
  type: string;
  created_at: string;
  updated_at?: string | null;
  config: Record<string, unknown>;
}
interface Check {
  id: string;
  status: string;
  reason?: string | null;
}

const plural = (k: ConnectorKind) => (k === 'source' ? 'sources' : 'destinations');

function CheckResult({ kind, id }: { kind: ConnectorKind; id: string }) {
  const [check, setCheck] = useState<Check | undefined>();
  const [error, setError] = useState<unknown>();
  async function run() {
    setError(undefined);
    try {
      let c = await call<Check>(`api/v1/${plural(kind)}/${id}/connection-check`, { method: 'POST' });
      setCheck(c);
      for (let i = 0; i < 120 && c.status === 'SCHEDULED'; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        c = await call<Check>(`api/v1/${plural(kind)}/${id}/connection-check`);
        setCheck(c);
      }
    } catch (e) {
      setError(e);
    }
  }
  return html`<span class="check-result">
    <button type="button" onClick=${run}>Check connection</button>
    ${check ? html`<span class=${`status s-${check.status.toLowerCase()}`} role="status" data-testid="check-status">${check.status}</span>${check.reason ? html` <span class="reason">${check.reason}</span>` : null}` : null}
    <${ErrorBox} error=${error} />
  </span>`;
}

function ConnectorForm({ kind, existing, onSaved, onCancel }: { kind: ConnectorKind; existing?: Connector; onSaved: () => void; onCancel: () => void }) {
  const [types, setTypes] = useState<Map<string, JsonSchema> | undefined>();
  const [type, setType] = useState(existing?.type ?? '');
  const [name, setName] = useState(existing?.name ?? '');
  const [values, setValues] = useState<Record<string, string | boolean>>(existing ? valuesFrom(existing.config) : {});
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    connectorTypes(kind).then((t) => {
      setTypes(t);
      if (!type) setType(t.keys().next().value ?? '');
    }, setError);
  }, [kind]);
  const schema = types?.get(type);
  async function save(e: Event) {
    e.preventDefault();
    setError(undefined);
    try {
      const config = configFrom(schema ?? {}, values);
      if (existing) await call(`api/v1/${plural(kind)}/${existing.id}`, { method: 'PUT', json: { config } });
      else await call(`api/v1/${plural(kind)}/`, { method: 'POST', json: { name, type, config } });
      onSaved();
    } catch (err) {
      setError(err);
    }
  }
  const nameProblems = error instanceof ApiError ? error.about('name') : [];
  return html`<form class="panel connector-form" onSubmit=${save} aria-label=${existing ? `Edit ${existing.name}` : `New ${kind}`}>
    <h3>${existing ? `Edit ${existing.name}` : `New ${kind}`}</h3>
    ${existing ? null : html`<label>Name<input name="name" required value=${name} onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} />${nameProblems.length ? html`<small class="field-error" role="alert">${nameProblems.join('; ')}</small>` : null}</label>
      <label>Type<select name="type" value=${type} onChange=${(e: Event) => (setType((e.target as HTMLSelectElement).value), setValues({}))}>${[...(types?.keys() ?? [])].map((t) => html`<option value=${t}>${t}</option>`)}</select></label>`}
    ${schema ? html`<${SchemaFields} schema=${schema} values=${values} error=${error} onChange=${(k: string, v: string | boolean) => setValues({ ...values, [k]: v })} />` : html`<p class="muted">Loading the config schema…</p>`}
    <${ErrorBox} error=${error} />
    <div class="actions"><button type="submit" class="primary">Save</button><button type="button" onClick=${onCancel}>Cancel</button></div>
  </form>`;
}

export function Connectors({ kind }: { kind: ConnectorKind }) {
  const [items, setItems] = useState<Connector[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [editing, setEditing] = useState<Connector | 'new' | undefined>();
  const load = () => call<Connector[]>(`api/v1/${plural(kind)}/`).then(setItems, setError);
  useEffect(() => {
    setItems(undefined);
    setEditing(undefined);
    void load();
  }, [kind]);
  async function remove(c: Connector) {
    if (!window.confirm(`Delete ${kind} ${c.name}?`)) return;
    try {
      await call(`api/v1/${plural(kind)}/${c.id}`, { method: 'DELETE' });
      await load();
    } catch (e) {
      setError(e);
    }
  }
  const title = kind === 'source' ? 'Sources' : 'Destinations';
  return html`<${Section} title=${title} actions=${html`<button type="button" class="primary" onClick=${() => setEditing('new')}>New ${kind}</button>`}>
    <${ErrorBox} error=${error} />
    ${editing ? html`<${ConnectorForm} key=${editing === 'new' ? 'new' : editing.id} kind=${kind} existing=${editing === 'new' ? undefined : editing} onCancel=${() => setEditing(undefined)} onSaved=${() => (setEditing(undefined), load())} />` : null}
    ${!items ? html`<p class="muted">Loading…</p>` : !items.length ? html`<p class="muted">No ${plural(kind)} yet.</p>` : html`
    <table class="list"><thead><tr><th>Name</th><th>Type</th><th>Created</th><th>Actions</th></tr></thead><tbody>
      ${items.map((c) => html`<tr key=${c.id}><td>${c.name}</td><td>${c.type}</td><td>${when(c.created_at)}</td>
        <td class="actions"><button type="button" onClick=${() => setEditing(c)}>Edit</button><button type="button" onClick=${() => remove(c)}>Delete</button><${CheckResult} kind=${kind} id=${c.id} /></td></tr>`)}
    </tbody></table>`}
  <//>`;
}
