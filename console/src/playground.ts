// The start page: drop a file, choose the strategy and chunking, see its elements (and, for PDFs and
// images, the page with each element's box coloured by type); compare two strategies side by side on the
// same file; download JSON or CSV. Everything goes through POST /general/v0/general.
import { useState } from 'preact/hooks';
import { call } from './api';
import { ElementDetail, ElementList, toCsv, type Element } from './elements';
import { download, ErrorBox, html, Section } from './ui';
import { BoxLayer } from './boxes';
import { PdfPage } from './pdf-page';

const STRATEGIES = ['auto', 'fast', 'hi_res', 'ocr_only', 'vlm'];
const CHUNKING = ['', 'basic', 'by_title', 'by_page', 'by_similarity'];
const IMAGE = /\.(png|jpe?g|bmp)$/i;
const PDF = /\.pdf$/i;

interface Settings {
  strategy: string;
  chunking: string;
  maxCharacters: string;
  coordinates: boolean;
}

interface Run {
  strategy: string;
  elements?: Element[];
  error?: unknown;
  ms?: number;
  warnings?: string | null;
}

async function partition(file: File, s: Settings, strategy: string): Promise<Run> {
  const form = new FormData();
  form.append('files', file, file.name);
  form.append('strategy', strategy);
  if (s.coordinates) form.append('coordinates', 'true');
  if (s.chunking) {
    form.append('chunking_strategy', s.chunking);
    if (s.maxCharacters) form.append('max_characters', s.maxCharacters);
  }
  const started = performance.now();
  try {
    const res = await call<Response>('general/v0/general', { method: 'POST', form, raw: true });
    const elements = (await res.json()) as Element[];
    return { strategy, elements, ms: Math.round(performance.now() - started), warnings: res.headers.get('x-partition-warnings') };
  } catch (error) {
    return { strategy, error };
  }
}

/** An image page with each element's box (coordinates requested). */
function ImagePage({ file, elements, selected, onSelect }: { file: File; elements: Element[]; selected?: string; onSelect: (id: string) => void }) {
  const [url] = useState(() => URL.createObjectURL(file));
  if (!elements.some((e) => e.metadata.coordinates)) return html`<p class="muted">No coordinates in this answer.</p>`;
  return html`<div class="page-view"><img src=${url} alt=${`page of ${file.name}`} /><${BoxLayer} elements=${elements} selected=${selected} onSelect=${onSelect} /></div>`;
}

function Result({ run, file, label }: { run: Run; file: File; label: string }) {
  const [selected, setSelected] = useState<string | undefined>();
  if (run.error) return html`<div class="result"><h3>${label}</h3><${ErrorBox} error=${run.error} /></div>`;
  if (!run.elements) return html`<div class="result"><h3>${label}</h3><p class="muted" aria-live="polite">Partitioning…</p></div>`;
  const element = run.elements.find((e) => e.element_id === selected);
  const base = file.name.replace(/\.[^.]+$/, '');
  return html`<div class="result">
    <header class="panel-head"><h3>${label} · ${run.ms} ms</h3>
      <div class="actions">
        <button type="button" onClick=${() => download(`${base}.${run.strategy}.json`, JSON.stringify(run.elements, null, 2), 'application/json')}>Download JSON</button>
        <button type="button" onClick=${() => download(`${base}.${run.strategy}.csv`, toCsv(run.elements!), 'text/csv')}>Download CSV</button>
      </div>
    </header>
    ${run.warnings ? html`<p class="warning" role="status">${run.warnings}</p>` : null}
    ${IMAGE.test(file.name) ? html`<${ImagePage} file=${file} elements=${run.elements} selected=${selected} onSelect=${setSelected} />` : null}
    ${PDF.test(file.name) && run.elements.some((e) => e.metadata.coordinates) ? html`<${PdfPage} file=${file} elements=${run.elements} selected=${selected} onSelect=${setSelected} />` : null}
    <div class="split">
      <${ElementList} elements=${run.elements} selected=${selected} onSelect=${setSelected} />
      <${ElementDetail} element=${element} />
    </div>
  </div>`;
}

export function Playground() {
  const [file, setFile] = useState<File | undefined>();
  const [settings, setSettings] = useState<Settings>({ strategy: 'auto', chunking: '', maxCharacters: '500', coordinates: true });
  const [compare, setCompare] = useState<string>('');
  const [runs, setRuns] = useState<Run[]>([]);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Settings>) => setSettings({ ...settings, ...patch });

  async function go(e: Event) {
    e.preventDefault();
    if (!file) return;
    const strategies = compare && compare !== settings.strategy ? [settings.strategy, compare] : [settings.strategy];
    setBusy(true);
    setRuns(strategies.map((strategy) => ({ strategy })));
    const done = await Promise.all(strategies.map((s) => partition(file, settings, s)));
    setRuns(done);
    setBusy(false);
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    const f = e.dataTransfer?.files[0];
    if (f) setFile(f);
  }

  return html`<${Section} title="Playground">
    <form class="playground-form" onSubmit=${go}>
      <label class="drop" onDragOver=${(e: DragEvent) => e.preventDefault()} onDrop=${onDrop}>
        <span>${file ? `${file.name} (${file.size.toLocaleString()} bytes)` : 'Drop a file here, or choose one'}</span>
        <input type="file" name="file" onChange=${(e: Event) => setFile((e.target as HTMLInputElement).files?.[0])} />
      </label>
      <label>Strategy
        <select name="strategy" value=${settings.strategy} onChange=${(e: Event) => set({ strategy: (e.target as HTMLSelectElement).value })}>
          ${STRATEGIES.map((s) => html`<option value=${s}>${s}</option>`)}
        </select></label>
      <label>Compare with
        <select name="compare" value=${compare} onChange=${(e: Event) => setCompare((e.target as HTMLSelectElement).value)}>
          <option value="">(none)</option>${STRATEGIES.map((s) => html`<option value=${s}>${s}</option>`)}
        </select></label>
      <label>Chunking
        <select name="chunking" value=${settings.chunking} onChange=${(e: Event) => set({ chunking: (e.target as HTMLSelectElement).value })}>
          ${CHUNKING.map((c) => html`<option value=${c}>${c || '(none)'}</option>`)}
        </select></label>
      ${settings.chunking ? html`<label>Max characters <input type="number" min="1" name="max_characters" value=${settings.maxCharacters} onInput=${(e: Event) => set({ maxCharacters: (e.target as HTMLInputElement).value })} /></label>` : null}
      <label class="check"><input type="checkbox" name="coordinates" checked=${settings.coordinates} onChange=${(e: Event) => set({ coordinates: (e.target as HTMLInputElement).checked })} /> Coordinates</label>
      <button type="submit" class="primary" disabled=${!file || busy}>${busy ? 'Partitioning…' : 'Partition'}</button>
    </form>
    ${file && runs.length ? html`<div class=${runs.length > 1 ? 'compare' : ''}>${runs.map((r) => html`<${Result} key=${r.strategy} run=${r} file=${file} label=${`strategy ${r.strategy}`} />`)}</div>` : null}
  <//>`;
}
