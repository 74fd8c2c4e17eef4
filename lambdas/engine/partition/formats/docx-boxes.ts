// Text boxes of WordprocessingML: the w:txbxContent of a DrawingML shape (wps:txbx) or of a VML shape
// (v:textbox), anchored in a run of a host paragraph. Word writes a shape twice inside
// mc:AlternateContent (the DrawingML mc:Choice and a VML mc:Fallback holding the same text), so one
// branch is read: the Choice, or the Fallback when the Choice holds no text box.
import { isTag, localName, type DomElement, type DomNode } from './common';

/** Element visits per paragraph while looking for boxes (a shape tree is small; this bounds hostile input). */
const MAX_VISITS = 50_000;

/**
 * The text boxes anchored in `p`, in document order. A box is not searched further: boxes nested in it
 * are found when its own paragraphs are read.
 */
export function textBoxesIn(p: DomElement): DomElement[] {
  const out: DomElement[] = [];
  let visits = 0;
  const walk = (n: DomNode): void => {
    if (!isTag(n) || ++visits > MAX_VISITS) return;
    const name = localName(n);
    if (name === 'txbxContent') {
      out.push(n);
      return;
    }
    if (name === 'AlternateContent') {
      const branch = alternateBranch(n, (el) => hasBox(el));
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

function hasBox(root: DomElement): boolean {
  const stack: DomNode[] = [root];
  let visits = 0;
  while (stack.length && ++visits <= MAX_VISITS) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (localName(n) === 'txbxContent') return true;
    for (const c of n.children) stack.push(c);
  }
  return false;
}
