// What a slide's placeholders inherit from their slide layout and, beneath it, the slide master: the
// position of a placeholder that has none of its own (for reading order), and whether a paragraph is
// bulleted when it says nothing itself. PowerPoint resolves a paragraph's bullet from the paragraph
// (a:pPr), the shape's a:lstStyle, the matching layout placeholder's, the matching master placeholder's,
// then the master's text styles (p:titleStyle for titles, p:bodyStyle for every other placeholder);
// text boxes that are not placeholders take no bullet from the master. So the body of a "Title and
// Content" slide is a list though its paragraphs carry no a:buChar.
import { childElements, firstChild, isTag, localName, parseXml, zipText, type DomElement } from './common';
import { partRelationships } from './ooxml-package';

export type Rels = Map<string, string>;

export function readRels(files: Map<string, Uint8Array>, partPath: string): Rels {
  return new Map(partRelationships(files, partPath).map((r) => [r.id, r.target]));
}

export function findFirst(nodes: DomElement[], name: string): DomElement | undefined {
  for (const n of nodes) {
    if (localName(n) === name) return n;
    const r = findFirst(n.children.filter(isTag), name);
    if (r) return r;
  }
  return undefined;
}

function ownPosition(shape: DomElement): [number, number] | undefined {
  const name = localName(shape);
  const pr =
    name === 'graphicFrame' ? firstChild(shape, 'xfrm') : firstChild(shape, name === 'grpSp' ? 'grpSpPr' : 'spPr');
  const xfrm = pr && localName(pr) === 'xfrm' ? pr : pr ? firstChild(pr, 'xfrm') : undefined;
  const off = xfrm ? firstChild(xfrm, 'off') : undefined;
  if (!off) return undefined;
  return [Number(off.attribs['y'] ?? 0) || 0, Number(off.attribs['x'] ?? 0) || 0];
}

function placeholder(shape: DomElement): DomElement | undefined {
  const nv = firstChild(shape, 'nvSpPr');
  const nvPr = nv ? firstChild(nv, 'nvPr') : undefined;
  return nvPr ? firstChild(nvPr, 'ph') : undefined;
}

/** Placeholder keys (idx, then type; no type is a body placeholder) matched against the layout and master. */
function placeholderKeys(shape: DomElement): string[] {
  const ph = placeholder(shape);
  if (!ph) return [];
  const keys: string[] = [];
  if (ph.attribs['idx'] !== undefined) keys.push(`idx:${ph.attribs['idx']}`);
  keys.push(`type:${typeKey(ph.attribs['type'])}`);
  return keys;
}

const typeKey = (type: string | undefined): string => (type === 'ctrTitle' ? 'title' : type ?? 'body');

export interface Inherited {
  positions: Map<string, [number, number]>;
  /** The a:lstStyle of the layout's placeholders (by idx and type), then of the master's (by type). */
  lstStyles: Map<string, DomElement[]>;
  titleStyle?: DomElement;
  bodyStyle?: DomElement;
}

export const NOTHING_INHERITED: Inherited = { positions: new Map(), lstStyles: new Map() };

/** The placeholders of a slide's layout and master, and the master's text styles. */
export function slideInheritance(files: Map<string, Uint8Array>, slideRels: Rels, cache?: Map<string, Inherited>): Inherited {
  const layout = [...slideRels.values()].find((t) => /slideLayouts\/[^/]+\.xml$/.test(t));
  // slides share a few layouts: each is read once a deck (a 300-slide deck read its layout 300 times)
  const known = layout ? cache?.get(layout) : undefined;
  if (known) return known;
  const out = layoutInheritance(files, layout);
  if (layout) cache?.set(layout, out);
  return out;
}

/** What a slide on `layout` inherits from that layout and its master. */
function layoutInheritance(files: Map<string, Uint8Array>, layout: string | undefined): Inherited {
  const out: Inherited = { positions: new Map(), lstStyles: new Map() };
  const master = layout ? [...readRels(files, layout).values()].find((t) => /slideMasters\/[^/]+\.xml$/.test(t)) : undefined;
  for (const part of [layout, master]) {
    const xml = part ? zipText(files, part) : undefined;
    if (!xml) continue;
    const roots = parseXml(xml).children.filter(isTag);
    const tree = findFirst(roots, 'spTree');
    for (const sp of tree ? childElements(tree, 'sp') : []) {
      const pos = ownPosition(sp);
      const keys = placeholderKeys(sp);
      if (pos) for (const k of keys) if (!out.positions.has(k)) out.positions.set(k, pos);
      const body = firstChild(sp, 'txBody');
      const lst = body ? firstChild(body, 'lstStyle') : undefined;
      // a master placeholder is matched by type alone (its idx numbers are its own)
      if (lst) for (const k of part === master ? keys.filter((k) => k.startsWith('type:')) : keys) {
        const list = out.lstStyles.get(k) ?? [];
        list.push(lst);
        out.lstStyles.set(k, list);
      }
    }
    if (part === master) {
      const styles = findFirst(roots, 'txStyles');
      out.titleStyle = styles ? firstChild(styles, 'titleStyle') : undefined;
      out.bodyStyle = styles ? firstChild(styles, 'bodyStyle') : undefined;
    }
  }
  return out;
}

export function position(shape: DomElement, inherited: Inherited): [number, number] {
  // a shape in alternatives (mc:AlternateContent: one holding math, ink ...) stands where its branch's shape does
  if (localName(shape) === 'AlternateContent') {
    const branch = firstChild(shape, 'Choice') ?? firstChild(shape, 'Fallback');
    const inner = branch ? childElements(branch).find((c) => ['sp', 'grpSp', 'graphicFrame', 'pic', 'cxnSp'].includes(localName(c))) : undefined;
    return inner ? position(inner, inherited) : [0, 0];
  }
  const own = ownPosition(shape);
  if (own) return own;
  for (const k of placeholderKeys(shape)) {
    const p = inherited.positions.get(k);
    if (p) return p;
  }
  return [0, 0];
}

/** A paragraph properties element's own bullet: true (a:buChar/a:buAutoNum/a:buBlip), false (a:buNone), or unsaid. */
export function ownBullet(pPr: DomElement | undefined): boolean | undefined {
  if (!pPr) return undefined;
  if (firstChild(pPr, 'buNone')) return false;
  if (firstChild(pPr, 'buChar') || firstChild(pPr, 'buAutoNum') || firstChild(pPr, 'buBlip')) return true;
  return undefined;
}

/** Whether a paragraph of `level` (0-8) in `shape` is bulleted when the paragraph itself does not say. */
export function inheritedBullet(shape: DomElement, level: number, inherited: Inherited): boolean {
  const lvl = `lvl${Math.min(Math.max(level, 0), 8) + 1}pPr`;
  const fromList = (lst: DomElement | undefined): boolean | undefined => {
    const pPr = lst ? firstChild(lst, lvl) : undefined;
    return ownBullet(pPr);
  };
  const body = firstChild(shape, 'txBody');
  const own = fromList(body ? firstChild(body, 'lstStyle') : undefined);
  if (own !== undefined) return own;
  const ph = placeholder(shape);
  if (!ph) return false;
  const seen = new Set<DomElement>();
  for (const k of placeholderKeys(shape)) {
    for (const lst of inherited.lstStyles.get(k) ?? []) {
      if (seen.has(lst)) continue;
      seen.add(lst);
      const b = fromList(lst);
      if (b !== undefined) return b;
    }
  }
  const type = typeKey(ph.attribs['type']);
  return fromList(type === 'title' ? inherited.titleStyle : inherited.bodyStyle) ?? false;
}
