// What WordprocessingML anchors in a run of a host paragraph: text boxes (the w:txbxContent of a
// DrawingML shape, wps:txbx, or of a VML shape, v:textbox) and charts (a c:chart reference in an
// inline or floating drawing). Word writes a shape twice inside mc:AlternateContent (the DrawingML
// mc:Choice and a VML mc:Fallback holding the same text), so one branch is read: the Choice, or the
// Fallback when the Choice holds no such thing.
import { isTag, localName, type DomElement, type DomNode } from './common';

/** Element visits per paragraph while looking for boxes (a shape tree is small; this bounds hostile input). */
const MAX_VISITS = 50_000;

/**
 * The text boxes anchored in `p`, in document order. A box is not searched further: boxes nested in it
 * are found when its own paragraphs are read.
 */
export const textBoxesIn = (p: DomElement): DomElement[] => anchoredIn(p, 'txbxContent');

/** The chart references (c:chart, its r:id naming the chart part) anchored in `p`, in document order. */
export const chartsIn = (p: DomElement): DomElement[] => anchoredIn(p, 'chart');

/** Elements named `name` under `p` (not searched further), one branch of each mc:AlternateContent. */
function anchoredIn(p: DomElement, name: string): DomElement[] {
  const out: DomElement[] = [];
  let visits = 0;
  const walk = (n: DomNode): void => {
    if (!isTag(n) || ++visits > MAX_VISITS) return;
    const local = localName(n);
    if (local === name) {
      out.push(n);
      return;
    }
    // what a text box holds is found when its own paragraphs are read
    if (local === 'txbxContent') return;
    if (local === 'AlternateContent') {
      const branch = alternateBranch(n, (el) => holds(el, name));
      if (branch) walk(branch);
      return;
    }
    for (const c of n.children) walk(c);
  };
  for (const c of p.children) walk(c);
  return out;
}

/** The mc:AlternateContent branch to read: the first mc:Choice that `wanted` accepts, else the mc:Fallback. */
export function alternateBranch(ac: DomElement, wanted: (branch: DomElement) => boolean): DomElement | undefined {
  let fallback: DomElement | undefined;
  let firstChoice: DomElement | undefined;
  for (const c of ac.children) {
    if (!isTag(c)) continue;
    const name = localName(c);
    if (name === 'Choice') {
      firstChoice ??= c;
      if (wanted(c)) return c;
    } else if (name === 'Fallback') fallback ??= c;
  }
  return fallback ?? firstChoice;
}

function holds(root: DomElement, name: string): boolean {
  const stack: DomNode[] = [root];
  let visits = 0;
  while (stack.length && ++visits <= MAX_VISITS) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (localName(n) === name) return true;
    for (const c of n.children) stack.push(c);
  }
  return false;
}
