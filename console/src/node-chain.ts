// The node-chain editor of a custom workflow: one card per node (name, type, subtype, settings as
// key/value rows), moved up or down, removed, and a node added with the types the chain allows next.
// The catalogue (subtypes per type, which type may follow which) is the service's own, read from its
// OpenAPI document (`x-subtypes`, `x-allowed-next`); setting names are suggested from the partition
// endpoint's form fields. The service validates the chain: its 422 names the node and field.
import { useEffect, useState } from 'preact/hooks';
import { openApi } from './openapi';
import type { JsonSchema } from './schema-form';
import { html } from './ui';

export interface ChainNode {
  id?: string;
  name: string;
  type: string;
  subtype: string;
  settings?: Record<string, unknown> | null;
}

export interface NodeCatalog {
  subtypes: Record<string, string[]>;
  allowedNext: Record<string, string[]>;
  /** Setting names to suggest, by node type. */
  settings: Record<string, string[]>;
}

const DEFAULT_NAMES: Record<string, string> = { partition: 'Partitioner', prompter: 'Enrichment', chunk: 'Chunker', embed: 'Embedder' };
/** Form fields of the partition endpoint that are chunking settings (the rest are partition settings). */
const CHUNK_FIELD = /^(chunking_strategy|max_characters|new_after_n_chars|overlap|overlap_all|combine_under_n_chars|multipage_sections|similarity_threshold|include_orig_elements|contextual_)/;

let catalog: Promise<NodeCatalog> | undefined;

/** The node catalogue from the OpenAPI document (read once). */
export function nodeCatalog(): Promise<NodeCatalog> {
  return (catalog ??= openApi().then((doc) => {
    const out: NodeCatalog = { subtypes: {}, allowedNext: {}, settings: { partition: [], chunk: [], prompter: ['model', 'api_key', 'base_url', 'prompt'], embed: ['model_name', 'api_key', 'batch_size'] } };
    let form: string[] = [];
    // -- the node shape sits inside the workflow bodies (a list's items): every schema object is visited --
    const visit = (node: unknown, depth: number): void => {
      if (!node || typeof node !== 'object' || depth > 12) return;
      const props = (node as JsonSchema).properties as Record<string, JsonSchema & { 'x-subtypes'?: Record<string, string[]>; 'x-allowed-next'?: Record<string, string[]> }> | undefined;
      if (props?.subtype?.['x-subtypes']) out.subtypes = props.subtype['x-subtypes'];
      if (props?.type?.['x-allowed-next']) out.allowedNext = props.type['x-allowed-next'];
      // -- the partition endpoint's multipart form: its fields are the partition and chunk settings --
      if (props?.files && props.strategy) form = Object.keys(props).filter((n) => n !== 'files');
      for (const v of Object.values(node)) visit(v, depth + 1);
    };
    visit(doc.components.schemas, 0);
    for (const name of form) (CHUNK_FIELD.test(name) ? out.settings.chunk! : out.settings.partition!).push(name);
    return out;
  }));
}

/** A setting value as typed: JSON when it reads as JSON (numbers, booleans, lists, objects), else text. */
export function parseSetting(raw: string): unknown {
  const t = raw.trim();
  if (/^(-?\d+(\.\d+)?|true|false|null|\[.*\]|\{.*\})$/s.test(t)) {
    try {
      return JSON.parse(t);
    } catch {
      return raw;
    }
  }
  return raw;
}

const showSetting = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function NodeChainEditor({ nodes, onChange }: { nodes: ChainNode[]; onChange: (nodes: ChainNode[]) => void }) {
  const [cat, setCat] = useState<NodeCatalog>();
  useEffect(() => void nodeCatalog().then(setCat, () => undefined), []);
  const update = (i: number, patch: Partial<ChainNode>) => onChange(nodes.map((n, j) => (j === i ? { ...n, ...patch } : n)));
  const move = (i: number, by: number) => {
    const next = [...nodes];
    const [n] = next.splice(i, 1);
    next.splice(i + by, 0, n!);
    onChange(next);
  };
  const remove = (i: number) => onChange(nodes.filter((_, j) => j !== i));
  const last = nodes.length ? nodes[nodes.length - 1]!.type : 'start';
  const addable = cat?.allowedNext[last] ?? (nodes.length ? [] : ['partition']);
  const add = (type: string) => onChange([...nodes, { name: DEFAULT_NAMES[type] ?? type, type, subtype: cat?.subtypes[type]?.[0] ?? '', settings: {} }]);
  const types = Object.keys(cat?.subtypes ?? DEFAULT_NAMES);

  return html`<div class="node-chain" aria-label="Workflow nodes">
    ${nodes.map((n, i) => {
      const settings = Object.entries(n.settings ?? {});
      const setSettings = (entries: [string, unknown][]) => update(i, { settings: Object.fromEntries(entries) });
      const listId = `node-${i}-settings`;
      return html`<fieldset class="node-card" aria-label=${`Node ${i + 1}: ${n.name}`}>
        <legend>${i + 1}. ${n.type}</legend>
        <div class="node-row">
          <label>Name<input aria-label="Node name" value=${n.name} onInput=${(e: Event) => update(i, { name: (e.target as HTMLInputElement).value })} /></label>
          <label>Type<select aria-label="Node type" value=${n.type} onChange=${(e: Event) => update(i, { type: (e.target as HTMLSelectElement).value, subtype: cat?.subtypes[(e.target as HTMLSelectElement).value]?.[0] ?? '' })}>
            ${types.map((t) => html`<option value=${t}>${t}</option>`)}</select></label>
          <label>Subtype<select aria-label="Node subtype" value=${n.subtype} onChange=${(e: Event) => update(i, { subtype: (e.target as HTMLSelectElement).value })}>
            ${[...new Set([n.subtype, ...(cat?.subtypes[n.type] ?? [])])].filter(Boolean).map((s) => html`<option value=${s}>${s}</option>`)}</select></label>
          <span class="node-moves">
            <button type="button" title="Move up" aria-label="Move up" disabled=${i === 0} onClick=${() => move(i, -1)}>↑</button>
            <button type="button" title="Move down" aria-label="Move down" disabled=${i === nodes.length - 1} onClick=${() => move(i, 1)}>↓</button>
            <button type="button" title="Remove node" aria-label="Remove node" onClick=${() => remove(i)}>✕</button>
          </span>
        </div>
        <datalist id=${listId}>${(cat?.settings[n.type] ?? []).map((s) => html`<option value=${s}></option>`)}</datalist>
        <table class="settings"><tbody>
          ${settings.map(([k, v], r) => html`<tr>
            <td><input aria-label="Setting name" list=${listId} value=${k} onChange=${(e: Event) => setSettings(settings.map((s, q) => (q === r ? [(e.target as HTMLInputElement).value, s[1]] : s)))} /></td>
            <td><input aria-label=${`Value of ${k}`} value=${showSetting(v)} onChange=${(e: Event) => setSettings(settings.map((s, q) => (q === r ? [s[0], parseSetting((e.target as HTMLInputElement).value)] : s)))} /></td>
            <td><button type="button" aria-label=${`Remove setting ${k}`} onClick=${() => setSettings(settings.filter((_, q) => q !== r))}>✕</button></td>
          </tr>`)}
        </tbody></table>
        <button type="button" class="add-setting" onClick=${() => setSettings([...settings, [`setting_${settings.length + 1}`, '']])}>+ Setting</button>
      </fieldset>`;
    })}
    <div class="actions">${addable.map((t) => html`<button type="button" onClick=${() => add(t)}>+ ${t} node</button>`)}</div>
  </div>`;
}
