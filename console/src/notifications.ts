// Notifications: the inbox (filters: unread only, event type), mark one read, all read or read
// before a time, and the account's channels (channels.ts); the unread badge of the navigation (polled every 30 s, every 2 min in a hidden tab).
import { useEffect, useState } from 'preact/hooks';
import { call } from './api';
import { ErrorBox, html, Section, when } from './ui';
import { Channels } from './channels';

interface Notification {
  id: string;
  event_type: string;
  payload: Record<string, unknown>;
  created_at: string;
  is_read: boolean;
  workflow_id: string | null;
}

const listeners = new Set<() => void>();
/** Ask every badge to read the count again (after a mark-read). */
export const refreshBadge = () => listeners.forEach((fn) => fn());

export function UnreadBadge() {
  const [count, setCount] = useState<number | undefined>();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let alive = true;
    const tick = async () => {
      await call<{ unread_count: number }>('api/v1/notifications/unread-count').then((r) => setCount(r.unread_count), () => undefined);
      if (alive) timer = setTimeout(tick, document.hidden ? 120_000 : 30_000);
    };
    const now = () => (clearTimeout(timer), void tick());
    listeners.add(now);
    void tick();
    return () => {
      alive = false;
      clearTimeout(timer);
      listeners.delete(now);
    };
  }, []);
  return count ? html`<span class="badge unread" data-testid="unread-badge" aria-label=${`${count} unread`}>${count}</span>` : null;
}

export function Notifications() {
  const [items, setItems] = useState<Notification[] | undefined>();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [type, setType] = useState('');
  const [before, setBefore] = useState('');
  const [error, setError] = useState<unknown>();
  const load = () =>
    call<{ events: Notification[] }>('api/v1/notifications', { query: { unread_only: unreadOnly || undefined, event_types: type || undefined, limit: 100 } }).then((r) => (setItems(r.events), setError(undefined)), setError);
  useEffect(() => void load(), [unreadOnly, type]);
  async function mark(body: Record<string, unknown>) {
    try {
      await call('api/v1/notifications/mark-read', { method: 'POST', json: body });
      refreshBadge();
      await load();
    } catch (e) {
      setError(e);
    }
  }
  const types = [...new Set((items ?? []).map((n) => n.event_type))];
  return html`<${Section} title="Notifications" actions=${html`<button type="button" onClick=${() => mark({ mark_all: true })}>Mark all read</button>`}>
    <div class="filters">
      <label class="check"><input type="checkbox" checked=${unreadOnly} onChange=${(e: Event) => setUnreadOnly((e.target as HTMLInputElement).checked)} /> Unread only</label>
      <label>Event type<input list="event-types" value=${type} onChange=${(e: Event) => setType((e.target as HTMLInputElement).value)} /><datalist id="event-types">${types.map((t) => html`<option value=${t}></option>`)}</datalist></label>
      <label>Read all before<input type="datetime-local" value=${before} onInput=${(e: Event) => setBefore((e.target as HTMLInputElement).value)} /></label>
      <button type="button" disabled=${!before} onClick=${() => mark({ before: new Date(before).toISOString() })}>Mark read</button>
    </div>
    <${ErrorBox} error=${error} />
    ${!items ? html`<p class="muted">Loading…</p>` : !items.length ? html`<p class="muted">Nothing here.</p>` : html`
    <ul class="inbox">${items.map((n) => html`<li key=${n.id} class=${n.is_read ? 'read' : 'unread'}>
      <strong>${n.event_type}</strong> <span class="muted">${when(n.created_at)}</span>
      ${n.payload.job_id ? html` · <a href=${`#/jobs/${String(n.payload.job_id)}`}>job ${String(n.payload.job_id).slice(0, 8)}</a>` : null}
      ${n.is_read ? null : html` <button type="button" onClick=${() => mark({ notification_ids: [n.id] })}>Mark read</button>`}
    </li>`)}</ul>`}
  <//>
  <${Channels} />`;
}
