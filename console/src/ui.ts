// Shared pieces of the console: the template tag (htm over Preact: no JSX step), the error box that
// shows an API error's detail (422 items one per line), and small helpers.
import { h, type ComponentChildren } from 'preact';
import htm from 'htm';
import { ApiError } from './api';

export const html = htm.bind(h);

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ApiError) {
    const items = Array.isArray(error.detail) ? error.detail : undefined;
    return html`<div class="error" role="alert">
      <strong>${error.status ? `${error.status}: ` : ''}</strong>
      ${items ? html`<ul>${items.map((d) => html`<li><code>${d.loc.join('.')}</code> ${d.msg}</li>`)}</ul>` : String(error.detail)}
    </div>`;
  }
  return html`<div class="error" role="alert">${(error as Error).message ?? String(error)}</div>`;
}

export function Section({ title, children, actions }: { title: string; children?: ComponentChildren; actions?: ComponentChildren }) {
  return html`<section class="panel"><header class="panel-head"><h2>${title}</h2><div class="actions">${actions}</div></header>${children}</section>`;
}

/** A file download of data made in the page (a Blob URL, revoked after the click). */
export function download(name: string, data: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function when(iso: unknown): string {
  if (typeof iso !== 'string' || !iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
