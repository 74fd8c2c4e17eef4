// Elements → CSV for output_format=text/csv, like the open-source library's convert_to_csv: one row
// per element; columns type, element_id, text, then metadata flattened with '_' (coordinates_points,
// data_source_url, ...) in order of first appearance; columns empty for every row are dropped;
// lists are written as Python reprs (['eng']); QUOTE_MINIMAL quoting, '\n' line ends.
import type { Element } from '../elements';

/** Python's repr() for the JSON values metadata holds. */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v);
  if (typeof v === 'string') {
    const q = v.includes("'") && !v.includes('"') ? '"' : "'";
    const body = v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
    return q + (q === "'" ? body.replace(/'/g, "\\'") : body) + q;
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
  return String(v);
}

function flatten(obj: Record<string, unknown>, prefix: string, out: Map<string, unknown>, omit: Set<string>): void {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}_${k}` : k;
    if (omit.has(key)) continue;
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v as Record<string, unknown>, key, out, omit);
    else out.set(key, v);
  }
}

function csvCell(v: unknown): string {
  if (v === undefined || v === null) return '';
  const s = typeof v === 'string' ? v : Array.isArray(v) || typeof v === 'object' ? pyRepr(v) : typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function elementsToCsv(elements: Element[]): string {
  const omit = new Set(['data_source_record_locator']);
  const rows: Map<string, unknown>[] = [];
  const columns: string[] = [];
  const seen = new Set<string>();
  const add = (k: string) => { if (!seen.has(k)) { seen.add(k); columns.push(k); } };
  for (const el of elements) {
    const row = new Map<string, unknown>();
    row.set('type', el.type);
    row.set('element_id', el.element_id);
    row.set('text', el.text);
    if (el.embeddings) row.set('embeddings', el.embeddings);
    if (typeof el.checked === 'boolean') row.set('checked', el.checked);
    flatten(el.metadata as Record<string, unknown>, '', row, omit);
    for (const k of row.keys()) add(k);
    rows.push(row);
  }
  const keep = columns.filter((c) => rows.some((r) => r.get(c) !== undefined && r.get(c) !== null));
  const lines = [keep.map(csvCell).join(',')];
  for (const r of rows) lines.push(keep.map((c) => csvCell(r.get(c))).join(','));
  return `${lines.join('\n')}\n`;
}
