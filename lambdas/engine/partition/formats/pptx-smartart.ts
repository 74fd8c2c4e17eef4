// SmartArt on a slide: a graphicFrame whose dgm:relIds names the diagram's data part. The text a user
// typed lives in the data model's points (dgm:pt of type node or asst; no type is a node), its text in
// dgm:t; the outline those points make is in the connections (dgm:cxn of type parOf, or no type: from
// parent srcId to child destId, siblings in srcOrd order) under the point of type doc. The nodes come in
// that outline's order, each with its depth under the root (a top-level node is depth 0); nodes the
// outline does not reach follow in document order. The laid-out copy PowerPoint caches beside it (the
// diagram's drawing part) is not read, so the text is given once.
import { attr, childElements, firstChild, isTag, parseXml, type DomElement } from './common';
import { findFirst } from './pptx-layout';

export interface SmartArtNode {
  /** The node's text paragraphs (a:p). */
  paragraphs: DomElement[];
  depth: number;
}

const TEXT_POINTS = new Set(['node', 'asst']);

export function smartArtNodes(xml: string): SmartArtNode[] {
  const roots = parseXml(xml).children.filter(isTag);
  const model = findFirst(roots, 'dataModel');
  const ptLst = model ? firstChild(model, 'ptLst') : undefined;
  const cxnLst = model ? firstChild(model, 'cxnLst') : undefined;
  const points = ptLst ? childElements(ptLst, 'pt') : [];
  const byId = new Map(points.map((p) => [attr(p, 'modelId') ?? '', p]));
  const children = new Map<string, { id: string; ord: number }[]>();
  for (const c of cxnLst ? childElements(cxnLst, 'cxn') : []) {
    const type = attr(c, 'type') ?? 'parOf';
    const src = attr(c, 'srcId');
    const dest = attr(c, 'destId');
    if (type !== 'parOf' || !src || !dest) continue;
    const list = children.get(src) ?? [];
    list.push({ id: dest, ord: Number(attr(c, 'srcOrd') ?? list.length) || 0 });
    children.set(src, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.ord - b.ord);
  const out: SmartArtNode[] = [];
  const seen = new Set<string>();
  const visit = (id: string, depth: number): void => {
    // an explicit stack: a data model's outline may be deep, or loop back on itself
    const stack: [string, number][] = [[id, depth]];
    while (stack.length) {
      const [at, d] = stack.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      const pt = byId.get(at);
      const type = pt ? attr(pt, 'type') ?? 'node' : undefined;
      const texts = type && TEXT_POINTS.has(type) ? nodeParagraphs(pt!) : [];
      if (texts.length) out.push({ paragraphs: texts, depth: d });
      const below = type === 'doc' ? d : d + 1;
      for (const c of [...(children.get(at) ?? [])].reverse()) stack.push([c.id, below]);
    }
  };
  for (const pt of points) if (attr(pt, 'type') === 'doc') visit(attr(pt, 'modelId') ?? '', 0);
  for (const pt of points) {
    const id = attr(pt, 'modelId') ?? '';
    if (!seen.has(id) && TEXT_POINTS.has(attr(pt, 'type') ?? 'node')) visit(id, 0);
  }
  return out;
}

function nodeParagraphs(pt: DomElement): DomElement[] {
  const t = firstChild(pt, 't');
  return t ? childElements(t, 'p') : [];
}
