// `metadata.orig_elements` in the library's wire form: the source elements as dicts, serialised like
// Python's `json.dumps(..., sort_keys=True)` (", "/": " separators, non-ASCII as \uXXXX), deflated with
// zlib (level 6, the library's default) and base64-encoded. Despite the library's function name
// ("gzipped") the bytes are a zlib stream.
import { deflate, deflateSync, inflateSync, type ZlibOptions } from 'node:zlib';
import type { Element, ElementMetadata } from '../elements';

/** Python json.dumps(sort_keys=True, ensure_ascii=True) for JSON-compatible values. */
export function pyJsonDumps(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return pyString(v);
    case 'number':
      return pyNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(v)) {
        let s = '[';
        for (let i = 0; i < v.length; i++) s += (i ? ', ' : '') + pyJsonDumps(v[i]);
        return `${s}]`;
      }
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).sort();
      let s = '{';
      let first = true;
      for (const k of keys) {
        const x = o[k];
        if (x === undefined) continue;
        s += `${first ? '' : ', '}${pyString(k)}: ${pyJsonDumps(x)}`;
        first = false;
      }
      return `${s}}`;
    }
    default:
      return pyString(String(v));
  }
}

const NEEDS_ESCAPE = /[^\x20-\x21\x23-\x5b\x5d-\x7e]/;
const NON_ASCII = /[\u007f-\uffff]/g;

function pyString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  // -- JSON.stringify escapes quotes, backslashes and controls exactly as Python does (lowercase
  // -- \u00XX, short forms for \b\f\n\r\t); Python's ensure_ascii also escapes DEL and non-ASCII --
  return JSON.stringify(s).replace(NON_ASCII, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  return String(n).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** The dict form the library serialises: type, element_id, text, metadata (sparse), embeddings, checked. */
export function elementToDict(e: Element): Record<string, unknown> {
  const d: Record<string, unknown> = { type: e.type, element_id: e.element_id, text: e.text, metadata: sparseMetadata(e.metadata) };
  if (e.embeddings && e.embeddings.length) d.embeddings = e.embeddings;
  if (e.checked !== undefined) d.checked = e.checked;
  return d;
}

/** Metadata as `ElementMetadata.to_dict()` emits it: no null, empty list or empty dict; orig_elements removed. */
function sparseMetadata(md: ElementMetadata): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in md) {
    if (k === 'orig_elements') continue;
    let v = md[k];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    // -- the library rounds coordinates to 2 decimals before serialising orig_elements --
    if (k === 'coordinates') v = roundCoordinates(v as Record<string, unknown>);
    out[k] = v;
  }
  return out;
}

function roundCoordinates(c: Record<string, unknown>): Record<string, unknown> {
  const pts = c.points;
  if (!Array.isArray(pts)) return c;
  return { ...c, points: pts.map((p) => (Array.isArray(p) ? p.map((x) => (typeof x === 'number' ? Math.round(x * 100) / 100 : x)) : p)) };
}

function jsonBytes(elements: readonly Element[]): Buffer {
  return Buffer.from(pyJsonDumps(elements.map(elementToDict)), 'utf8');
}

/**
 * Per-call zlib set-up dominates for chunk-sized payloads: a window just big enough for the payload,
 * a matching hash size and an output buffer near the expected compressed size make each call
 * 1.5-2x cheaper. Any inflater reads the result (the window size is in the zlib header).
 */
function zlibOptions(size: number): ZlibOptions {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(size + 262))));
  const chunkSize = Math.min(16384, Math.max(512, 2 ** Math.ceil(Math.log2(size / 2 + 64))));
  return { windowBits, memLevel: windowBits >= 14 ? 8 : 5, chunkSize };
}

export function encodeOrigElements(elements: readonly Element[]): string {
  const bytes = jsonBytes(elements);
  return deflateSync(bytes, zlibOptions(bytes.length)).toString('base64');
}

/** As encodeOrigElements, compressing on the libuv thread pool. */
export function encodeOrigElementsAsync(elements: readonly Element[]): Promise<string> {
  const bytes = jsonBytes(elements);
  return new Promise((resolve, reject) => {
    deflate(bytes, zlibOptions(bytes.length), (err, out) => (err ? reject(err) : resolve(out.toString('base64'))));
  });
}

/** Sets `metadata.orig_elements` on each chunk from its sources, encoding each shared source list once. */
export function attachOrigElements(chunks: Element[], sources: Element[][]): void {
  let last: Element[] | undefined;
  let encoded = '';
  for (let i = 0; i < chunks.length; i++) {
    const src = sources[i]!;
    if (src !== last) {
      encoded = encodeOrigElements(src);
      last = src;
    }
    chunks[i]!.metadata.orig_elements = encoded;
  }
}

/**
 * As attachOrigElements with compression off the main thread (`inFlight` at a time): the event loop
 * stays responsive and compression overlaps the JSON work on machines with more than one core.
 */
export async function attachOrigElementsAsync(chunks: Element[], sources: Element[][], inFlight = 8): Promise<void> {
  const groups: [Element[], number[]][] = [];
  for (let i = 0; i < chunks.length; i++) {
    const src = sources[i]!;
    const g = groups[groups.length - 1];
    if (g && g[0] === src) g[1].push(i);
    else groups.push([src, [i]]);
  }
  let next = 0;
  const worker = async () => {
    while (next < groups.length) {
      const [src, idx] = groups[next++]!;
      const encoded = await encodeOrigElementsAsync(src);
      for (const i of idx) chunks[i]!.metadata.orig_elements = encoded;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, groups.length) }, worker));
}

/** Inverse of `encodeOrigElements` (accepts the library's output too). */
export function decodeOrigElements(b64: string, maxBytes = 64 * 1024 * 1024): Element[] {
  const json = inflateSync(Buffer.from(b64, 'base64'), { maxOutputLength: maxBytes }).toString('utf8');
  return JSON.parse(json) as Element[];
}
