// The start page: drop a file, choose the strategy and chunking, see its elements (and, for images,
// the page with each element's box coloured by type); compare two strategies side by side on the
// same file; download JSON or CSV. Everything goes through POST /general/v0/general.
import { useState } from 'preact/hooks';
import { call } from './api';
import { ElementDetail, ElementList, toCsv, type Element } from './elements';
import { download, ErrorBox, html, Section } from './ui';

const STRATEGIES = ['auto', 'fast', 'hi_res', 'ocr_only', 'vlm'];
const CHUNKING = ['', 'basic', 'by_title', 'by_page', 'by_similarity'];
const IMAGE = /\.(png|jpe?g|tiff?|bmp|heic)$/i;

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

const COLOURS: Record<string, string> = { Title: '#c2410c', NarrativeText: '#1d4ed8', ListItem: '#047857', Table: '#7c3aed', Image: '#be185d', Header: '#525252', Footer: '#525252' };

/** An image page with each element's box (coordinates requested), coloured by type. */
function PageWithBoxes({ file, elements, selected, onSelect }: { file: File; elements: Element[]; selected?: string; onSelect: (id: string) => void }) {
  const [url] = useState(() => URL.createObjectURL(file));
  const boxed = elements.filter((e) => (e.metadata.coordinates as { points?: number[][] } | undefined)?.points?.length);
  if (!boxed.length) return html`<p class="muted">No coordinates in this answer.</p>`;
  const c0 = boxed[0]!.metadata.coordinates as { layout_width: number; layout_height: number };
  return html`<div class="page-view">
    <img src=${url} alt=${`page of ${file.name}`} />
    <svg viewBox=${`0 0 ${c0.layout_width} ${c0.layout_height}`} preserveAspectRatio="none" aria-label="element boxes">
      ${boxed.map((e) => {
        const pts = (e.metadata.coordinates as { points: number[][] }).points;
        const xs = pts.map((p) => p[0]!);
        const ys = pts.map((p) => p[1]!);
        const [x, y] = [Math.min(...xs), Math.min(...ys)];
        return html`<rect key=${e.element_id} x=${x} y=${y} width=${Math.max(...xs) - x} height=${Math.max(...ys) - y}
          class=${e.element_id === selected ? 'box selected' : 'box'} stroke=${COLOURS[e.type] ?? '#0f766e'} onClick=${() => onSelect(e.element_id)}><title>${e.type}</title></rect>`;
      })}
    </svg>
  </div>`;
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
    ${IMAGE.test(file.name) ? html`<${PageWithBoxes} file=${file} elements=${run.elements} selected=${selected} onSelect=${setSelected} />` : null}
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
