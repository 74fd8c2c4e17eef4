// Helpers shared by the format partitioners: text decoding, bounded zip reading, XML/HTML DOM access,
// table HTML rendering. (parent_id and category_depth of titles: ../hierarchy.ts, run by the pipeline.)
import iconv from 'iconv-lite';
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Document, Element as DomElement } from 'domhandler';
import { BadRequest, DomainError, UnprocessableDocument } from '../../../errors';
import { capExceeded, MAX_XML_DEPTH, MAX_XML_NODES } from '../limits';
import { escapeHtml } from '../table-html';

// ---------- text decoding ----------

/** Decodes text: the caller's encoding when given, else BOM, valid UTF-8, then cp1252. */
export function decodeText(data: Uint8Array, encoding?: string): string {
  if (encoding) {
    const enc = encoding.trim().toLowerCase();
    // utf-8 is what clients send by default; content that is not valid UTF-8 is then detected instead
    if (/^utf-?8$/.test(enc)) return detectAndDecode(data);
    if (!iconv.encodingExists(enc)) throw new BadRequest(`unsupported encoding: ${encoding}`);
    return stripBom(iconv.decode(Buffer.from(data.buffer, data.byteOffset, data.byteLength), enc));
  }
  return detectAndDecode(data);
}

export function detectAndDecode(data: Uint8Array, fallback = 'windows-1252'): string {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.subarray(3).toString('utf8');
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return iconv.decode(buf.subarray(2), 'utf-16le');
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return iconv.decode(buf.subarray(2), 'utf-16be');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return iconv.decode(buf, fallback);
  }
}

function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

export function encodingExists(enc: string): boolean {
  return iconv.encodingExists(enc);
}

export function decodeWith(data: Uint8Array, enc: string): string {
  return stripBom(iconv.decode(Buffer.from(data.buffer, data.byteOffset, data.byteLength), enc));
}

// ---------- zip ----------

export { readZip, ZIP_LIMITS, type ZipLimits } from './zip';

export function zipText(files: Map<string, Uint8Array>, name: string): string | undefined {
  const d = files.get(name);
  return d ? Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('utf8') : undefined;
}

// ---------- DOM ----------

export type DomNode = ChildNode;
export type { DomElement };

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
function decodeXmlEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[e] ?? m;
  });
}

