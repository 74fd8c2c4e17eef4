// The elements of a partition: a list (type, page, text), the selected element's JSON, tables
// rendered from their sanitised text_as_html, and a chunk's orig_elements expanded (base64 zlib JSON,
// inflated with the browser's DecompressionStream).
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './ui';
import { sanitizedTable } from './sanitize';

export interface Element {
  type: string;
  element_id: string;
  text: string;
  metadata: Record<string, unknown> & { page_number?: number; text_as_html?: string; orig_elements?: string };
}

export async function inflateOrig(b64: string): Promise<Element[]> {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
  return JSON.parse(await new Response(stream).text()) as Element[];
}

function TableView({ markup }: { markup: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.replaceChildren(sanitizedTable(markup));
  }, [markup]);
  return html`<div class="table-view" ref=${ref}></div>`;
}

function OrigElements({ b64 }: { b64: string }) {
  const [items, setItems] = useState<Element[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    inflateOrig(b64).then(setItems, (e: Error) => setError(`orig_elements could not be read: ${e.message}`));
  }, [b64]);
  if (error) return html`<p class="muted">${error}</p>`;
  if (!items) return html`<p class="muted">Reading orig_elements…</p>`;
  return html`<details open><summary>${items.length} original elements</summary>
    <ol class="orig">${items.map((e) => html`<li><span class=${`badge t-${e.type}`}>${e.type}</span> ${e.text.slice(0, 300)}</li>`)}</ol></details>`;
}

export function ElementDetail({ element }: { element: Element | undefined }) {
  if (!element) return html`<p class="muted">Select an element to see its JSON.</p>`;
  const { orig_elements, ...meta } = element.metadata;
  return html`<div class="detail">
    ${element.metadata.text_as_html ? html`<${TableView} markup=${element.metadata.text_as_html} />` : null}
    ${orig_elements ? html`<${OrigElements} b64=${orig_elements} />` : null}
    <pre class="json" tabindex="0" aria-label="element JSON">${JSON.stringify({ ...element, metadata: { ...meta, ...(orig_elements ? { orig_elements: `(${orig_elements.length} base64 characters)` } : {}) } }, null, 2)}</pre>
  </div>`;
}

export function ElementList({ elements, selected, onSelect }: { elements: Element[]; selected?: string; onSelect: (id: string) => void }) {
  const counts = new Map<string, number>();
  for (const e of elements) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  return html`<div class="elements">
    <p class="muted">${elements.length} elements: ${[...counts].map(([t, n]) => `${n} ${t}`).join(', ')}</p>
    <ol class="element-list" aria-label="elements">
      ${elements.map(
        (e) => html`<li key=${e.element_id}>
          <button type="button" class=${e.element_id === selected ? 'el selected' : 'el'} aria-pressed=${e.element_id === selected} onClick=${() => onSelect(e.element_id)}>
            <span class=${`badge t-${e.type}`}>${e.type}</span>
            ${e.metadata.page_number ? html`<span class="page">p.${e.metadata.page_number}</span>` : null}
            <span class="text">${e.text.slice(0, 240) || '(no text)'}</span>
          </button>
        </li>`,
      )}
    </ol>
  </div>`;
}

export function toCsv(elements: Element[]): string {
  const q = (v: unknown) => `"${String(v ?? '').replace(/"/g, '""')}"`;
  const rows = elements.map((e) => [e.type, e.element_id, e.metadata.page_number ?? '', e.metadata.filename ?? '', e.text].map(q).join(','));
  return ['type,element_id,page_number,filename,text', ...rows].join('\r\n');
}
