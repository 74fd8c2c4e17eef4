// The web console: one page over the public API (what it does, a script can do). Sign-in with an API
// key in keyed mode (nothing to enter in `none` mode); a refused key returns here with the reason.
// Hash routes: #/ (playground), #/sources, #/destinations, #/workflows, #/jobs, #/jobs/<id>,
// #/notifications.
import { render } from 'preact';
import './style.css';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, hasKey, needsKey, onSignedOut, setKey } from './api';
import { JobPage, JobsList } from './jobs';
import { Playground } from './playground';
import { Connectors } from './connectors';
import { Workflows } from './workflows';
import { Notifications, UnreadBadge } from './notifications';
import { ErrorBox, html } from './ui';

function useRoute(): [string, (p: string) => void] {
  const read = () => window.location.hash.replace(/^#/, '') || '/';
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return [route, (p: string) => (window.location.hash = p)];
}

function SignIn({ reason, onDone }: { reason?: string; onDone: () => void }) {
  const [key, setValue] = useState('');
  const [error, setError] = useState<unknown>();
  async function submit(e: Event) {
    e.preventDefault();
    setKey(key.trim());
    try {
      await call('api/v1/templates/');
      onDone();
    } catch (err) {
      setKey(undefined);
      setError(err instanceof ApiError && err.status === 401 ? new ApiError(401, 'This key was refused: check it, or ask for a new one.') : err);
    }
  }
  return html`<main class="signin"><form onSubmit=${submit} class="panel">
    <h1>Sign in</h1>
    ${reason ? html`<p class="warning" role="status">${reason}</p>` : null}
    <p>This service asks for an API key. It is kept for this browser tab only.</p>
    <label>API key <input type="password" name="api_key" autocomplete="off" required value=${key} onInput=${(e: Event) => setValue((e.target as HTMLInputElement).value)} /></label>
    <${ErrorBox} error=${error} />
    <button type="submit" class="primary">Sign in</button>
  </form></main>`;
}

const NAV = [
  ['/', 'Playground'],
  ['/sources', 'Sources'],
  ['/destinations', 'Destinations'],
  ['/workflows', 'Workflows'],
  ['/jobs', 'Jobs'],
  ['/notifications', 'Notifications'],
] as const;

function pageFor(route: string, go: (p: string) => void) {
  const job = /^\/jobs\/([0-9a-f-]{36})$/.exec(route);
  if (job) return html`<${JobPage} id=${job[1]} />`;
  switch (route) {
    case '/jobs':
      return html`<${JobsList} go=${go} />`;
    case '/sources':
      return html`<${Connectors} kind="source" />`;
    case '/destinations':
      return html`<${Connectors} kind="destination" />`;
    case '/workflows':
      return html`<${Workflows} go=${go} />`;
    case '/notifications':
      return html`<${Notifications} />`;
    default:
      return html`<${Playground} />`;
  }
}

function App() {
  const [state, setState] = useState<'probing' | 'signin' | 'ready'>('probing');
  const [reason, setReason] = useState<string | undefined>();
  const [keyed, setKeyed] = useState(false);
  const [route, go] = useRoute();
  useEffect(() => {
    needsKey().then(
      (needed) => {
        setKeyed(needed);
        setState(needed && !hasKey() ? 'signin' : 'ready');
      },
      (err: Error) => {
        setReason(`The service did not answer: ${err.message}`);
        setState('signin');
      },
    );
    return onSignedOut((why) => {
      setKey(undefined);
      setReason(`Signed out: ${why}`);
      setState('signin');
    });
  }, []);
  if (state === 'probing') return html`<p class="muted">Connecting…</p>`;
  if (state === 'signin') return html`<${SignIn} reason=${reason} onDone=${() => (setReason(undefined), setState('ready'))} />`;
  const page = pageFor(route, go);
  const current = route.startsWith('/jobs/') ? '/jobs' : route;
  return html`<div class="shell">
    <header class="top"><span class="brand">Workflow service</span>
      <nav aria-label="main">${NAV.map(([p, label]) => html`<a href=${`#${p}`} aria-current=${current === p ? 'page' : undefined}>${label}${p === '/notifications' ? html` <${UnreadBadge} />` : null}</a>`)}
        <a href="docs">API reference</a></nav>
      ${keyed ? html`<button type="button" class="link" onClick=${() => (setKey(undefined), setReason(undefined), setState('signin'))}>Sign out</button>` : null}
    </header>
    <main>${page}</main>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app')!);
