// `metadata.orig_elements` in the library's wire form: the source elements as dicts, serialised like
// Python's `json.dumps(..., sort_keys=True)` (", "/": " separators, non-ASCII as \uXXXX), deflated with
// zlib (level 6, the library's default) and base64-encoded. Despite the library's function name
// ("gzipped") the bytes are a zlib stream.
import { inflateSync } from 'node:zlib';
import type { Element, ElementMetadata } from '../elements';
import { deflateJsonToBase64, deflateJsonsToBase64 } from './deflate-pool';

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

/**
 * One element in the dict form the library serialises (`Element.to_dict()`: type, element_id, text,
 * sparse metadata, embeddings, checked), written straight to Python-style JSON with sorted keys.
 */
export function dumpElement(e: Element): string {
  let s = '{';
  let sep = '';
  if (e.checked !== undefined) {
    s += `"checked": ${pyJsonDumps(e.checked)}`;
    sep = ', ';
  }
  s += `${sep}"element_id": ${pyJsonDumps(e.element_id)}`;
  if (e.embeddings && e.embeddings.length) s += `, "embeddings": ${pyJsonDumps(e.embeddings)}`;
  s += `, "metadata": ${dumpMetadata(e.metadata)}`;
  if (e.text !== undefined) s += `, "text": ${pyJsonDumps(e.text)}`;
  if (e.type !== undefined) s += `, "type": ${pyJsonDumps(e.type)}`;
  return `${s}}`;
}

/** Metadata as `ElementMetadata.to_dict()` emits it: no null, empty list or empty dict; orig_elements removed. */
function dumpMetadata(md: ElementMetadata): string {
  const keys = Object.keys(md).sort();
  let s = '{';
  let sep = '';
  for (const k of keys) {
    if (k === 'orig_elements') continue;
    let v = md[k];
    if (v === undefined || v === null) continue;
    if (typeof v === 'object') {
      if (Array.isArray(v) ? v.length === 0 : isEmptyObject(v)) continue;
      // -- the library rounds coordinates to 2 decimals before serialising orig_elements --
      if (k === 'coordinates') v = roundCoordinates(v as Record<string, unknown>);
    }
    s += `${sep}${pyString(k)}: ${pyJsonDumps(v)}`;
    sep = ', ';
  }
  return `${s}}`;
}

function isEmptyObject(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

function roundCoordinates(c: Record<string, unknown>): Record<string, unknown> {
  const pts = c.points;
  if (!Array.isArray(pts)) return c;
  return { ...c, points: pts.map((p) => (Array.isArray(p) ? p.map((x) => (typeof x === 'number' ? Math.round(x * 100) / 100 : x)) : p)) };
}

/** The JSON the library compresses: `json.dumps([e.to_dict() for e in elements], sort_keys=True)`. Pure ASCII. */
export function originalsJson(elements: readonly Element[]): string {
  let s = '[';
  for (let i = 0; i < elements.length; i++) s += (i ? ', ' : '') + dumpElement(elements[i]!);
  return `${s}]`;
}

export function encodeOrigElements(elements: readonly Element[]): string {
  return deflateJsonToBase64(originalsJson(elements));
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
 * As attachOrigElements with the compression on worker threads (deflate-pool.ts): the JSON of the next
 * chunks is built while earlier ones are being deflated, and the event loop stays free meanwhile.
 */
export async function attachOrigElementsAsync(chunks: Element[], sources: Element[][]): Promise<void> {
  const groups: [Element[], number[]][] = [];
  for (let i = 0; i < chunks.length; i++) {
    const src = sources[i]!;
    const g = groups[groups.length - 1];
    if (g && g[0] === src) g[1].push(i);
    else groups.push([src, [i]]);
  }
  const encoded = await deflateJsonsToBase64((function* () {
    for (const [src] of groups) yield originalsJson(src);
  })(), groups.length);
  groups.forEach(([, idx], g) => {
    for (const i of idx) chunks[i]!.metadata.orig_elements = encoded[g]!;
  });
}

/** Inverse of `encodeOrigElements` (accepts the library's output too). */
export function decodeOrigElements(b64: string, maxBytes = 64 * 1024 * 1024): Element[] {
  const json = inflateSync(Buffer.from(b64, 'base64'), { maxOutputLength: maxBytes }).toString('utf8');
  return JSON.parse(json) as Element[];
}
