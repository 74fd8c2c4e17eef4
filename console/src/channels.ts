// Notification channels of the account, or of one workflow (the same API under the workflow's path): webhook and e-mail, created with the event types they hear;
// e-mail ones verified with the emailed code; a webhook sent a signed test event, its receiver's
// answer shown (status, latency, the first KiB, or why it was not delivered); enable, disable, delete.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from './api';
import { ErrorBox, html, Section, when } from './ui';

const EVENTS = ['job.scheduled', 'job.in_progress', 'job.completed', 'job.stopped', 'job.failed'];
const ACCOUNT_BASE = 'api/v1/notifications/channels';
const baseOf = (workflowId?: string) => (workflowId ? `api/v1/workflows/${encodeURIComponent(workflowId)}/notifications/channels` : ACCOUNT_BASE);

interface Channel {
  id: string;
  channel_type: 'webhook' | 'email';
  url?: string;
  email_config?: { recipient_email: string; verified?: boolean } & Record<string, unknown>;
  event_types: string[];
  enabled: boolean;
  description: string | null;
  created_at: string;
}
interface TestResult {
  delivered: boolean;
  status: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
}

function NewChannel({ onSaved, base }: { onSaved: () => void; base: string }) {
  const [type, setType] = useState<'webhook' | 'email'>('webhook');
  const [target, setTarget] = useState('');
  const [secret, setSecret] = useState('');
  const [events, setEvents] = useState<string[]>(['job.completed', 'job.failed']);
  const [error, setError] = useState<unknown>();
  async function save(e: Event) {
    e.preventDefault();
    setError(undefined);
    const body =
      type === 'webhook'
        ? { channel_type: 'webhook', url: target, event_types: events, ...(secret ? { secret } : {}) }
        : { channel_type: 'email', email_config: { recipient_email: target }, event_types: events };
    try {
      await call(base, { method: 'POST', json: body });
      setTarget('');
      setSecret('');
      onSaved();
    } catch (err) {
      setError(err);
    }
  }
  const about = (f: string) => (error instanceof ApiError ? error.about(f) : []);
  return html`<form class="panel" onSubmit=${save} aria-label="New channel">
    <h3>New channel</h3>
    <div class="fields">
      <label>Type<select value=${type} onChange=${(e: Event) => setType((e.target as HTMLSelectElement).value as 'webhook' | 'email')}><option value="webhook">webhook</option><option value="email">email</option></select></label>
      <label>${type === 'webhook' ? 'URL (https)' : 'Recipient e-mail'}<input required value=${target} type=${type === 'email' ? 'email' : 'url'} onInput=${(e: Event) => setTarget((e.target as HTMLInputElement).value)} />
        ${[...about('url'), ...about('recipient_email')].map((m) => html`<small class="field-error" role="alert">${m}</small>`)}</label>
      ${type === 'webhook' ? html`<label>Signing secret (optional: one is made for you)<input type="password" autocomplete="new-password" value=${secret} onInput=${(e: Event) => setSecret((e.target as HTMLInputElement).value)} /></label>` : null}
    </div>
    <fieldset><legend>Events</legend>${EVENTS.map((ev) => html`<label class="check"><input type="checkbox" checked=${events.includes(ev)} onChange=${(e: Event) => setEvents((e.target as HTMLInputElement).checked ? [...events, ev] : events.filter((x) => x !== ev))} /> ${ev}</label>`)}</fieldset>
    <${ErrorBox} error=${error} />
    <button type="submit" class="primary">Create channel</button>
  </form>`;
}

function ChannelRow({ channel, onChanged, base }: { channel: Channel; onChanged: () => void; base: string }) {
  const [result, setResult] = useState<TestResult | undefined>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string | undefined>();
  const act = async (fn: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await fn();
    } catch (e) {
      setError(e);
    }
  };
  return html`<li class="channel">
    <strong>${channel.channel_type}</strong> ${channel.url ?? channel.email_config?.recipient_email} · ${channel.event_types.join(', ')} · ${channel.enabled ? 'enabled' : 'disabled'} <span class="muted">${when(channel.created_at)}</span>
    <div class="actions">
      ${channel.channel_type === 'webhook' ? html`<button type="button" onClick=${() => act(async () => setResult(await call<TestResult>(`${base}/${channel.id}/test`, { method: 'POST' })))}>Send test event</button>` : null}
      ${channel.channel_type === 'email' ? html`<form class="inline" onSubmit=${(e: Event) => (e.preventDefault(), act(async () => (await call(`${base}/${channel.id}/verify`, { method: 'POST', json: { code } }), setNotice('Verified.'), onChanged())))}>
        <label>Code<input inputmode="numeric" pattern="\\d{6}" size="8" value=${code} onInput=${(e: Event) => setCode((e.target as HTMLInputElement).value)} /></label><button type="submit">Verify</button></form>` : null}
      <button type="button" onClick=${() => act(async () => (await call(`${base}/${channel.id}`, { method: 'PATCH', json: { enabled: !channel.enabled } }), onChanged()))}>${channel.enabled ? 'Disable' : 'Enable'}</button>
      <button type="button" onClick=${() => window.confirm('Delete this channel?') && act(async () => (await call(`${base}/${channel.id}`, { method: 'DELETE' }), onChanged()))}>Delete</button>
    </div>
    ${result ? html`<p role="status" class=${result.delivered ? 'ok' : 'warning'}>${result.delivered ? 'Delivered' : 'Not delivered'}: status ${result.status ?? 'none'}, ${result.latency_ms} ms${result.error ? ` — ${result.error}` : ''}${result.response_excerpt ? html`<br /><code>${result.response_excerpt}</code>` : null}</p>` : null}
    ${notice ? html`<p role="status">${notice}</p>` : null}
    <${ErrorBox} error=${error} />
  </li>`;
}

export function Channels({ workflowId, workflowName }: { workflowId?: string; workflowName?: string } = {}) {
  const base = baseOf(workflowId);
  const [items, setItems] = useState<Channel[] | undefined>();
  const [error, setError] = useState<unknown>();
  // -- the API lists one channel type at a time --
  const load = () =>
    Promise.all(['webhook', 'email'].map((t) => call<{ items: Channel[] }>(base, { query: { channel_type: t } }))).then(
      ([w, e]) => (setItems([...w!.items, ...e!.items]), setError(undefined)),
      setError,
    );
  useEffect(() => void load(), [base]);
  return html`<${Section} title=${workflowName ? `Channels of ${workflowName}` : 'Channels'}>
    <p class="muted">${workflowId ? "This workflow's channels hear its jobs' events only." : "Channels of the account hear every workflow's events."} A webhook receives signed POSTs; an e-mail channel must be verified with the code it was sent.</p>
    <${ErrorBox} error=${error} />
    ${!items ? html`<p class="muted">Loading…</p>` : !items.length ? html`<p class="muted">No channels yet.</p>` : html`<ul class="channels">${items.map((c) => html`<${ChannelRow} key=${c.id} channel=${c} onChanged=${load} base=${base} />`)}</ul>`}
    <${NewChannel} onSaved=${load} base=${base} />
  <//>`;
}