const TAG_RE = /<(\/?)([^\s\/>]+)((?:\s+[^\s=\/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTR_RE = /([^\s=\/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** What scanXml reports, in document order. */
export interface XmlSink {
  open(name: string, attribs: Record<string, string>, selfClosing: boolean): void;
  close(name: string): void;
  /** Character data, entities decoded (CDATA as is); may come in several pieces. */
  text(data: string): void;
}

/**
 * A small, fast XML tokenizer (the base of parseXml, and used directly to stream large parts such as
 * spreadsheet sheets without building a tree). Comments, processing instructions and doctypes are
 * skipped (so no DTD entity is ever expanded); CDATA becomes text; malformed markup is kept as text.
 * Nesting depth and the number of tags are capped (limits.ts) as they are read: `maxNodes` tags, a
 * tree's cap unless the caller streams.
 */
export function scanXml(xml: string, sink: XmlSink, maxNodes = MAX_XML_NODES): void {
  const n = xml.length;
  let i = 0;
  let depth = 0;
  let nodes = 0;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) {
      sink.text(decodeXmlEntities(xml.slice(i)));
      break;
    }
    if (lt > i) sink.text(decodeXmlEntities(xml.slice(i, lt)));
    const c1 = xml.charCodeAt(lt + 1);
    if (c1 === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        const e = xml.indexOf('-->', lt + 4);
        i = e < 0 ? n : e + 3;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        const e = xml.indexOf(']]>', lt + 9);
        sink.text(xml.slice(lt + 9, e < 0 ? n : e));
        i = e < 0 ? n : e + 3;
      } else {
        const e = xml.indexOf('>', lt + 2);
        i = e < 0 ? n : e + 1;
      }
      continue;
    }
    if (c1 === 63 /* ? */) {
      const e = xml.indexOf('?>', lt + 2);
      i = e < 0 ? n : e + 2;
      continue;
    }
    if (xml.indexOf('>', lt) < 0) {
      sink.text(decodeXmlEntities(xml.slice(lt)));
      break;
    }
    TAG_RE.lastIndex = lt;
    const m = TAG_RE.exec(xml);
    if (!m) {
      sink.text('<');
      i = lt + 1;
      continue;
    }
    i = lt + m[0].length;
    const name = m[2]!;
    if (m[1]) {
      if (depth > 0) depth--;
      sink.close(name);
      continue;
    }
    if (++nodes > maxNodes) throw capExceeded('XML: the number of elements', maxNodes);
    const attribs: Record<string, string> = {};
    if (m[3]) {
      ATTR_RE.lastIndex = 0;
      let a: RegExpExecArray | null;
      while ((a = ATTR_RE.exec(m[3])) !== null) attribs[a[1]!] = decodeXmlEntities(a[2] ?? a[3] ?? '');
    }
    const selfClosing = Boolean(m[4]);
    if (!selfClosing && ++depth > MAX_XML_DEPTH) throw capExceeded('XML: element nesting', MAX_XML_DEPTH, 'levels');
    sink.open(name, attribs, selfClosing);
  }
}

/**
 * The XML as a tree of the subset of the domhandler node shape this module's helpers use (about 3x
 * faster than building a domhandler DOM on multi-megabyte WordprocessingML): tags ({type:'tag', name,
 * attribs, children}) and text ({type:'text', data}).
 */
export function parseXml(xml: string): Document {
  type Node = { type: string; name?: string; attribs?: Record<string, string>; children?: Node[]; data?: string };
  const root: Node = { type: 'root', children: [] };
  const stack: Node[] = [root];
  scanXml(xml, {
    text(data) {
      if (!data) return;
      const kids = stack[stack.length - 1]!.children!;
      const last = kids[kids.length - 1];
      if (last && last.type === 'text') last.data += data;
      else kids.push({ type: 'text', data });
    },
    open(name, attribs, selfClosing) {
      const el: Node = { type: 'tag', name, attribs, children: [] };
      stack[stack.length - 1]!.children!.push(el);
      if (!selfClosing) stack.push(el);
    },
    close(name) {
      // close the nearest open element of that name (tolerates unbalanced markup)
      for (let k = stack.length - 1; k > 0; k--) {
        if (stack[k]!.name === name) {
          stack.length = k;
          break;
        }
      }
    },
  });
  return root as unknown as Document;
}


export function parseHtml(html: string): Document {
  return parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
}

export function isTag(n: DomNode | Document): n is DomElement {
  return n.type === 'tag' || n.type === 'script' || n.type === 'style';
}

/** A qualified name without its namespace prefix ("table:table-cell" -> "table-cell"). */
export const unprefixed = (name: string): string => name.slice(name.indexOf(':') + 1);

/** A spreadsheet column's letters as its zero-based index ("A" -> 0, "AB" -> 27). */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** Tag name without namespace prefix ("w:p" -> "p"). */
export function localName(el: DomElement): string {
  const n = el.name;
  const i = n.indexOf(':');
  return i >= 0 ? n.slice(i + 1) : n;
}

export function childElements(el: DomElement | Document, name?: string): DomElement[] {
  const out: DomElement[] = [];
  for (const c of el.children) if (isTag(c) && (!name || c.name === name || localName(c) === name)) out.push(c);
  return out;
}

export function firstChild(el: DomElement | Document, name: string): DomElement | undefined {
  for (const c of el.children) if (isTag(c) && (c.name === name || localName(c) === name)) return c;
  return undefined;
}

/** All descendant elements with the given (local or qualified) name, document order. */
export function descendants(el: DomElement | Document, name: string): DomElement[] {
  const out: DomElement[] = [];
  const stack: DomNode[] = [...el.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (n.name === name || localName(n) === name) out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

export function textContent(n: DomNode | Document): string {
  if (n.type === 'text' || n.type === 'cdata') {
    if (n.type === 'text') return n.data;
    return n.children.map(textContent).join('');
  }
  if ('children' in n && Array.isArray(n.children)) return (n.children as DomNode[]).map(textContent).join('');
  return '';
}

export function attr(el: DomElement, name: string): string | undefined {
  const v = el.attribs[name];
  if (v !== undefined) return v;
  // match by local attribute name ("w:val" for "val")
  for (const [k, val] of Object.entries(el.attribs)) {
    const i = k.indexOf(':');
    if (i >= 0 && k.slice(i + 1) === name) return val;
  }
  return undefined;
}

// ---------- tables and text ----------

export { escapeHtml };

/** Collapses runs of ASCII whitespace (not NBSP, as the library keeps it) and trims. */
export function normalizeSpace(s: string): string {
  return s.replace(/[ \t\n\r\f\v]+/g, ' ').trim();
}

export function corrupt(kind: string, err: unknown): never {
  // typed errors (a cap's 413 included) keep their status
  if (err instanceof DomainError) throw err;
  const msg = err instanceof Error ? err.message : String(err);
  throw new UnprocessableDocument(`${kind}: cannot read the document (${msg})`);
}

// ---------- Office binaries and style sheets ----------

/** Each byte's character in Windows-1252, the 8-bit text of Office binaries (bytes it leaves undefined stay as they are). */
const WINDOWS_1252 = [...iconv.decode(Buffer.from(Array.from({ length: 256 }, (_, i) => i)), 'windows-1252')].map((c, i) => (c === '\ufffd' ? i : c.charCodeAt(0)));
export const windows1252 = (byte: number): number => WINDOWS_1252[byte] ?? byte;

/** How many bases a style chain is followed through (a damaged file's chain may loop). */
const MAX_STYLE_CHAIN = 12;

/** The first value `pick` finds on a style or, failing it, along the chain of styles it is based on. */
export function alongStyleChain<K, S, T>(start: K | undefined, get: (key: K) => S | undefined, base: (style: S) => K | undefined, pick: (style: S) => T | undefined): T | undefined {
  let cur = start;
  for (let i = 0; cur !== undefined && i < MAX_STYLE_CHAIN; i++) {
    const s = get(cur);
    if (!s) return undefined;
    const v = pick(s);
    if (v !== undefined) return v;
    cur = base(s);
  }
  return undefined;
}
