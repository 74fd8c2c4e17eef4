// A PDF page drawn by pdf.js (loaded on demand: its chunk and worker are not part of the first load)
// with each element's box on it, coloured by type; a click on a box selects its element. The page's
// own script never runs: pdf.js draws the page only (no scripting, no XFA forms).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Element } from './elements';
import { html } from './ui';
import { BoxLayer } from './boxes';

type PdfJs = typeof import('pdfjs-dist');
let pdfjs: Promise<PdfJs> | undefined;
function loadPdfJs(): Promise<PdfJs> {
  const at = (name: string) => new URL(document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '', window.location.href).href;
  return (pdfjs ??= (import(/* the page names the built module */ at('pdf-js')) as Promise<PdfJs>).then((m) => {
    m.GlobalWorkerOptions.workerSrc = at('pdf-worker');
    return m;
  }));
}

export function PdfPage({ file, elements, selected, onSelect }: { file: File; elements: Element[]; selected?: string; onSelect: (id: string) => void }) {
  const pages = [...new Set(elements.map((e) => e.metadata.page_number ?? 1))].sort((a, b) => a - b);
  const [page, setPage] = useState(pages[0] ?? 1);
  const [size, setSize] = useState<{ w: number; h: number } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const chosen = elements.find((e) => e.element_id === selected);
  useEffect(() => {
    if (chosen?.metadata.page_number && chosen.metadata.page_number !== page) setPage(chosen.metadata.page_number);
  }, [selected]);
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const lib = await loadPdfJs();
      const task = lib.getDocument({ data: new Uint8Array(await file.arrayBuffer()), enableXfa: false });
      const doc = await task.promise;
      const p = await doc.getPage(page);
      const viewport = p.getViewport({ scale: 1.5 });
      const c = canvas.current;
      if (!c || cancelled) return;
      c.width = viewport.width;
      c.height = viewport.height;
      await p.render({ canvas: c, viewport }).promise;
      if (!cancelled) setSize({ w: viewport.width, h: viewport.height });
      await task.destroy();
    })().catch((e: Error) => !cancelled && setError(`The page could not be drawn: ${e.message}`));
    return () => {
      cancelled = true;
    };
  }, [file, page]);
  const onPage = elements.filter((e) => (e.metadata.page_number ?? 1) === page);
  return html`<div class="pdf-view">
    ${pages.length > 1 ? html`<label>Page <select value=${page} onChange=${(e: Event) => setPage(Number((e.target as HTMLSelectElement).value))}>${pages.map((n) => html`<option value=${n}>${n}</option>`)}</select></label>` : null}
    ${error ? html`<p class="warning">${error}</p>` : null}
    <div class="page-view" data-testid="pdf-page" data-drawn=${size ? 'yes' : 'no'}>
      <canvas ref=${canvas} aria-label=${`page ${page} of ${file.name}`}></canvas>
      ${size ? html`<${BoxLayer} elements=${onPage} selected=${selected} onSelect=${onSelect} />` : null}
    </div>
  </div>`;
}
